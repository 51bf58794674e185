// SPDX-License-Identifier: Apache-2.0
#include "counterguard/pipeline/run_identity.hpp"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "counterguard/baselines/gpu_key.hpp"
#include "counterguard/build_info.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

std::string command_output(const char* command) {
  std::string output;
  FILE* pipe = ::popen(command, "r");
  if (pipe == nullptr)
    return output;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    output += buffer.data();
  ::pclose(pipe);
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r'))
    output.pop_back();
  return output;
}

}  // namespace

run_metadata host_metadata(const std::string& mode, const std::string& command_line) {
  run_metadata metadata;
  metadata.counterguard_version = COUNTERGUARD_VERSION;
  metadata.mode = mode;
  metadata.command_line = command_line;
  // The environment wins (CI checkouts without .git, GPU hosts that get a copy of the tree).
  const char* commit = std::getenv("COUNTERGUARD_GIT_COMMIT");
  metadata.git_commit = commit != nullptr ? commit : command_output("git rev-parse HEAD 2>/dev/null");
  if (metadata.git_commit.size() != 40)
    metadata.git_commit = "unknown";
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::array<char, 32> stamp{};
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(stamp.data(), stamp.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  metadata.started_at = stamp.data();
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0)
    metadata.hostname = host.data();
  return metadata;
}

void adopt_device(run_metadata& metadata, const device_description& device) {
  metadata.device = device;
  metadata.gpu_key = make_gpu_key(device);
}

std::string self_executable() {
  std::array<char, 4096> path{};
  const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0)
    throw environment_error(environment_problem::process,
                            "cannot find this program's path (/proc/self/exe), needed to start GPU workers");
  return std::string(path.data(), static_cast<std::size_t>(length));
}

}  // namespace counterguard
