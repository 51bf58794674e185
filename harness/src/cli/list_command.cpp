// `counterguard list [paths]`: the case instances of suites, one name per line or as JSON, with no GPU and
// no CUPTI (CMake's counterguard_add_case_tests registers one CTest test per name).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard::detail {
namespace {

struct list_options {
  std::vector<std::string> paths{"cases"};
  std::string filter;
  bool json = false;
};

int list(const list_options& options) {
  const kernel_registry& kernels = kernel_registry::global();
  const metric_catalog& metrics = metric_catalog::builtin();
  nlohmann::json listed = nlohmann::json::array();
  for (const auto& s : load_suites(options.paths, kernels, metrics)) {
    for (const auto& instance : filter_instances(expand_instances(s, kernels, metrics), options.filter)) {
      if (!options.json) {
        std::fputs((instance.name + "\n").c_str(), stdout);
        continue;
      }
      listed.push_back({{"instance", instance.name},
                        {"suite", instance.suite},
                        {"case", instance.case_name},
                        {"file", instance.suite_path},
                        {"line", instance.where.line}});
    }
  }
  if (options.json)
    std::fputs((listed.dump(1) + "\n").c_str(), stdout);
  return 0;
}

}  // namespace

command_action add_list_command(CLI::App& app) {
  auto options = std::make_shared<list_options>();
  CLI::App* command =
      app.add_subcommand("list", "print the case instances of suites, one name per line (no GPU needed)");
  command->add_option("paths", options->paths, "suite files or directories of *.yaml (default: cases)");
  command->add_option("--filter", options->filter,
                      "only case instances whose name matches (* is a wildcard)");
  command->add_flag("--json", options->json,
                    "a JSON array of {instance, suite, case, file, line} instead of names");
  return [options, command]() -> std::optional<int> {
    if (*command)
      return list(*options);
    return std::nullopt;
  };
}

}  // namespace counterguard::detail
