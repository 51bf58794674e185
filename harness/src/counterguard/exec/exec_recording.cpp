// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/exec_recording.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/exec/process_labels.hpp"
#include "counterguard/exec/selection_diagnosis.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/measurement/measure_case.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/statics/kernel_resources_json.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* processes_folder = "processes";
constexpr const char* process_file = "process.json";
constexpr const char* resources_file = "resources.json";
constexpr std::size_t listed_kernels = 12;
constexpr std::size_t listed_contexts = 3;

std::string read_text(const fs::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw input_error({path.string()}, "", "cannot read the " + what,
                      "record it again with `counterguard exec`");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_archive_folder(const fs::directory_entry& item) {
  const std::string name = item.path().filename().string();
  return item.is_directory() && !name.empty() &&
         std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

recorded_launch load_recorded_launch(const fs::path& folder) {
  counter_data_archive archive = load_counter_data_archive(folder);
  const std::string manifest = (folder / "manifest.json").string();
  const json_reader reader(manifest);
  if (archive.cases.empty())
    reader.fail("cases", "is empty", "one entry per launch archive, and one per further pass group");
  recorded_launch launch;
  launch.data = std::move(archive.cases.front());
  launch.further_groups.assign(std::make_move_iterator(archive.cases.begin() + 1),
                               std::make_move_iterator(archive.cases.end()));
  if (reader.optional_member(archive.metadata, "metadata", "cases") != nullptr)
    launch.cases = reader.strings(archive.metadata, "metadata", "cases");
  else
    launch.cases = {launch.data.name};
  if (const json* seconds = reader.optional_member(archive.metadata, "metadata", "seconds"))
    launch.seconds = reader.number_or_nan(*seconds, "metadata.seconds");
  if (reader.optional_member(archive.metadata, "metadata", "attributes_known") != nullptr)
    launch.attributes_known = reader.boolean(archive.metadata, "metadata", "attributes_known");
  if (const json* milliseconds = reader.optional_member(archive.metadata, "metadata", "launch_milliseconds"))
    launch.launch_milliseconds = reader.number_or_nan(*milliseconds, "metadata.launch_milliseconds");
  if (reader.optional_member(archive.metadata, "metadata", "device_bytes_in_use") != nullptr) {
    launch.device_bytes_in_use = static_cast<std::uint64_t>(
        reader.integer(archive.metadata, "metadata", "device_bytes_in_use", 0, INT64_MAX));
  }
  if (const json* milliseconds = reader.optional_member(archive.metadata, "metadata", "setup_milliseconds"))
    launch.setup_milliseconds = reader.number_or_nan(*milliseconds, "metadata.setup_milliseconds");
  if (reader.optional_member(archive.metadata, "metadata", "pass_groups") != nullptr)
    launch.pass_groups =
        static_cast<int>(reader.integer(archive.metadata, "metadata", "pass_groups", 0, 1000000));
  if (reader.optional_member(archive.metadata, "metadata", "nvtx") != nullptr)
    launch.nvtx = reader.string(archive.metadata, "metadata", "nvtx");
  if (reader.optional_member(archive.metadata, "metadata", "ordinals") != nullptr) {
    const json& ordinals = reader.array(archive.metadata, "metadata", "ordinals");
    for (std::size_t i = 0; i < ordinals.size(); ++i) {
      if (!ordinals[i].is_number_unsigned())
        reader.fail(index_at("metadata.ordinals", i), "is " + describe_json(ordinals[i]), "a whole number");
      launch.ordinals.push_back(ordinals[i].get<std::int64_t>());
    }
  }
  if (reader.optional_member(archive.metadata, "metadata", "runs") != nullptr) {
    const json& list = reader.array(archive.metadata, "metadata", "runs");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = index_at("metadata.runs", i);
      reader.require_object(list[i], field);
      recorded_launch::run_time run;
      run.passes = static_cast<int>(reader.integer(list[i], field, "passes", 0, 1000000));
      run.setup_milliseconds = reader.number_or_nan(reader.member(list[i], field, "setup_milliseconds"),
                                                    field + ".setup_milliseconds");
      run.launch_milliseconds = reader.number_or_nan(reader.member(list[i], field, "launch_milliseconds"),
                                                     field + ".launch_milliseconds");
      launch.runs.push_back(run);
    }
  }
  return launch;
}

json resources_to_json(const std::vector<kernel_resources>& resources) {
  json kernels = json::array();
  for (const auto& kernel : resources)
    kernels.push_back(kernel_resources_to_json(kernel));
  return kernels;
}

// A name or pattern in plain letters, to rank names by how close they come to a pattern.
std::string letters(const std::string& text) {
  std::string result;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '/' || c == ' ')
      result += c;
  }
  return result;
}

std::size_t distance_to(const std::string& target, const std::string& name) {
  return target.empty() ? 0 : edit_distance(target, letters(name));
}

// The kernels the program launched, over every process: those closest to the selector's kernel pattern first
// (the most launched first without one), with the NVTX ranges they were launched in when the selector names
// ranges (closest first).
std::string kernels_seen(const std::vector<recorded_process>& processes, const case_instance& instance) {
  struct kernel {
    std::string function;
    std::int64_t launches = 0;
    std::set<std::string> nvtx;
    std::size_t distance = 0;
  };
  std::map<std::string, kernel> kernels;
  for (const auto& process : processes) {
    for (const auto& seen : process.record.kernels) {
      kernel& k = kernels[seen.function];
      k.function = seen.function;
      k.launches += seen.launches;
      k.nvtx.insert(seen.nvtx.begin(), seen.nvtx.end());
    }
  }
  const std::optional<launch_selector>& selector = instance.select;
  const std::string kernel_target = selector && selector->kernel ? letters(selector->kernel->text()) : "";
  std::string nvtx_target;
  if (selector && selector->nvtx) {
    for (const auto& element : selector->nvtx->path)
      nvtx_target += (nvtx_target.empty() ? "" : "/") + letters(element.text());
  }
  std::vector<kernel> sorted;
  for (auto& [name, k] : kernels) {
    if (!kernel_target.empty()) {
      k.distance = std::min(distance_to(kernel_target, k.function),
                            distance_to(kernel_target, names_of_kernel(k.function).base));
    } else if (!nvtx_target.empty()) {
      k.distance = std::numeric_limits<std::size_t>::max();
      for (const auto& context : k.nvtx)
        k.distance = std::min(k.distance, distance_to(nvtx_target, context));
    }
    sorted.push_back(std::move(k));
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const kernel& a, const kernel& b) {
    return std::tie(a.distance, b.launches) < std::tie(b.distance, a.launches);
  });
  std::string text = std::to_string(sorted.size()) + " kernel" + (sorted.size() == 1 ? "" : "s") +
                     (kernel_target.empty() && nvtx_target.empty() ? ", the most launched first: "
                                                                   : ", the closest to the selector first: ");
  for (std::size_t i = 0; i < sorted.size() && i < listed_kernels; ++i) {
    const kernel& k = sorted[i];
    std::string nvtx;
    if (!nvtx_target.empty()) {
      std::vector<std::string> contexts(k.nvtx.begin(), k.nvtx.end());
      std::stable_sort(contexts.begin(), contexts.end(), [&](const std::string& a, const std::string& b) {
        return distance_to(nvtx_target, a) < distance_to(nvtx_target, b);
      });
      for (std::size_t c = 0; c < contexts.size() && c < listed_contexts; ++c)
        nvtx += (nvtx.empty() ? "" : ", ") + contexts[c];
      if (contexts.size() > listed_contexts)
        nvtx += ", ...";
    }
    text += fmt::format("{}'{}' ({} launch{}{})", i == 0 ? "" : ", ", k.function, k.launches,
                        k.launches == 1 ? "" : "es", nvtx.empty() ? "" : "; NVTX " + nvtx);
  }
  if (sorted.size() > listed_kernels)
    text += fmt::format(" and {} more", sorted.size() - listed_kernels);
  return text;
}

const case_progress* progress_of(const process_record& record, const std::string& name) {
  for (const auto& progress : record.cases) {
    if (progress.name == name)
      return &progress;
  }
  return nullptr;
}

// The resources a process's launches ran with: the code of each launched function (what a launch's code key
// names), then, for launches recorded without one, those of the modules the driver loaded (the only ones a
// JIT-compiled kernel has) ahead of those read from the program's files.
std::vector<kernel_resources> resources_of(const process_record& record,
                                           const std::vector<kernel_resources>& from_files) {
  std::vector<kernel_resources> resources = record.functions;
  if (!record.functions.empty()) {
    // Launches name their code: the modules' kernels by name must not stand in for it, the files' reports
    // only where they agree with the driver (fill_measurements).
    resources.insert(resources.end(), from_files.begin(), from_files.end());
    return resources;
  }
  for (const auto& kernel : record.kernels) {
    if (kernel.resources)
      resources.push_back(*kernel.resources);
  }
  resources.insert(resources.end(), from_files.begin(), from_files.end());
  return resources;
}

std::string selector_text(const case_instance& instance) {
  return instance.select ? instance.select->describe() : "NVTX '" + instance.name + "'";
}

}  // namespace

fs::path process_folder(const fs::path& directory, const process_identity& process) {
  return directory / processes_folder /
         (std::to_string(process.pid) + "-" + std::to_string(process.started_ns));
}

void save_recorded_launch(const fs::path& folder, int index, const std::string& chip,
                          const recorded_launch& launch) {
  counter_data_archive archive;
  archive.chip = chip;
  archive.metadata = json{{"cases", launch.cases},
                          {"seconds", launch.seconds},
                          {"attributes_known", launch.attributes_known},
                          {"launch_milliseconds", launch.launch_milliseconds},
                          {"device_bytes_in_use", launch.device_bytes_in_use},
                          {"setup_milliseconds", launch.setup_milliseconds},
                          {"pass_groups", launch.pass_groups},
                          {"nvtx", launch.nvtx},
                          {"ordinals", launch.ordinals}};
  if (!launch.runs.empty()) {
    json runs = json::array();
    for (const auto& run : launch.runs)
      runs.push_back({{"passes", run.passes},
                      {"setup_milliseconds", run.setup_milliseconds},
                      {"launch_milliseconds", run.launch_milliseconds}});
    archive.metadata["runs"] = std::move(runs);
  }
  archive.cases.push_back(launch.data);
  archive.cases.insert(archive.cases.end(), launch.further_groups.begin(), launch.further_groups.end());
  std::array<char, 16> name{};
  std::snprintf(name.data(), name.size(), "%04d", index);
  save_counter_data_archive(folder / name.data(), archive, file_durability::scratch);
}

namespace {

// The archives' launches, in their order, read on several threads: on the H200 host reading 600 one-launch
// archives one after another took 50 ms after the program (validation/h200.md).
std::vector<recorded_launch> load_recorded_launches(const std::vector<fs::path>& archives) {
  std::vector<recorded_launch> launches(archives.size());
  const std::size_t threads =
      std::min<std::size_t>(std::max(1U, std::thread::hardware_concurrency()), (archives.size() + 63) / 64);
  if (threads <= 1) {
    for (std::size_t i = 0; i < archives.size(); ++i)
      launches[i] = load_recorded_launch(archives[i]);
    return launches;
  }
  std::vector<std::future<void>> parts;
  for (std::size_t t = 0; t < threads; ++t) {
    parts.push_back(std::async(std::launch::async, [&, t] {
      for (std::size_t i = t; i < archives.size(); i += threads)
        launches[i] = load_recorded_launch(archives[i]);
    }));
  }
  for (auto& part : parts)
    part.get();  // the first failure's error, after every thread is done
  return launches;
}

}  // namespace

std::vector<recorded_process> load_recorded_processes(const fs::path& directory) {
  std::vector<recorded_process> processes;
  const fs::path root = directory / processes_folder;
  std::error_code status;
  if (!fs::is_directory(root, status))
    return processes;
  for (const auto& item : fs::directory_iterator(root)) {
    if (!item.is_directory() || !fs::exists(item.path() / process_file))
      continue;  // a process that died before it wrote anything
    recorded_process process;
    process.folder = item.path();
    process.record = load_process_record((item.path() / process_file).string());
    std::vector<fs::path> archives;
    for (const auto& entry : fs::directory_iterator(item.path())) {
      if (is_archive_folder(entry) && fs::exists(entry.path() / "manifest.json"))
        archives.push_back(entry.path());  // without a manifest: killed while writing it
    }
    std::sort(archives.begin(), archives.end());
    process.launches = load_recorded_launches(archives);
    processes.push_back(std::move(process));
  }
  std::sort(processes.begin(), processes.end(), [](const recorded_process& a, const recorded_process& b) {
    return std::tie(a.record.process.started_ns, a.record.process.pid) <
           std::tie(b.record.process.started_ns, b.record.process.pid);
  });
  return processes;
}

bool is_exec_recording(const fs::path& directory) {
  std::error_code status;
  return fs::is_regular_file(directory / exec_envelope_file, status);
}

void save_exec_envelope(const fs::path& directory, const exec_envelope& envelope) {
  json cases = json::array();
  for (const auto& c : envelope.command_line_cases)
    cases.push_back({{"name", c.name}, {"selector", launch_selector_to_json(c.selector)}});
  const json document{{"suite_paths", envelope.suite_paths},
                      {"command_line_cases", std::move(cases)},
                      {"extra_metrics", envelope.extra_metrics},
                      {"program", program_outcome_to_json(envelope.program)},
                      {"allow_program_failure", envelope.allow_program_failure},
                      {"results", envelope.results}};
  write_file_atomically((directory / exec_envelope_file).string(), document.dump(2) + "\n");
}

exec_envelope load_exec_envelope(const fs::path& directory) {
  const fs::path path = directory / exec_envelope_file;
  const json_reader reader(path.string());
  const json document = reader.parse(read_text(path, "exec recording"));
  reader.require_object(document, "");
  exec_envelope envelope;
  envelope.suite_paths = reader.strings(document, "", "suite_paths");
  const json& cases = reader.array(document, "", "command_line_cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string field = index_at("command_line_cases", i);
    reader.require_object(cases[i], field);
    exec_case_request request;
    request.name = reader.string(cases[i], field, "name");
    request.selector = launch_selector_from_json(reader.member(cases[i], field, "selector"), path.string(),
                                                 field_at(field, "selector"));
    envelope.command_line_cases.push_back(std::move(request));
  }
  envelope.extra_metrics = reader.strings(document, "", "extra_metrics");
  envelope.program =
      program_outcome_from_json(reader.member(document, "", "program"), path.string(), "program");
  envelope.allow_program_failure = reader.boolean(document, "", "allow_program_failure");
  envelope.results = read_run_results(reader.object(document, "", "results"), path.string());
  return envelope;
}

void save_recorded_resources(const fs::path& directory, const std::vector<kernel_resources>& resources) {
  write_file_atomically((directory / resources_file).string(),
                        json{{"kernels", resources_to_json(resources)}}.dump(2) + "\n");
}

std::vector<kernel_resources> load_recorded_resources(const fs::path& directory) {
  std::vector<kernel_resources> resources;
  const fs::path path = directory / resources_file;
  std::error_code status;
  if (!fs::exists(path, status))
    return resources;
  const json_reader reader(path.string());
  const json document = reader.parse(read_text(path, "resource file"));
  reader.require_object(document, "");
  const json& kernels = reader.array(document, "", "kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i)
    resources.push_back(kernel_resources_from_json(reader, kernels[i], index_at("kernels", i)));
  return resources;
}

std::string describe_empty_selection(const case_instance& instance,
                                     const std::vector<recorded_process>& processes) {
  const std::string selected = "selected no kernel launch (" + selector_text(instance) + ")";
  if (processes.empty()) {
    return selected +
           ": no process of the program loaded the injection library (it made no CUDA call, or it is "
           "statically "
           "linked against the CUDA driver or setuid, which the injection cannot enter)";
  }
  std::int64_t matched = 0;
  std::int64_t most_in_one_process = 0;  // launch ordinals count per process
  bool applies = false;
  std::string process_list;
  for (const auto& process : processes) {
    process_list += (process_list.empty() ? "" : ", ") + describe_process(process.record.process);
    const case_progress* progress = progress_of(process.record, instance.name);
    applies =
        applies || progress == nullptr || progress->applies;  // no entry: the record cannot say it did not
    if (progress != nullptr) {
      matched += progress->matches;
      most_in_one_process = std::max(most_in_one_process, progress->matches);
    }
  }
  if (!applies)
    return selected + ": no process matched its process selector; the processes were " + process_list;
  if (matched > 0 && instance.select) {
    return selected + ": " + std::to_string(matched) + " launch" + (matched == 1 ? "" : "es") +
           " matched, fewer than the " + std::to_string(instance.select->launch_skip) +
           " the selector skips (launch ordinals count from 0 in each process); write `launch: " +
           std::to_string(most_in_one_process - 1) +
           "` for the last of them, or `launch: {skip: 0, count: " + std::to_string(most_in_one_process) +
           "}` for all";
  }
  std::int64_t launches = 0;
  std::vector<seen_kernel> kernels;
  for (const auto& process : processes) {
    launches += process.record.launches;
    kernels.insert(kernels.end(), process.record.kernels.begin(), process.record.kernels.end());
  }
  if (launches == 0)
    return selected + ": the program launched no kernel in a process with the injection (" + process_list +
           ")";
  if (instance.select) {
    if (const std::optional<std::string> near_miss = diagnose_near_miss(*instance.select, kernels))
      return selected + ": " + *near_miss + "; the program launched " + kernels_seen(processes, instance);
  }
  return selected + "; the program launched " + kernels_seen(processes, instance);
}

check_outcome empty_selection_check(const case_instance& instance, const std::string& metric,
                                    const std::string& message) {
  check_outcome check;
  check.metric = metric;
  check.origin = "selection";
  check.expected = ">= 1";
  check.measured = 0.0;
  check.verdict = check_verdict::fail;
  check.failing = true;
  check.message = instance.name + ": " + message;
  if (instance.select && !instance.select->where.file.empty())
    check.source = instance.select->where;
  else if (!instance.where.file.empty())
    check.source = instance.where;
  return check;
}

exec_evaluation evaluate_exec_recording(const std::vector<recorded_process>& processes,
                                        const std::vector<case_instance>& instances,
                                        const std::vector<std::string>& extra_metrics,
                                        const std::vector<kernel_resources>& resources) {
  exec_evaluation evaluation;
  for (const auto& process : processes) {
    if (!evaluation.device && process.record.device)
      evaluation.device = process.record.device;
    if (!evaluation.environment && process.record.environment) {
      evaluation.environment = process.record.environment;
      evaluation.environment_message =
          describe_process(process.record.process) + ": " + process.record.environment_message;
    }
  }
  const metric_catalog& catalog = metric_catalog::builtin();
  for (const auto& instance : instances) {
    if (instance.skip_reason) {
      case_result skipped = make_case_result(instance);
      skipped.status = case_status::skipped;
      skipped.status_reason = *instance.skip_reason;
      evaluation.results.push_back(std::move(skipped));
      evaluation.instances.push_back(instance);
      continue;
    }
    // The processes that profiled (or tried to profile) a launch for this case.
    struct observed {
      const recorded_process* process;
      std::vector<const recorded_launch*> launches;
      std::vector<std::string> errors;
    };
    std::vector<observed> seen;
    for (const auto& process : processes) {
      observed entry{&process, {}, {}};
      for (const auto& launch : process.launches) {
        if (std::find(launch.cases.begin(), launch.cases.end(), instance.name) != launch.cases.end())
          entry.launches.push_back(&launch);
      }
      if (const case_progress* progress = progress_of(process.record, instance.name))
        entry.errors = progress->errors;
      if (!entry.launches.empty() || !entry.errors.empty())
        seen.push_back(std::move(entry));
    }
    if (seen.empty()) {
      case_result failed = make_case_result(instance);
      if (failed.kernel.empty())
        failed.kernel = selector_text(instance);
      failed.checks.push_back(empty_selection_check(instance, "selected_launches",
                                                    describe_empty_selection(instance, processes)));
      evaluation.results.push_back(std::move(failed));
      evaluation.instances.push_back(instance);
      continue;
    }
    std::vector<process_identity> identities;
    identities.reserve(seen.size());
    for (const auto& entry : seen)
      identities.push_back(entry.process->record.process);
    const std::vector<process_label> labels = label_processes(identities);
    for (std::size_t p = 0; p < seen.size(); ++p) {
      case_instance labelled = instance;
      labelled.name = labels[p].applied_to(instance.name);
      for (const auto& [key, value] : labels[p].parameters)
        labelled.parameters.emplace_back(key, parameter_value(value));
      case_result result = make_case_result(labelled);
      if (result.kernel.empty())
        result.kernel = selector_text(instance);
      if (!seen[p].errors.empty()) {
        result.status = case_status::error;
        std::string reasons;
        for (const auto& error : seen[p].errors)
          reasons += (reasons.empty() ? "" : "; ") + error;
        result.status_reason =
            "profiling failed in " + describe_process(seen[p].process->record.process) + ": " + reasons;
      } else {
        std::vector<case_observation> parts;
        double seconds = 0.0;
        bool attributes_known = true;
        // The device the process profiled on, as ncu's device__attribute_ and launch__ metrics read it.
        const auto& record = seen[p].process->record;
        const auto device_attributes =
            record.device_attributes.empty()
                ? nullptr
                : std::make_shared<const std::map<std::string, double>>(record.device_attributes);
        for (const recorded_launch* launch : seen[p].launches) {
          attributes_known = attributes_known && launch->attributes_known;
          case_observation part;
          part.launches = launch->data.launches;
          for (auto& ran : part.launches) {
            if (!ran.device_attributes)
              ran.device_attributes = device_attributes;
          }
          part.image = launch->data.image;
          part.raw_metrics = launch->data.raw_metrics;
          part.passes = launch->data.passes;
          for (const auto& group : launch->further_groups) {
            part.further.push_back({group.image, group.raw_metrics});
            part.passes += group.passes;  // one pass a run, in application replay
          }
          parts.push_back(std::move(part));
          seconds += launch->seconds;
        }
        // Launch indices count within the case: renumber the launches of the parts in order.
        int index = 0;
        for (auto& part : parts) {
          for (auto& launch : part.launches)
            launch.range_index = index++;
        }
        metric_plan plan = plan_metrics(instance, catalog, extra_metrics);
        if (!attributes_known) {  // unmeasured rather than read as 0
          plan.metrics.erase(
              std::remove_if(plan.metrics.begin(), plan.metrics.end(),
                             [](const metric_definition& m) { return m.source == metric_source::launch; }),
              plan.metrics.end());
        }
        measure_case_parts(result, plan, parts, resources_of(seen[p].process->record, resources));
        result.seconds = seconds;
      }
      evaluation.results.push_back(std::move(result));
      evaluation.instances.push_back(std::move(labelled));
    }
  }
  return evaluation;
}

}  // namespace counterguard
