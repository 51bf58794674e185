// SPDX-License-Identifier: Apache-2.0
#include "injection_session.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "counterguard/core/error.hpp"
#include "counterguard/exec/recorded_processes.hpp"
#include "driver_check.hpp"
#include "injection_trace.hpp"

namespace counterguard::injection {
namespace {

// A context the driver still knows (at exit, CUDA may have torn the primary context down already).
bool context_alive(CUcontext context) {
  unsigned version = 0;
  return cuCtxGetApiVersion(context, &version) == CUDA_SUCCESS;
}

// How long a selected launch waits while another process of the program profiles (then it runs unprofiled
// and its cases say why).
constexpr double counters_wait_seconds = 600.0;
// How long the process's exit waits for a launch another thread is profiling before it tears the profilers
// down (never forever: exit() must return).
constexpr auto exit_wait = std::chrono::seconds(5);

// The session whose profilers the late exit handler releases (one per process).
injection_session* g_exiting_session = nullptr;

void release_at_exit() {
  if (g_exiting_session != nullptr)
    g_exiting_session->finish();
}

std::string launch_name(const pending_launch& pending) {
  return "kernel '" + pending.function + "'";
}

double milliseconds_between(std::chrono::steady_clock::time_point from,
                            std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

}  // namespace

injection_session::injection_session(exec_instructions instructions, process_identity identity,
                                     injection_options options, std::unique_ptr<sass_launch_collector> blame)
    : m_folder(process_folder(instructions.output_directory, identity)),
      m_counters((std::filesystem::path(instructions.output_directory) / "counters.lock").string()),
      m_selection(instructions.cases, identity),
      m_options(std::move(options)),
      m_blame(std::move(blame)),
      m_pass_groups(instructions.first_pass_group, instructions.pass_group_count,
                    instructions.automatic_replay),
      m_automatic_replay(instructions.automatic_replay) {
  m_record.process = std::move(identity);
  for (std::size_t i = 0; i < instructions.cases.size(); ++i) {
    case_progress progress;
    progress.name = instructions.cases[i].name;
    progress.applies = instructions.cases[i].selector.process.matches(m_record.process);
    m_record.cases.push_back(std::move(progress));
  }
  m_any_case = m_selection.any_case_applies();
  std::filesystem::create_directories(m_folder);
  save_record();
}

const kernel_names& injection_session::names_for(const std::string& symbol) {
  const auto found = m_names.find(symbol);
  if (found != m_names.end())
    return found->second;
  return m_names.emplace(symbol, names_of_kernel(symbol)).first->second;
}

context_profiler* injection_session::profiler_for(CUcontext context) {
  const auto found = m_profilers.find(context);
  if (found != m_profilers.end())
    return found->second.get();
  const auto started = std::chrono::steady_clock::now();
  auto profiler = std::make_unique<context_profiler>(context, m_options.reuse);
  trace("profiler for a new context set up in " +
        std::to_string(milliseconds_between(started, std::chrono::steady_clock::now())) + " ms");
  if (!m_record.device)
    m_record.device = profiler->device();
  if (m_record.device_attributes.empty())
    m_record.device_attributes =
        read_device_attributes(profiler->cu_device(), static_cast<int>(profiler->cu_device()));
  if (g_exiting_session == nullptr) {
    // exit() runs its handlers last-registered first: this one, registered after CUPTI loaded its host
    // libraries, releases the profilers before their static state is destroyed (the handler registered at
    // CUDA's initialisation would run after it, into freed state).
    g_exiting_session = this;
    std::atexit(&release_at_exit);
  }
  return m_profilers.emplace(context, std::move(profiler)).first->second.get();
}

void injection_session::fail_cases(const launch_selection::decision& decision, const std::string& problem) {
  for (const std::size_t index : decision.cases)
    m_record.cases.at(index).errors.push_back(problem);
}

void injection_session::save_record() {
  for (std::size_t i = 0; i < m_record.cases.size(); ++i) {
    m_record.cases[i].matches = m_selection.matches(i);
    m_record.cases[i].profiled = m_selection.profiled(i);
  }
  try {
    save_process_record((m_folder / "process.json").string(), m_record);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "counterguard injection (pid %lld): %s\n",
                 static_cast<long long>(m_record.process.pid), e.what());
  }
  m_record_saved = std::chrono::steady_clock::now();
  m_record_dirty = false;
}

void injection_session::save_record_soon() {
  if (std::chrono::steady_clock::now() - m_record_saved < record_interval) {
    m_record_dirty = true;
    return;
  }
  save_record();
}

void injection_session::launch_entered(pending_launch& pending, CUcontext context,
                                       const intercepted_launch& launch, const nvtx_context& nvtx) {
  pending = pending_launch{};
  {
    const std::lock_guard<std::mutex> lock(m_state);
    const kernel_names& names = names_for(launch.symbol);
    const auto seen =
        std::find_if(m_record.kernels.begin(), m_record.kernels.end(),
                     [&](const seen_kernel& kernel) { return kernel.mangled == names.mangled; });
    const bool new_kernel = seen == m_record.kernels.end();
    note_launch(m_record, names.function, names.mangled, nvtx);
    if (new_kernel)
      attach_module_resources();
    pending.decision = m_selection.decide(names, nvtx);
    if (pending.decision.profiled())
      pending.nvtx = nvtx.describe();
    pending.function = names.function;
    pending.mangled = names.mangled;
    if (new_kernel)
      save_record();
  }
  if (!m_any_case)
    return;  // nothing is profiled in this process: no gate to pass
  pending.active = true;
  pending.context = context;
  pending.launch = launch;
  pending.started = std::chrono::steady_clock::now();
  if (!pending.decision.profiled() || m_disabled) {
    pending.decision = {};
    m_gate.lock_shared();
    return;
  }
  m_gate.lock();
  pending.exclusive = true;
  std::unique_lock<std::mutex> lock(m_state);
  if (!m_counters.held())
    start_handover_watch();
  if (!m_counters.acquire(counters_wait_seconds)) {
    fail_cases(pending.decision, launch_name(pending) + ": not profiled: " + m_counters.problem());
    save_record();
    m_gate.unlock();
    pending = pending_launch{};  // the launch runs unprofiled; its exit has nothing to do
    return;
  }
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  if (cuMemGetInfo(&free_bytes, &total_bytes) == CUDA_SUCCESS)
    pending.device_bytes_in_use = total_bytes - free_bytes;
  try {
    if (m_blame) {
      if (m_blame->available()) {
        m_blame->begin(context);
        pending.profiling = true;
      }
    } else if (context_profiler* profiler = profiler_for(context); !pending.decision.raw_metrics.empty()) {
      // The process's one configuration, or the cases' own counters when one of them keeps its own; of it,
      // the pass groups this run collects.
      pending.counters = &m_pass_groups.choose(
          pending.decision.configuration(m_selection.process_raw_metrics()), profiler->device().chip);
      choose_collection(pending, free_bytes);
      if (!pending.collected->empty()) {
        profiler->begin(*pending.collected);
        pending.profiling = true;
      }
    }
  } catch (const environment_error& e) {
    m_disabled = true;
    m_record.environment = e.problem();
    m_record.environment_message = e.what();
    save_record();
  } catch (const std::exception& e) {
    fail_cases(pending.decision, launch_name(pending) + ": " + e.what());
    save_record();
  }
  pending.begun = std::chrono::steady_clock::now();
}

void injection_session::choose_collection(pending_launch& pending, std::uint64_t free_bytes) {
  const pass_group_choice::choice& choice = *pending.counters;
  pending.collected = &choice.counters;
  pending.every_group = choice.whole;
  if (!m_automatic_replay || choice.groups < 2)
    return;
  automatic_replay::launch_outlook outlook;
  outlook.pass_groups = choice.groups;
  outlook.kernel_replay_passes = choice.kernel_replay_passes;
  outlook.bytes_in_use = pending.device_bytes_in_use;
  outlook.bytes_free = free_bytes;
  outlook.program_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count() -
      m_profiling_seconds;
  if (const auto after_this = m_selection.bounded_launches_to_come())
    outlook.launches_to_come = *after_this + 1;
  pending.kernel_replayed = m_replay.kernel_replay(outlook);
  if (!pending.kernel_replayed) {
    pending.collected = &choice.first_group;
    pending.every_group = false;
  }
  if (m_record.replay_decision != m_replay.decision()) {
    m_record.replay_decision = m_replay.decision();
    trace("automatic replay: " + m_record.replay_decision);
  }
}

void injection_session::note_replay_cost(const pending_launch& pending, double launch_milliseconds,
                                         int passes) {
  if (!m_automatic_replay || pending.counters == nullptr)
    return;
  if (pending.kernel_replayed) {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    if (cuMemGetInfo(&free_bytes, &total_bytes) == CUDA_SUCCESS)
      m_replay.kernel_replayed(launch_milliseconds, passes, total_bytes - free_bytes);
  } else if (passes == 1) {
    m_replay.one_pass_launch_took(launch_milliseconds);
  }
}

void injection_session::nested_launch(pending_launch& pending, const intercepted_launch& launch) {
  if (pending.active && pending.launch.function == nullptr && launch.function != nullptr)
    pending.launch.function = launch.function;
}

void injection_session::launch_exited(pending_launch& pending,
                                      const std::vector<std::uint32_t>& loaded_during_call) {
  if (!pending.active)
    return;
  if (!loaded_during_call.empty() && !pending.exclusive) {
    // The launch loaded its function's module lazily: which module that is, for later launches of it.
    CUmodule module = nullptr;
    const CUfunction function = launched_function(pending.launch);
    if (function != nullptr && cuFuncGetModule(&module, function) == CUDA_SUCCESS) {
      const std::lock_guard<std::mutex> lock(m_state);
      m_modules.bind(reinterpret_cast<std::uintptr_t>(module), loaded_during_call, pending.mangled);
    }
  }
  if (!pending.exclusive) {
    m_gate.unlock_shared();
    pending = pending_launch{};
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(m_state);
    const auto profiler = m_profilers.find(pending.context);
    if (m_blame) {
      finish_blamed_launch(pending);
    } else if (m_disabled || profiler == m_profilers.end()) {
      // The profiler could not be set up; the reason is recorded already.
    } else {
      recorded_launch record;
      record.cases = {};
      for (const std::size_t index : pending.decision.cases)
        record.cases.push_back(m_selection.cases().at(index).name);
      profiled_launch& launch = record.data.launches.emplace_back();
      launch.range_index = 0;
      launch.range_name = "0";
      launch.mangled = pending.mangled;
      launch.function = pending.function;
      launch.grid = pending.launch.grid;
      launch.block = pending.launch.block;
      launch.cluster = pending.launch.cluster;
      launch.dynamic_shared_bytes = pending.launch.dynamic_shared_bytes;
      record.attributes_known = read_launch_attributes(pending.launch, profiler->second->cu_device(),
                                                       profiler->second->max_threads_per_sm(), launch);
      if (record.attributes_known)
        identify_code(pending, launch, loaded_during_call, launch.code);
      const auto exited = std::chrono::steady_clock::now();
      auto ended = exited;
      std::string trace_line;  // said once the process record is written too
      auto recorded = exited;
      try {
        if (pending.profiling) {
          pending.profiling = false;
          launch_capture capture = profiler->second->end();
          ended = std::chrono::steady_clock::now();
          record.data.image = std::move(capture.image);
          record.data.passes = capture.passes;
          record.data.dropped_ranges = capture.dropped_ranges;
          record.data.raw_metrics = *pending.collected;
        } else {
          record.data.image.chip = profiler->second->device().chip;
        }
        record.data.name = record.cases.empty() ? std::string() : record.cases.front();
        record.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - pending.started).count();
        record.launch_milliseconds = milliseconds_between(pending.begun, exited);
        record.device_bytes_in_use = pending.device_bytes_in_use;
        record.setup_milliseconds = milliseconds_between(pending.started, pending.begun);
        record.pass_groups = pending.counters != nullptr ? pending.counters->groups : 0;
        record.every_group_collected = pending.every_group;
        note_replay_cost(pending, record.launch_milliseconds, record.data.passes);
        record.nvtx = pending.nvtx;
        record.ordinals = pending.decision.ordinals;
        save_recorded_launch(m_folder, m_next_archive++, profiler->second->device().chip, record);
        if (tracing()) {
          const auto saved = std::chrono::steady_clock::now();
          char line[256];
          std::snprintf(line, sizeof(line),
                        "profiled launch %d (%d passes): lock and set-up %.1f ms, launch and replay %.1f ms, "
                        "stop and decode %.1f ms, recording %.1f ms",
                        m_next_archive - 1, record.data.passes,
                        milliseconds_between(pending.started, pending.begun),
                        milliseconds_between(pending.begun, exited), milliseconds_between(exited, ended),
                        milliseconds_between(ended, saved));
          trace_line = line;
          recorded = saved;
        }
      } catch (const std::exception& e) {
        profiler->second->abandon();
        fail_cases(pending.decision, launch_name(pending) + ": " + e.what());
        save_record();
      }
      save_record_soon();
      if (!trace_line.empty()) {
        char tail[64];
        std::snprintf(tail, sizeof(tail), ", process record %.1f ms ",
                      milliseconds_between(recorded, std::chrono::steady_clock::now()));
        trace(trace_line + tail + launch_name(pending));
      }
    }
    if (m_counters.others_waiting())
      hand_over_counters();
  }
  m_profiling_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - pending.started).count();
  m_gate.unlock();
  pending = pending_launch{};
}

void injection_session::finish_blamed_launch(pending_launch& pending) {
  if (!pending.profiling)
    return;  // not collected: the process's one collection went to an earlier launch, or failed
  pending.profiling = false;
  const std::string case_name = pending.decision.cases.empty()
                                    ? std::string()
                                    : m_selection.cases().at(pending.decision.cases.front()).name;
  try {
    m_blame->end(m_folder, m_next_archive++, case_name);
  } catch (const std::exception& e) {
    m_blame->abandon();
    fail_cases(pending.decision, launch_name(pending) + ": no per-instruction counters: " + e.what());
  }
  save_record();
}

void injection_session::hand_over_counters() {
  for (auto& [context, profiler] : m_profilers) {
    if (context_alive(context))
      profiler->release();
  }
  m_counters.release();
}

void injection_session::start_handover_watch() {
  if (m_watching)
    return;
  m_watching = true;
  // Between launches (a rank at a barrier) nothing else would notice a waiting process. Never joined: the
  // session lives until the process ends, and the thread stops touching it once finish() has run.
  std::thread([this] {
    while (true) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (!m_gate.try_lock())
        continue;  // a launch is in flight: its exit hands over
      {
        const std::lock_guard<std::mutex> lock(m_state);
        if (m_finished) {
          m_gate.unlock();
          return;
        }
        if (m_counters.held() && m_counters.others_waiting())
          hand_over_counters();
        if (m_record_dirty)
          save_record();
      }
      m_gate.unlock();
    }
  }).detach();
}

void injection_session::context_destroying(CUcontext context) {
  const std::lock_guard<std::mutex> lock(m_state);
  const auto found = m_profilers.find(context);
  if (found != m_profilers.end()) {
    found->second->release();
    m_profilers.erase(found);
  }
}

void injection_session::finish() {
  if (static_cast<std::int64_t>(::getpid()) != m_record.process.pid)
    return;  // a forked child that inherited this session: the record belongs to its parent
  // exit() may come from one thread while another is inside a launch: wait a little for it to finish (a
  // profiled launch holds the gate), never forever.
  const auto deadline = std::chrono::steady_clock::now() + exit_wait;
  bool gate = false;
  while (!(gate = m_gate.try_lock()) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::unique_lock<std::mutex> lock(m_state, std::defer_lock);
  while (!lock.try_lock() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!lock.owns_lock() || m_finished) {
    if (gate)
      m_gate.unlock();
    return;
  }
  bool all_released = gate;  // a launch still in flight keeps its profiler: the driver frees it at exit
  if (gate) {
    for (auto& [context, profiler] : m_profilers) {
      if (context_alive(context))
        profiler->release();
      else
        all_released = false;  // CUDA tore the context down; the driver dropped its profiler with it
    }
  }
  if (all_released)
    deinitialize_profiler_api();
  m_counters.release();
  m_finished = true;
  m_record.finished = true;
  save_record();
  if (gate)
    m_gate.unlock();
}

}  // namespace counterguard::injection
