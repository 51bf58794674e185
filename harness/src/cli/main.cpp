#include "counterguard/cli/command_line.hpp"

int main(int argc, char** argv) {
  return counterguard::run_command_line(argc, argv);
}
