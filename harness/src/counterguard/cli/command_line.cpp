// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cli/command_line.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <vector>

#include "counterguard/cli/build_identity.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/reporters/report_output.hpp"
#include "counterguard/runner/gpu_worker.hpp"
#include "detail/commands.hpp"
#include "detail/unknown_arguments.hpp"

namespace counterguard {
namespace {

// Every command, in the order `counterguard --help` lists them.
constexpr detail::command_adder commands[] = {
    detail::add_run_command,      detail::add_static_command,  detail::add_evaluate_command,
    detail::add_baseline_command, detail::add_metrics_command, detail::add_kernels_command,
    detail::add_launch_command,   detail::add_history_command, detail::add_compare_command,
    detail::add_exec_command,     detail::add_record_command,  detail::add_merge_command,
    detail::add_list_command,     detail::add_plan_command,    detail::add_sass_command,
    detail::add_blame_command,    detail::add_schema_command,
};

std::string joined_arguments(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i)
    text += (i == 0 ? "" : " ") + std::string(argv[i]);
  return text;
}

int report_error(const char* kind, const std::string& message, exit_code code) {
  std::fputs(fmt::format("counterguard: {}: {}\n", kind, message).c_str(), stderr);
  return static_cast<int>(code);
}

// -v/--verbose: what a user needs to see where a run's time goes and what the injection library did. The
// diagnostics read environment variables, which the GPU workers and the programs `exec` runs inherit, so the
// flag sets them (they can still be set by hand).
void apply_verbosity(std::size_t verbosity) {
  if (verbosity == 0)
    return;
  ::setenv("COUNTERGUARD_TIMING", "1", 1);           // per-case phases, timeline of every process
  ::setenv("COUNTERGUARD_INJECTION_TRACE", "1", 1);  // exec: set-up steps and each profiled launch
}

// Whether a report option of the chosen command (or subcommand) names standard output ("-").
bool report_on_standard_output(const CLI::App& app) {
  for (const CLI::App* command : app.get_subcommands()) {
    for (const char* name : {"--json", "--junit", "--markdown", "--html", "--csv", "--export"}) {
      const CLI::Option* option = command->get_option_no_throw(name);
      if (option == nullptr)
        continue;
      for (const std::string& value : option->results()) {
        if (is_standard_output(value))
          return true;
      }
    }
    if (report_on_standard_output(*command))
      return true;
  }
  return false;
}

// Runs the chosen command's action; every error is reported here, once.
int run_chosen(const std::vector<detail::command_action>& actions) {
  try {
    for (const auto& action : actions) {
      if (const std::optional<int> status = action())
        return *status;
    }
  } catch (const interrupted_error& e) {
    std::fputs(fmt::format("counterguard: {}; stopped the GPU worker, wrote no results\n", e.what()).c_str(),
               stderr);
    return e.exit_status();
  } catch (const input_error_list& e) {
    // Each problem on its own line, as a compiler lists errors, then how many there were.
    for (const input_error& one : e.errors())
      report_error("invalid input", one.what(), e.code());
    const std::size_t more = e.total() - e.errors().size();
    std::fputs(fmt::format("counterguard: {} errors{}\n", e.total(),
                           more == 0 ? std::string() : fmt::format(" ({} more not shown)", more))
                   .c_str(),
               stderr);
    return static_cast<int>(e.code());
  } catch (const input_error& e) {
    return report_error("invalid input", e.what(), e.code());
  } catch (const environment_error& e) {
    return report_error("environment", e.what(), e.code());
  } catch (const registration_error& e) {
    return report_error("kernel registration", e.what(), e.code());
  } catch (const internal_error& e) {
    return report_error("internal error (a bug in counterguard; please report it)", e.what(), e.code());
  } catch (const error& e) {
    return report_error("error", e.what(), e.code());
  } catch (const std::exception& e) {
    return report_error("internal error", e.what(), exit_code::internal_error);
  }
  return static_cast<int>(exit_code::internal_error);
}

}  // namespace

namespace detail {

command_action when_chosen(const CLI::App* command, std::function<int()> run) {
  return [command, run = std::move(run)]() -> std::optional<int> {
    if (!*command)
      return std::nullopt;
    return run();
  };
}

command_action first_chosen(std::vector<command_action> subcommands) {
  return [subcommands = std::move(subcommands)]() -> std::optional<int> {
    for (const auto& action : subcommands) {
      if (std::optional<int> status = action())
        return status;
    }
    return std::nullopt;
  };
}

}  // namespace detail

int run_command_line(int argc, char** argv) {
  // The hidden worker mode: started by `run` for each batch of cases (runner/isolated_runner.hpp).
  if (argc == 3 && std::string(argv[1]) == "__worker") {
    timeline_mark("start");
    try {
      return run_gpu_worker_process(argv[2]);
    } catch (const std::exception& e) {
      return report_error("worker", e.what(), exit_code::internal_error);
    }
  }

  CLI::App app{"counterguard: hardware-counter regression tests for CUDA kernels"};
  app.require_subcommand(1);
  // Options of the application itself (-v) may also follow the command's name and options.
  app.fallthrough();
  std::size_t verbosity = 0;
  app.add_flag(
      "-v,--verbose", verbosity,
      "print where the time goes (each case's phases, a timeline of every process) and, for exec, the "
      "injection library's steps and profiled launches, on standard error");
  app.set_version_flag("--version", build_identity());
  const detail::command_context context{joined_arguments(argc, argv)};
  std::vector<detail::command_action> actions;
  for (const detail::command_adder add : commands)
    actions.push_back(add(app, context));

  try {
    // `exec ... -- program args`: what follows "--" is the program's, never parsed as counterguard's options.
    std::vector<char*> arguments(argv, argv + argc);
    detail::take_exec_program(arguments);
    app.parse(static_cast<int>(arguments.size()), arguments.data());
  } catch (const CLI::ParseError& e) {
    if (const std::optional<std::string> unknown = detail::describe_unknown_argument(app)) {
      return report_error("invalid input", *unknown, exit_code::invalid_input);
    }
    const int status = app.exit(e);
    return status == 0 ? 0 : static_cast<int>(exit_code::invalid_input);
  }
  apply_verbosity(verbosity);
  timeline_mark("start");  // after -v: the timeline's first mark reads whether it is wanted
  std::optional<standard_output_reservation> reserved;
  try {
    if (report_on_standard_output(app))
      reserved.emplace();
  } catch (const error& e) {
    return report_error("environment", e.what(), e.code());
  }
  return run_chosen(actions);
}

}  // namespace counterguard
