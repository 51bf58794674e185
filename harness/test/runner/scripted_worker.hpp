// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stand-ins for the GPU worker: shell scripts that write protocol events (worker_protocol.hpp) to descriptor
// 3 as the real worker does, so the parent side of isolation and scheduling is tested without a GPU.

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/runner/isolated_runner.hpp"

namespace counterguard::test {

inline case_instance scripted_instance(const std::string& name) {
  case_instance i;
  i.suite = "s";
  i.case_name = name;
  i.name = "s/" + name;
  i.kernel = "k";
  return i;
}

// {"event":"device"} for a GPU with `sm_count` SMs (the GPU key depends on it).
inline std::string scripted_device_event(int sm_count = 132) {
  run_results wrapper;
  wrapper.metadata.device.name = "Scripted GPU";
  wrapper.metadata.device.chip = "GH100";
  wrapper.metadata.device.sm_count = sm_count;
  wrapper.metadata.device.cuda_runtime_version = "13.0";
  return nlohmann::json{{"event", "device"}, {"results", wrapper}}.dump();
}

// A shell command that writes a passing result event for the instance named by the shell variable `variable`.
inline std::string emit_result_for(const std::string& variable) {
  run_results wrapper;
  case_result result;
  result.instance = "@NAME@";
  result.suite = "s";
  result.case_name = "scripted";
  result.kernel = "k";
  result.verified = true;
  result.totals["value"] = metric_value{42.0, metric_class::exact};
  wrapper.cases.push_back(result);
  const std::string event = nlohmann::json{{"event", "result"}, {"results", wrapper}}.dump();
  const auto at = event.find("@NAME@");
  return "printf '%s%s%s\\n' '" + event.substr(0, at) + "' \"$" + variable + "\" '" + event.substr(at + 6) +
         "' >&3\n";
}

inline std::string emit(const std::string& json) {
  return "echo '" + json + "' >&3\n";
}

// The device ordinal of the request ($2), as shell variable `device`.
inline std::string read_device_from_request() {
  return "device=$(sed -n 's/.*\"device\":\\([0-9]*\\).*/\\1/p' \"$2\")\n";
}

class scripted_worker {
 public:
  explicit scripted_worker(const std::string& body) {
    static int counter = 0;
    m_path = std::filesystem::temp_directory_path() / ("counterguard-scripted-" + std::to_string(::getpid()) +
                                                       "-" + std::to_string(counter++) + ".sh");
    std::ofstream(m_path) << "#!/bin/sh\n" << body;
    ::chmod(m_path.c_str(), 0755);
  }
  scripted_worker(const scripted_worker&) = delete;
  scripted_worker& operator=(const scripted_worker&) = delete;
  ~scripted_worker() { std::filesystem::remove(m_path); }

  [[nodiscard]] isolated_run_options options(double timeout_seconds = 5.0) const {
    isolated_run_options o;
    o.executable = m_path.string();
    o.case_timeout_seconds = timeout_seconds;
    o.echo_progress = false;
    o.lock_gpu = false;
    return o;
  }

 private:
  std::filesystem::path m_path;
};

// A scratch directory removed at the end of the test.
class scratch_dir {
 public:
  scratch_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "counterguard-runner-XXXXXX").string();
    m_path = ::mkdtemp(pattern.data());
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  [[nodiscard]] std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

}  // namespace counterguard::test
