// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/interruption.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <csignal>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

constexpr std::array<int, 3> handled_signals{SIGINT, SIGTERM, SIGHUP};

volatile std::sig_atomic_t g_pending = 0;
int g_pipe[2] = {-1, -1};
int g_guards = 0;
std::array<struct sigaction, handled_signals.size()> g_previous{};

extern "C" void record_signal(int signal_number) {
  if (g_pending == 0)
    g_pending = signal_number;
  if (g_pipe[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t ignored = ::write(g_pipe[1], &byte, 1);  // async-signal-safe
  }
}

}  // namespace

interruption_guard::interruption_guard() {
  if (g_guards++ > 0)
    return;
  g_pending = 0;
  if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    g_pipe[0] = g_pipe[1] = -1;
    --g_guards;
    throw environment_error(environment_problem::process, "cannot create a pipe for signal handling");
  }
  struct sigaction action {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (std::size_t i = 0; i < handled_signals.size(); ++i)
    ::sigaction(handled_signals[i], &action, &g_previous[i]);
}

interruption_guard::~interruption_guard() {
  if (--g_guards > 0)
    return;
  for (std::size_t i = 0; i < handled_signals.size(); ++i)
    ::sigaction(handled_signals[i], &g_previous[i], nullptr);
  ::close(g_pipe[0]);
  ::close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
}

int interruption_guard::pending_signal() {
  return g_pending;
}

int interruption_guard::wake_descriptor() {
  return g_pipe[0];
}

void interruption_guard::throw_if_interrupted() {
  if (g_pending != 0)
    throw interrupted_error(g_pending);
}

}  // namespace counterguard
