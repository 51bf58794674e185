#pragma once

#include <cuda.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "context_profiler.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/launch_selection.hpp"
#include "counterguard/exec/process_record.hpp"
#include "counters_lock.hpp"
#include "injection_options.hpp"
#include "launch_inspection.hpp"

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
};

// What the injection library does in one process: counts every kernel launch, profiles the ones the
// instructions select (one at a time: other threads' launches wait at the gate while a selected launch is
// profiled, so they neither land in its range nor run unprofiled inside it) and records the process, its
// kernels and each profiled launch into the recording directory as they happen.
class injection_session {
 public:
  injection_session(exec_instructions instructions, process_identity identity, injection_options options);

  [[nodiscard]] const process_identity& identity() const { return m_record.process; }
  [[nodiscard]] const std::filesystem::path& folder() const { return m_folder; }

  void launch_entered(pending_launch& pending, CUcontext context, const intercepted_launch& launch,
                      const nvtx_context& nvtx);
  // A driver launch under a claimed runtime launch: it names the function, for the launch attributes.
  void nested_launch(pending_launch& pending, const intercepted_launch& launch);
  void launch_exited(pending_launch& pending);
  // A context was created: its range profiler is set up on a background thread while the program goes on
  // (options.early_setup), so that its first selected launch does not wait for the set-up.
  void context_created(CUcontext context);
  // The context is about to be destroyed: its range profiler goes first.
  void context_destroying(CUcontext context);
  // At exit: releases the profilers of live contexts and writes the record a last time.
  void finish();

 private:
  [[nodiscard]] const kernel_names& names_for(const std::string& symbol);
  // The context's profiler, set up now or waited for while a background set-up runs (m_state held by `lock`).
  context_profiler* profiler_for(std::unique_lock<std::mutex>& lock, CUcontext context);
  // The background set-up of a new context's profiler (`counters`: this process holds them for it).
  void set_up_early(CUcontext context, bool counters);
  // Waits (m_state held by `lock`) until no background set-up runs for `context` (any, when null).
  bool wait_for_early_setup(std::unique_lock<std::mutex>& lock, CUcontext context, double seconds);
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
  static constexpr std::chrono::milliseconds record_interval{20};

  std::mutex m_state;
  std::shared_mutex m_gate;
  std::filesystem::path m_folder;
  counters_lock m_counters;  // held from a profiled launch's entry to its exit
  launch_selection m_selection;
  process_record m_record;
  std::unordered_map<std::string, kernel_names> m_names;
  std::map<CUcontext, std::unique_ptr<context_profiler>> m_profilers;
  injection_options m_options;
  std::set<CUcontext> m_early_setups;  // contexts whose profiler a background thread sets up
  std::set<CUcontext> m_gone;          // contexts destroyed before their background set-up finished
  std::condition_variable m_early_setup_done;
  std::atomic<bool> m_disabled{false};  // an environment problem stops all profiling in this process
  bool m_any_case = false;              // a case applies to this process: launches may be profiled
  int m_next_archive = 0;
  bool m_watching = false;  // the hand-over thread runs
  bool m_finished = false;  // finish() ran: the hand-over thread stops
  std::chrono::steady_clock::time_point m_record_saved{};
  bool m_record_dirty = false;  // launches since the record was last written
};

}  // namespace counterguard::injection
