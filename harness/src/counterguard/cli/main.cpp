// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cli/command_line.hpp"
#include "counterguard/core/timeline.hpp"

int main(int argc, char** argv) {
  // The "start" mark comes from run_command_line, once -v is known.
  const int status = counterguard::run_command_line(argc, argv);
  counterguard::timeline_mark("exit");
  return status;
}
