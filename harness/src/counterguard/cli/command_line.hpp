// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace counterguard {

// The counterguard command line (run, static, evaluate, baseline, metrics, kernels). Returns the exit
// status documented in docs/cli.md; every error is caught here and reported once.
int run_command_line(int argc, char** argv);

}  // namespace counterguard
