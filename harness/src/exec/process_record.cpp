#include "counterguard/exec/process_record.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

using nlohmann::json;

}  // namespace

void note_launch(process_record& record, const std::string& function, const std::string& mangled,
                 const std::string& nvtx) {
  ++record.launches;
  auto found = std::find_if(record.kernels.begin(), record.kernels.end(),
                            [&](const seen_kernel& kernel) { return kernel.mangled == mangled; });
  if (found == record.kernels.end()) {
    record.kernels.push_back(seen_kernel{function, mangled, 0, {}});
    found = std::prev(record.kernels.end());
  }
  ++found->launches;
  if (found->nvtx.size() < process_record::max_nvtx_contexts_per_kernel &&
      std::find(found->nvtx.begin(), found->nvtx.end(), nvtx) == found->nvtx.end()) {
    found->nvtx.push_back(nvtx);
  }
}

void save_process_record(const std::string& path, const process_record& record) {
  json kernels = json::array();
  for (const auto& kernel : record.kernels) {
    kernels.push_back({{"function", kernel.function},
                       {"mangled", kernel.mangled},
                       {"launches", kernel.launches},
                       {"nvtx", kernel.nvtx}});
  }
  json cases = json::array();
  for (const auto& progress : record.cases) {
    cases.push_back({{"name", progress.name},
                     {"applies", progress.applies},
                     {"matches", progress.matches},
                     {"profiled", progress.profiled},
                     {"errors", progress.errors}});
  }
  json document{{"schema_version", process_record::schema_version},
                {"process", process_identity_to_json(record.process)},
                {"device", record.device ? device_to_json(*record.device) : json(nullptr)},
                {"launches", record.launches},
                {"kernels", std::move(kernels)},
                {"cases", std::move(cases)},
                {"environment",
                 record.environment ? json(environment_problem_name(*record.environment)) : json(nullptr)},
                {"environment_message", record.environment_message},
                {"finished", record.finished}};
  write_scratch_file_atomically(path, document.dump(2) + "\n");
}

process_record load_process_record(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw input_error({path}, "", "cannot read the process record",
                      "a recording of `counterguard exec` has one per process that ran with the injection");
  }
  std::ostringstream text;
  text << in.rdbuf();
  const json_reader reader(path);
  const json document = reader.parse(text.str());
  reader.require_object(document, "");
  const std::int64_t version = reader.integer(document, "", "schema_version", 0, 1000000);
  if (version != process_record::schema_version) {
    reader.fail("schema_version", "is " + std::to_string(version),
                "this counterguard reads version " + std::to_string(process_record::schema_version));
  }
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
  const json& environment = reader.member(document, "", "environment");
  if (!environment.is_null()) {
    record.environment = environment_problem_from_name(reader.string(document, "", "environment"));
    if (!record.environment)
      reader.fail("environment", "is not a known environment problem");
  }
  record.environment_message = reader.string(document, "", "environment_message");
  record.finished = reader.boolean(document, "", "finished");
  return record;
}

}  // namespace counterguard
