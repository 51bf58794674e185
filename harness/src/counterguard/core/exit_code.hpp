// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace counterguard {

// The process exit status, documented in docs/cli.md. CI scripts branch on these values.
enum class exit_code : int {
  success = 0,         // every check passed (skips included, unless --require-gpu)
  check_failed = 1,    // a regression, a failed expectation, a wrong kernel output, a faulting kernel
  invalid_input = 2,   // bad YAML, unknown metric/kernel/field, bad flag, foreign baseline
  environment = 3,     // no GPU where one is required, no profiling permission, GPU held by a profiler
  internal_error = 4,  // a bug in counterguard
};

}  // namespace counterguard
