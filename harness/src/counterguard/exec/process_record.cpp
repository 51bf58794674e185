// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/process_record.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/statics/kernel_resources_json.hpp"
#include "detail/versioned_json_file.hpp"

namespace counterguard {
namespace {

using nlohmann::json;

json context_to_json(const nvtx_context& context) {
  json stacks = json::array();
  for (const auto& stack : context.stacks)
    stacks.push_back({{"domain", stack.domain}, {"ranges", stack.ranges}});
  json start_end = json::array();
  for (const auto& range : context.start_end)
    start_end.push_back({{"domain", range.domain}, {"name", range.name}});
  return {{"stacks", std::move(stacks)}, {"start_end", std::move(start_end)}};
}

nvtx_context context_from_json(const json_reader& reader, const json& value, const std::string& field) {
  reader.require_object(value, field);
  nvtx_context context;
  const json& stacks = reader.array(value, field, "stacks");
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    const std::string stack_field = index_at(field_at(field, "stacks"), i);
    reader.require_object(stacks[i], stack_field);
    context.stacks.push_back(
        {reader.string(stacks[i], stack_field, "domain"), reader.strings(stacks[i], stack_field, "ranges")});
  }
  const json& start_end = reader.array(value, field, "start_end");
  for (std::size_t i = 0; i < start_end.size(); ++i) {
    const std::string range_field = index_at(field_at(field, "start_end"), i);
    reader.require_object(start_end[i], range_field);
    context.start_end.push_back({reader.string(start_end[i], range_field, "domain"),
                                 reader.string(start_end[i], range_field, "name")});
  }
  return context;
}

}  // namespace

void note_launch(process_record& record, const std::string& function, const std::string& mangled,
                 const nvtx_context& nvtx) {
  ++record.launches;
  auto found = std::find_if(record.kernels.begin(), record.kernels.end(),
                            [&](const seen_kernel& kernel) { return kernel.mangled == mangled; });
  if (found == record.kernels.end()) {
    seen_kernel kernel;
    kernel.function = function;
    kernel.mangled = mangled;
    record.kernels.push_back(std::move(kernel));
    found = std::prev(record.kernels.end());
  }
  ++found->launches;
  std::string described = nvtx.describe();
  const auto context = std::find(found->nvtx.begin(), found->nvtx.end(), described);
  if (context != found->nvtx.end()) {
    const auto index = static_cast<std::size_t>(context - found->nvtx.begin());
    if (index < found->context_launches.size())
      ++found->context_launches[index];
    return;
  }
  if (found->nvtx.size() >= process_record::max_nvtx_contexts_per_kernel)
    return;
  found->nvtx.push_back(std::move(described));
  found->contexts.push_back(nvtx);
  found->context_launches.push_back(1);
}

void save_process_record(const std::string& path, const process_record& record) {
  json kernels = json::array();
  for (const auto& kernel : record.kernels) {
    json contexts = json::array();
    for (const auto& context : kernel.contexts)
      contexts.push_back(context_to_json(context));
    json item{{"function", kernel.function},     {"mangled", kernel.mangled},
              {"launches", kernel.launches},     {"nvtx", kernel.nvtx},
              {"contexts", std::move(contexts)}, {"context_launches", kernel.context_launches}};
    if (kernel.resources)
      item["resources"] = kernel_resources_to_json(*kernel.resources);
    kernels.push_back(std::move(item));
  }
  json cases = json::array();
  for (const auto& progress : record.cases) {
    cases.push_back({{"name", progress.name},
                     {"applies", progress.applies},
                     {"matches", progress.matches},
                     {"profiled", progress.profiled},
                     {"errors", progress.errors}});
  }
  json functions = json::array();
  for (const auto& function : record.functions)
    functions.push_back(kernel_resources_to_json(function));
  json document{{"schema_version", process_record::schema_version},
                {"process", process_identity_to_json(record.process)},
                {"device", record.device ? device_to_json(*record.device) : json(nullptr)},
                {"launches", record.launches},
                {"kernels", std::move(kernels)},
                {"cases", std::move(cases)},
                {"functions", std::move(functions)},
                {"device_attributes", record.device_attributes},
                {"environment",
                 record.environment ? json(environment_problem_name(*record.environment)) : json(nullptr)},
                {"environment_message", record.environment_message},
                {"replay_decision", record.replay_decision},
                {"finished", record.finished}};
  write_scratch_file_atomically(path, document.dump(2) + "\n");
}

process_record load_process_record(const std::string& path) {
  const auto file = detail::read_versioned_json_file(
      path, {"the process record",
             "a recording of `counterguard exec` has one per process that ran with the injection",
             process_record::schema_version, ""});
  const json_reader& reader = file.reader;
  const json& document = file.document;
  process_record record;
  record.process = process_identity_from_json(reader.member(document, "", "process"), path, "process");
  const json& device = reader.member(document, "", "device");
  if (!device.is_null()) {
    reader.require_object(device, "device");
    record.device = read_device_description(reader, device, "device");
  }
  record.launches = reader.integer(document, "", "launches", 0, INT64_MAX);
  const json& kernels = reader.array(document, "", "kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string field = index_at("kernels", i);
    reader.require_object(kernels[i], field);
    seen_kernel kernel;
    kernel.function = reader.string(kernels[i], field, "function");
    kernel.mangled = reader.string(kernels[i], field, "mangled");
    kernel.launches = reader.integer(kernels[i], field, "launches", 0, INT64_MAX);
    kernel.nvtx = reader.strings(kernels[i], field, "nvtx");
    if (reader.optional_member(kernels[i], field, "contexts") != nullptr) {
      const json& contexts = reader.array(kernels[i], field, "contexts");
      for (std::size_t c = 0; c < contexts.size(); ++c)
        kernel.contexts.push_back(
            context_from_json(reader, contexts[c], index_at(field_at(field, "contexts"), c)));
    }
    if (reader.optional_member(kernels[i], field, "context_launches") != nullptr) {
      const json& counts = reader.array(kernels[i], field, "context_launches");
      for (std::size_t c = 0; c < counts.size(); ++c) {
        if (!counts[c].is_number_integer() || counts[c].get<std::int64_t>() < 0)
          reader.fail(index_at(field_at(field, "context_launches"), c), "is not a count",
                      "a whole number of launches, one per context");
        kernel.context_launches.push_back(counts[c].get<std::int64_t>());
      }
      if (kernel.context_launches.size() != kernel.contexts.size())
        reader.fail(field_at(field, "context_launches"), "does not have one count per context",
                    "as many counts as 'contexts' has entries");
    }
    if (const json* resources = reader.optional_member(kernels[i], field, "resources"))
      kernel.resources = kernel_resources_from_json(reader, *resources, field_at(field, "resources"));
    record.kernels.push_back(std::move(kernel));
  }
  const json& cases = reader.array(document, "", "cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string field = index_at("cases", i);
    reader.require_object(cases[i], field);
    case_progress progress;
    progress.name = reader.string(cases[i], field, "name");
    progress.applies = reader.boolean(cases[i], field, "applies");
    progress.matches = reader.integer(cases[i], field, "matches", 0, INT64_MAX);
    progress.profiled = reader.integer(cases[i], field, "profiled", 0, INT64_MAX);
    progress.errors = reader.strings(cases[i], field, "errors");
    record.cases.push_back(std::move(progress));
  }
  if (reader.optional_member(document, "", "functions") != nullptr) {
    const json& functions = reader.array(document, "", "functions");
    for (std::size_t i = 0; i < functions.size(); ++i)
      record.functions.push_back(kernel_resources_from_json(reader, functions[i], index_at("functions", i)));
  }
  if (const json* attributes = reader.optional_member(document, "", "device_attributes")) {
    reader.require_object(*attributes, "device_attributes");
    for (const auto& entry : attributes->items()) {
      if (!entry.value().is_number())
        reader.fail("device_attributes." + entry.key(), "is not a number");
      record.device_attributes[entry.key()] = entry.value().get<double>();
    }
  }
  const json& environment = reader.member(document, "", "environment");
  if (!environment.is_null()) {
    record.environment = environment_problem_from_name(reader.string(document, "", "environment"));
    if (!record.environment)
      reader.fail("environment", "is not a known environment problem");
  }
  record.environment_message = reader.string(document, "", "environment_message");
  if (reader.optional_member(document, "", "replay_decision") != nullptr)
    record.replay_decision = reader.string(document, "", "replay_decision");
  record.finished = reader.boolean(document, "", "finished");
  return record;
}

}  // namespace counterguard
