// SPDX-License-Identifier: Apache-2.0
// The evaluation of a recording: per case, the processes that profiled (or failed to profile) launches for
// it, each measured into its own labelled result; a case that selected nothing fails with its diagnosis.
#include "counterguard/exec/exec_recording.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "counterguard/exec/empty_selection.hpp"
#include "counterguard/exec/process_labels.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/measurement/measure_case.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "detail/recorded_case.hpp"

namespace counterguard {
namespace {

using detail::progress_of;
using detail::selector_text;

// What the evaluation measures a case from, the same for every case.
struct evaluation_inputs {
  const std::vector<recorded_process>& processes;
  const metric_catalog& catalog;
  const std::vector<std::string>& extra_metrics;
  const std::vector<kernel_resources>& resources;
};

// A process that profiled (or tried to profile) launches for a case.
struct observed_process {
  const recorded_process* process;
  std::vector<const recorded_launch*> launches;
  std::vector<std::string> errors;
};

// The case's launches measured together, with what their recording says of them.
struct observed_parts {
  std::vector<case_observation> parts;
  double seconds = 0.0;
  bool attributes_known = true;
};

// The GPU of the first process that profiled, and the first process that could not profile at all.
void note_device_and_environment(const std::vector<recorded_process>& processes,
                                 exec_evaluation& evaluation) {
  for (const auto& process : processes) {
    if (!evaluation.device && process.record.device)
      evaluation.device = process.record.device;
    if (!evaluation.environment && process.record.environment) {
      evaluation.environment = process.record.environment;
      evaluation.environment_message =
          describe_process(process.record.process) + ": " + process.record.environment_message;
    }
  }
}

case_result skipped_result(const case_instance& instance) {
  case_result skipped = make_case_result(instance);
  skipped.status = case_status::skipped;
  skipped.status_reason = *instance.skip_reason;
  return skipped;
}

case_result empty_selection_result(const case_instance& instance,
                                   const std::vector<recorded_process>& processes) {
  case_result failed = make_case_result(instance);
  if (failed.kernel.empty())
    failed.kernel = selector_text(instance);
  failed.checks.push_back(
      empty_selection_check(instance, "selected_launches", describe_empty_selection(instance, processes)));
  return failed;
}

std::vector<observed_process> processes_observing(const std::vector<recorded_process>& processes,
                                                  const case_instance& instance) {
  std::vector<observed_process> seen;
  for (const auto& process : processes) {
    observed_process entry{&process, {}, {}};
    for (const auto& launch : process.launches) {
      if (std::find(launch.cases.begin(), launch.cases.end(), instance.name) != launch.cases.end())
        entry.launches.push_back(&launch);
    }
    if (const case_progress* progress = progress_of(process.record, instance.name))
      entry.errors = progress->errors;
    if (!entry.launches.empty() || !entry.errors.empty())
      seen.push_back(std::move(entry));
  }
  return seen;
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

case_observation observation_of(
    const recorded_launch& launch,
    const std::shared_ptr<const std::map<std::string, double>>& device_attributes) {
  case_observation part;
  part.launches = launch.data.launches;
  for (auto& ran : part.launches) {
    if (!ran.device_attributes)
      ran.device_attributes = device_attributes;
  }
  part.image = launch.data.image;
  part.raw_metrics = launch.data.raw_metrics;
  part.passes = launch.data.passes;
  for (const auto& group : launch.further_groups) {
    part.further.push_back({group.image, group.raw_metrics});
    part.passes += group.passes;  // one pass a run, in application replay
  }
  return part;
}

observed_parts parts_of(const observed_process& observed) {
  observed_parts result;
  // The device the process profiled on, as ncu's device__attribute_ and launch__ metrics read it.
  const auto& record = observed.process->record;
  const auto device_attributes =
      record.device_attributes.empty()
          ? nullptr
          : std::make_shared<const std::map<std::string, double>>(record.device_attributes);
  for (const recorded_launch* launch : observed.launches) {
    result.attributes_known = result.attributes_known && launch->attributes_known;
    result.parts.push_back(observation_of(*launch, device_attributes));
    result.seconds += launch->seconds;
  }
  // Launch indices count within the case: renumber the launches of the parts in order.
  int index = 0;
  for (auto& part : result.parts) {
    for (auto& launch : part.launches)
      launch.range_index = index++;
  }
  return result;
}

void record_profiling_failure(case_result& result, const observed_process& observed) {
  result.status = case_status::error;
  std::string reasons;
  for (const auto& error : observed.errors)
    reasons += (reasons.empty() ? "" : "; ") + error;
  result.status_reason =
      "profiling failed in " + describe_process(observed.process->record.process) + ": " + reasons;
}

void measure_observed(case_result& result, const case_instance& instance, const observed_process& observed,
                      const evaluation_inputs& inputs) {
  const observed_parts observation = parts_of(observed);
  metric_plan plan = plan_metrics(instance, inputs.catalog, inputs.extra_metrics);
  if (!observation.attributes_known) {  // unmeasured rather than read as 0
    plan.metrics.erase(
        std::remove_if(plan.metrics.begin(), plan.metrics.end(),
                       [](const metric_definition& m) { return m.source == metric_source::launch; }),
        plan.metrics.end());
  }
  measure_case_parts(result, plan, observation.parts,
                     resources_of(observed.process->record, inputs.resources));
  result.seconds = observation.seconds;
}

// One result per observing process, its instance named with the process's label when several observed it.
void evaluate_observed_case(const case_instance& instance, const std::vector<observed_process>& seen,
                            const evaluation_inputs& inputs, exec_evaluation& evaluation) {
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
    if (!seen[p].errors.empty())
      record_profiling_failure(result, seen[p]);
    else
      measure_observed(result, instance, seen[p], inputs);
    evaluation.results.push_back(std::move(result));
    evaluation.instances.push_back(std::move(labelled));
  }
}

void evaluate_case(const case_instance& instance, const evaluation_inputs& inputs,
                   exec_evaluation& evaluation) {
  if (instance.skip_reason) {
    evaluation.results.push_back(skipped_result(instance));
    evaluation.instances.push_back(instance);
    return;
  }
  const std::vector<observed_process> seen = processes_observing(inputs.processes, instance);
  if (seen.empty()) {
    evaluation.results.push_back(empty_selection_result(instance, inputs.processes));
    evaluation.instances.push_back(instance);
    return;
  }
  evaluate_observed_case(instance, seen, inputs, evaluation);
}

}  // namespace

exec_evaluation evaluate_exec_recording(const std::vector<recorded_process>& processes,
                                        const std::vector<case_instance>& instances,
                                        const std::vector<std::string>& extra_metrics,
                                        const std::vector<kernel_resources>& resources) {
  exec_evaluation evaluation;
  note_device_and_environment(processes, evaluation);
  const evaluation_inputs inputs{processes, metric_catalog::builtin(), extra_metrics, resources};
  for (const auto& instance : instances)
    evaluate_case(instance, inputs, evaluation);
  return evaluation;
}

}  // namespace counterguard
