// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <string>
#include <utility>

namespace counterguard {

// The outcome of comparing a kernel's output with its CPU reference.
struct verification {
  bool passed = false;
  std::string message;  // on failure: the first mismatch ("y[1027] = 3.5, expected 4.0") and a count
  bool checked = true;  // false: the variant has no verification; reported as unverified, never as verified

  static verification success() { return {true, {}, true}; }
  static verification failure(std::string why) { return {false, std::move(why), true}; }
  static verification unverified() {
    return {true, "no verification registered: the output was not checked", false};
  }
};

// One prepared case instance of a kernel variant. The factory allocates and fills the inputs (outside the
// profiled region); launch() enqueues the kernel(s) on the stream and is what gets profiled; verify()
// runs after profiling and compares the output with a CPU reference. A wrong answer fails the case
// whatever its counters say.
class kernel_run {
 public:
  kernel_run() = default;
  kernel_run(const kernel_run&) = delete;
  kernel_run& operator=(const kernel_run&) = delete;
  virtual ~kernel_run() = default;

  virtual void launch(cudaStream_t stream) = 0;
  [[nodiscard]] virtual verification verify() = 0;
  // Extra metrics the variant computes itself (e.g. theoretical occupancy from the occupancy API),
  // by metric name. Called after launch().
  [[nodiscard]] virtual std::map<std::string, double> runtime_metrics() { return {}; }
};

}  // namespace counterguard
