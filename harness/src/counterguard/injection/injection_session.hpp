// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "context_profiler.hpp"
#include "counterguard/exec/automatic_replay.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/launch_selection.hpp"
#include "counterguard/exec/process_record.hpp"
#include "counterguard/statics/loaded_modules.hpp"
#include "counters_lock.hpp"
#include "injection_options.hpp"
#include "launch_inspection.hpp"
#include "pass_group_choice.hpp"
#include "sass_launch_collector.hpp"

namespace counterguard::injection {

// One launch between its API's entry and exit callbacks, on one thread.
struct pending_launch {
  bool active = false;
  bool exclusive = false;  // holds the launch gate exclusively (it is profiled)
  bool profiling = false;  // the range profiler was started for it
  CUcontext context = nullptr;
  intercepted_launch launch;
  std::string function;
  std::string mangled;
  std::string nvtx;
  launch_selection::decision decision;
  std::chrono::steady_clock::time_point started;
  std::chrono::steady_clock::time_point begun;  // the range profiler started (or the launch let through)
  std::uint64_t device_bytes_in_use = 0;        // when it began: kernel replay restores it between passes
  const pass_group_choice::choice* counters = nullptr;  // its configuration's choice
  const std::vector<std::string>* collected = nullptr;  // what this run collects for it, of that choice
  bool every_group = false;                             // `collected` is its whole configuration
  bool kernel_replayed = false;                         // automatic replay chose kernel replay for it
};

// What the injection library does in one process: counts every kernel launch, profiles the ones the
// instructions select (one at a time: other threads' launches wait at the gate while a selected launch is
// profiled, so they neither land in its range nor run unprofiled inside it) and records the process, its
// kernels and each profiled launch into the recording directory as they happen.
class injection_session {
 public:
  // With `blame` (a blame pass), selected launches are collected by it instead of the range profiler.
  injection_session(exec_instructions instructions, process_identity identity, injection_options options,
                    std::unique_ptr<sass_launch_collector> blame = nullptr);

  [[nodiscard]] const process_identity& identity() const { return m_record.process; }
  [[nodiscard]] const std::filesystem::path& folder() const { return m_folder; }

  void launch_entered(pending_launch& pending, CUcontext context, const intercepted_launch& launch,
                      const nvtx_context& nvtx);
  // A driver launch under a claimed runtime launch: it names the function, for the launch attributes.
  void nested_launch(pending_launch& pending, const intercepted_launch& launch);
  // `loaded_during_call`: the modules loaded on this thread while the launch call ran (lazy loading).
  void launch_exited(pending_launch& pending, const std::vector<std::uint32_t>& loaded_during_call);
  // The context is about to be destroyed: its range profiler goes first.
  void context_destroying(CUcontext context);
  // The driver loaded a module into `context`: the resources of its kernels are kept for those the program
  // launches (`image`: what the driver was given, valid during the call only).
  void module_loaded(CUcontext context, std::uint32_t module_id, const std::uint8_t* image, std::size_t size);
  void module_unloading(std::uint32_t module_id);
  // A module-load call (cuModuleLoadData, cuLibraryLoadData, ...) returned, having loaded `loaded` on this
  // thread: the handle it returned is theirs.
  void module_load_returned(CUpti_CallbackId id, const CUpti_CallbackData& data,
                            const std::vector<std::uint32_t>& loaded);
  // At exit (twice: from the handler registered when CUDA initialised and from the one registered when the
  // first profiler was set up; the first call does the work): releases the profilers of live contexts and
  // writes the record a last time.
  void finish();

 private:
  [[nodiscard]] const kernel_names& names_for(const std::string& symbol);
  // Gives the seen kernels whose module has been read their resources (m_state held); true when one got them.
  bool attach_module_resources();
  // The code of the function `pending` launched (m_state held): its resources are kept in the process record
  // under the key the launch names; false when the function cannot be queried.
  bool identify_code(const pending_launch& pending, const profiled_launch& attributes,
                     const std::vector<std::uint32_t>& loaded_during_call, std::string& key);
  // The context's profiler, set up at its first selected launch on the launching thread (m_state held), as
  // CUPTI's samples do: a set-up on a thread of its own raced the program's exit (a program that selected
  // nothing left it running while its libraries were torn down).
  context_profiler* profiler_for(CUcontext context);
  void fail_cases(const launch_selection::decision& decision, const std::string& problem);
  // Disables the range profilers and lets another process of the program have the counters (m_state held).
  void hand_over_counters();
  // Starts the thread that hands the counters over while this process is between launches.
  void start_handover_watch();
  // Writes the process record now (a new kernel, an error, the end).
  void save_record();
  // After a profiled launch: at most every record_interval, the hand-over thread and finish() writing what is
  // left. On the H200 writing it after every launch was 0.3 ms of exec's 2.4 ms per launch
  // (validation/exec_checks.sh overhead); a program killed by a signal loses at most the last interval's
  // launch counts, never a recorded launch (each launch's counter data is written as it ends).
  void save_record_soon();
  // A blame pass's launch after it returned (m_state held): its counters and cubin written, or its cases
  // failed saying why.
  void finish_blamed_launch(pending_launch& pending);
  // What this run collects of the launch's configuration (m_state held): automatic replay decides here
  // between kernel replay and leaving its later groups to further runs.
  void choose_collection(pending_launch& pending, std::uint64_t free_bytes);
  // Tells automatic replay what a profiled launch cost (m_state held).
  void note_replay_cost(const pending_launch& pending, double launch_milliseconds, int passes);
  static constexpr std::chrono::milliseconds record_interval{20};

  std::mutex m_state;
  std::shared_mutex m_gate;
  std::filesystem::path m_folder;
  counters_lock m_counters;  // held from a profiled launch's entry to its exit
  launch_selection m_selection;
  process_record m_record;
  std::unordered_map<std::string, kernel_names> m_names;
  // The kernels of every module loaded so far, by mangled name.
  std::unordered_map<std::string, kernel_resources> m_module_kernels;
  // Every module loaded so far by id, and which CUmodule each became: what names each launch's own code.
  loaded_modules m_modules;
  std::map<CUcontext, std::unique_ptr<context_profiler>> m_profilers;
  injection_options m_options;
  std::unique_ptr<sass_launch_collector> m_blame;  // a blame pass: no range profiler
  pass_group_choice m_pass_groups;
  bool m_automatic_replay = false;
  automatic_replay m_replay;  // with m_automatic_replay: kernel replay or further runs, launch by launch
  std::chrono::steady_clock::time_point m_started = std::chrono::steady_clock::now();
  double m_profiling_seconds = 0.0;     // spent in profiled launches, from entry to exit
  std::atomic<bool> m_disabled{false};  // an environment problem stops all profiling in this process
  bool m_any_case = false;              // a case applies to this process: launches may be profiled
  int m_next_archive = 0;
  bool m_watching = false;  // the hand-over thread runs
  bool m_finished = false;  // finish() ran: the hand-over thread stops
  std::chrono::steady_clock::time_point m_record_saved{};
  bool m_record_dirty = false;  // launches since the record was last written
};

}  // namespace counterguard::injection
