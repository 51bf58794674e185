#include "injection_session.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "counterguard/core/error.hpp"
#include "counterguard/exec/exec_recording.hpp"
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
// How long a selected launch waits for its context's background set-up (it takes about 0.4 s on the H200;
// the bound keeps a set-up that never returns from hanging the program), and a context's destruction or the
// process's exit.
constexpr double early_setup_wait_seconds = 120.0;
constexpr double early_setup_wait_at_end_seconds = 10.0;

std::string launch_name(const pending_launch& pending) {
  return "kernel '" + pending.function + "'";
}

double milliseconds_between(std::chrono::steady_clock::time_point from,
                            std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

}  // namespace

injection_session::injection_session(exec_instructions instructions, process_identity identity,
                                     injection_options options)
    : m_folder(process_folder(instructions.output_directory, identity)),
      m_counters((std::filesystem::path(instructions.output_directory) / "counters.lock").string()),
      m_selection(instructions.cases, identity),
      m_options(std::move(options)) {
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

context_profiler* injection_session::profiler_for(std::unique_lock<std::mutex>& lock, CUcontext context) {
  if (m_early_setups.count(context) != 0) {
    const auto waiting = std::chrono::steady_clock::now();
    if (!wait_for_early_setup(lock, context, early_setup_wait_seconds)) {
      throw api_error("the range profiler's set-up for this context did not finish in " +
                          std::to_string(static_cast<int>(early_setup_wait_seconds)) + " s",
                      0);
    }
    trace("the launch waited " +
          std::to_string(milliseconds_between(waiting, std::chrono::steady_clock::now())) +
          " ms for the context's background set-up");
    if (m_disabled && m_record.environment)
      throw environment_error(*m_record.environment, m_record.environment_message);
  }
  const auto found = m_profilers.find(context);
  if (found != m_profilers.end())
    return found->second.get();
  const auto started = std::chrono::steady_clock::now();
  auto profiler = std::make_unique<context_profiler>(context, m_options.reuse);
  trace("profiler for a new context set up in " +
        std::to_string(milliseconds_between(started, std::chrono::steady_clock::now())) + " ms");
  if (!m_record.device)
    m_record.device = profiler->device();
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
    const bool contexts_full =
        !new_kernel && seen->nvtx.size() >= process_record::max_nvtx_contexts_per_kernel;
    note_launch(m_record, names.function, names.mangled, contexts_full ? std::string() : nvtx.describe());
    pending.decision = m_selection.decide(names, nvtx);
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
  try {
    context_profiler* profiler = profiler_for(lock, context);
    if (!pending.decision.raw_metrics.empty()) {
      // The process's one configuration, or the cases' own counters when one of them keeps its own.
      profiler->begin(pending.decision.configuration(m_selection.process_raw_metrics()));
      pending.profiling = true;
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

void injection_session::nested_launch(pending_launch& pending, const intercepted_launch& launch) {
  if (pending.active && pending.launch.function == nullptr && launch.function != nullptr)
    pending.launch.function = launch.function;
}

void injection_session::launch_exited(pending_launch& pending) {
  if (!pending.active)
    return;
  if (!pending.exclusive) {
    m_gate.unlock_shared();
    pending = pending_launch{};
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(m_state);
    const auto profiler = m_profilers.find(pending.context);
    if (m_disabled || profiler == m_profilers.end()) {
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
          record.data.raw_metrics = pending.decision.configuration(m_selection.process_raw_metrics());
        } else {
          record.data.image.chip = profiler->second->device().chip;
        }
        record.data.name = record.cases.empty() ? std::string() : record.cases.front();
        record.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - pending.started).count();
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
  m_gate.unlock();
  pending = pending_launch{};
}

void injection_session::hand_over_counters() {
  if (!m_early_setups.empty())
    return;  // a background set-up uses the counters: the hand-over watch tries again in a moment
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

void injection_session::context_created(CUcontext context) {
  if (!m_options.early_setup || !m_any_case || m_disabled)
    return;
  const std::lock_guard<std::mutex> lock(m_state);
  if (m_finished || m_profilers.count(context) != 0 || m_early_setups.count(context) != 0)
    return;
  // With the counters (free, nobody waiting), the whole set-up up to Start; without them, only what needs
  // none (the profiler API's initialisation): the first selected launch waits for them as before.
  const bool counters = m_counters.try_acquire();
  if (counters)
    start_handover_watch();
  m_gone.erase(context);  // a new context at the address of one destroyed before
  m_early_setups.insert(context);
  try {
    // Detached like the hand-over watch; it touches the session under m_state only, and the session waits
    // for it (bounded) before it lets the context or the process go.
    std::thread([this, context, counters] { set_up_early(context, counters); }).detach();
  } catch (const std::exception& e) {
    m_early_setups.erase(context);
    trace(std::string("no background set-up: ") + e.what());
  }
}

// Runs on a thread of its own while the program goes on; CUPTI's profiler calls for one context are not made
// from two threads at once: a launch on this context waits in profiler_for() until this has finished. The
// CUPTI samples set the profiler up on the thread that launches (concurrent_profiling.cu sets up one per
// device, each on its own thread); on the H200 this measures the same values (validation/exec_checks.sh
// setups).
void injection_session::set_up_early(CUcontext context, bool counters) {
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<context_profiler> profiler;
  std::exception_ptr failure;
  try {
    if (!counters) {
      initialize_profiler_api();
    } else {
      check_driver(cuCtxPushCurrent(context), "cuCtxPushCurrent");
      try {
        profiler = std::make_unique<context_profiler>(context, m_options.reuse);
        if (!m_selection.process_raw_metrics().empty())
          profiler->prepare(m_selection.process_raw_metrics());
      } catch (...) {
        failure = std::current_exception();
      }
      CUcontext popped = nullptr;
      static_cast<void>(cuCtxPopCurrent(&popped));
    }
  } catch (...) {
    failure = std::current_exception();
  }
  const std::lock_guard<std::mutex> lock(m_state);
  m_early_setups.erase(context);
  const bool gone = m_gone.erase(context) != 0 || m_finished;
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const environment_error& e) {
      m_disabled = true;  // what the first selected launch would have found: nothing is profiled
      m_record.environment = e.problem();
      m_record.environment_message = e.what();
      save_record();
    } catch (const std::exception& e) {
      trace(std::string("background set-up failed (the first selected launch sets up again): ") + e.what());
    }
    if (!gone)
      profiler.reset();  // disables a profiler enabled before the failure
  }
  if (gone) {
    // The context went (or the process exits) while this ran: the driver frees the profiler with it.
    static_cast<void>(profiler.release());
  } else if (profiler) {
    if (!m_record.device)
      m_record.device = profiler->device();
    m_profilers.emplace(context, std::move(profiler));
  }
  trace(std::string("background set-up ") + (counters ? "of the context's profiler" : "of the profiler API") +
        " took " + std::to_string(milliseconds_between(started, std::chrono::steady_clock::now())) + " ms");
  m_early_setup_done.notify_all();
}

bool injection_session::wait_for_early_setup(std::unique_lock<std::mutex>& lock, CUcontext context,
                                             double seconds) {
  return m_early_setup_done.wait_for(lock, std::chrono::duration<double>(seconds), [&] {
    return context == nullptr ? m_early_setups.empty() : m_early_setups.count(context) == 0;
  });
}

void injection_session::context_destroying(CUcontext context) {
  std::unique_lock<std::mutex> lock(m_state);
  if (m_early_setups.count(context) != 0 &&
      !wait_for_early_setup(lock, context, early_setup_wait_at_end_seconds)) {
    m_gone.insert(context);
    return;
  }
  const auto found = m_profilers.find(context);
  if (found != m_profilers.end()) {
    found->second->release();
    m_profilers.erase(found);
  }
}

void injection_session::finish() {
  if (static_cast<std::int64_t>(::getpid()) != m_record.process.pid)
    return;  // a forked child that inherited this session: the record belongs to its parent
  // exit() may come from one thread while another is inside a launch: wait a little, never forever.
  std::unique_lock<std::mutex> lock(m_state, std::defer_lock);
  for (int attempt = 0; attempt < 500 && !lock.try_lock(); ++attempt)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!lock.owns_lock())
    return;
  bool all_released = wait_for_early_setup(lock, nullptr, early_setup_wait_at_end_seconds);
  for (const CUcontext context : m_early_setups)
    m_gone.insert(context);  // still setting up: left to the driver
  for (auto& [context, profiler] : m_profilers) {
    if (context_alive(context))
      profiler->release();
    else
      all_released = false;  // CUDA tore the context down; the driver dropped its profiler with it
  }
  if (all_released)
    deinitialize_profiler_api();
  m_counters.release();
  m_finished = true;
  m_record.finished = true;
  save_record();
}

}  // namespace counterguard::injection
