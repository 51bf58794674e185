// SPDX-License-Identifier: Apache-2.0
// The C ABI (counterguard/capi/counterguard_c.h): JSON in, JSON out, exceptions turned into status codes at
// this one boundary. Every function is a thin call of the area that does the work.
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_change_summary.hpp"
#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/baseline_directory_update.hpp"
#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/build_info.hpp"
#include "counterguard/capi/counterguard_c.h"
#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/checker/judged_run.hpp"
#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/markdown_budget.hpp"
#include "counterguard/in_process/process_profiler.hpp"
#include "counterguard/in_process/recorded_block.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/metrics/metric_definition.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/planning/metric_plan.hpp"
#include "counterguard/reporters/console_reporter.hpp"
#include "counterguard/reporters/report_files.hpp"

using nlohmann::json;

struct counterguard_measurement {
  counterguard::profile_result result;
  counterguard::run_metadata device;
};

namespace counterguard {
namespace {

thread_local std::string t_error;
thread_local std::string t_problem;

// Which environment problems mean "profiling is not possible here" (the others are files and processes).
bool makes_profiling_unavailable(environment_problem problem) {
  switch (problem) {
    case environment_problem::no_gpu:
    case environment_problem::insufficient_privileges:
    case environment_problem::profiler_busy:
    case environment_problem::under_external_profiler:
    case environment_problem::unsupported_device:
    case environment_problem::gpu_wait_expired:
      return true;
    default:
      return false;
  }
}

int fail(counterguard_status status, const std::string& message, const std::string& problem = {}) {
  t_error = message;
  t_problem = problem;
  return status;
}

// Runs `body`, turning what it throws into a status and a message: the only place exceptions stop.
template <typename Body>
int guarded(Body&& body) noexcept {
  t_error.clear();
  t_problem.clear();
  try {
    body();
    return COUNTERGUARD_OK;
  } catch (const input_error& e) {
    return fail(COUNTERGUARD_ERROR_INPUT, e.what());
  } catch (const environment_error& e) {
    if (!makes_profiling_unavailable(e.problem()))
      return fail(COUNTERGUARD_ERROR_ENVIRONMENT, e.what());
    return fail(COUNTERGUARD_ERROR_UNAVAILABLE, e.what(),
                profiled_by_exec() ? "under_exec" : environment_problem_name(e.problem()));
  } catch (const api_error& e) {
    return fail(COUNTERGUARD_ERROR_PROFILING, e.what());
  } catch (const error& e) {
    switch (e.code()) {
      case exit_code::invalid_input:
        return fail(COUNTERGUARD_ERROR_INPUT, e.what());
      case exit_code::check_failed:
        return fail(COUNTERGUARD_ERROR_PROFILING, e.what());
      default:
        return fail(COUNTERGUARD_ERROR_INTERNAL, e.what());
    }
  } catch (const json::exception& e) {
    return fail(COUNTERGUARD_ERROR_INPUT, std::string("malformed JSON: ") + e.what());
  } catch (const std::exception& e) {
    return fail(COUNTERGUARD_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(COUNTERGUARD_ERROR_INTERNAL, "an unknown exception");
  }
}

// Text handed to the caller, released by counterguard_free.
char* handed_over(const std::string& text) {
  auto* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy == nullptr)
    throw std::bad_alloc();
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

void require_out(const void* out, const char* name) {
  if (out == nullptr)
    throw input_error({}, name, "is NULL", "pass the address of a pointer to receive the result");
}

json parse_json(const char* text, const char* what, json fallback = json::object()) {
  if (text == nullptr || *text == '\0')
    return fallback;
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw input_error({}, what, std::string("is not valid JSON: ") + e.what());
  }
}

run_results parse_results(const char* text) {
  if (text == nullptr)
    throw input_error({}, "results_json", "is NULL", "pass a results document");
  return read_run_results(parse_json(text, "results_json"), "<results JSON>");
}

std::string results_text(const run_results& results) {
  json document;
  to_json(document, results);
  return document.dump();
}

profile_options read_profile_options(const char* text) {
  const json options = parse_json(text, "options_json");
  profile_options result;
  result.device = options.value("device", result.device);
  result.max_launches = options.value("max_launches", result.max_launches);
  result.wait_for_gpu_seconds = options.value("wait_for_gpu_seconds", result.wait_for_gpu_seconds);
  return result;
}

std::vector<std::string> read_metric_names(const char* metrics_json) {
  const json metrics = parse_json(metrics_json, "metrics_json", json::array());
  if (!metrics.is_array())
    throw input_error({}, "metrics_json", "must be a JSON array of metric names");
  std::vector<std::string> names;
  for (const auto& name : metrics) {
    if (!name.is_string())
      throw input_error({}, "metrics_json", "holds " + name.dump() + ", not a metric name");
    names.push_back(name.get<std::string>());
  }
  return names;
}

// A test's parameters as an instance's: integers stay integers, booleans count as 0 and 1, text is text.
parameter_list read_parameters(const json& parameters) {
  parameter_list result;
  if (parameters.is_null())
    return result;
  if (!parameters.is_object())
    throw input_error({}, "parameters", "must be an object of name to value");
  for (const auto& [name, value] : parameters.items()) {
    if (value.is_boolean())
      result.emplace_back(name, parameter_value(std::int64_t{value.get<bool>() ? 1 : 0}));
    else if (value.is_number_integer())
      result.emplace_back(name, parameter_value(value.get<std::int64_t>()));
    else if (value.is_number())
      result.emplace_back(name, parameter_value(value.get<double>()));
    else if (value.is_string())
      result.emplace_back(name, parameter_value(value.get<std::string>()));
    else
      result.emplace_back(name, parameter_value(value.dump()));
  }
  return result;
}

}  // namespace
}  // namespace counterguard

using namespace counterguard;  // NOLINT(google-build-using-namespace): the C functions below are its API

extern "C" {

int counterguard_api_version(void) {
  return COUNTERGUARD_C_API_VERSION;
}

const char* counterguard_version(void) {
  return COUNTERGUARD_VERSION;
}

const char* counterguard_last_error(void) {
  return t_error.c_str();
}

const char* counterguard_last_error_problem(void) {
  return t_problem.c_str();
}

void counterguard_free(char* text) {
  std::free(text);
}

int counterguard_profiling_unavailable(const char* options_json) {
  return guarded([&] {
    const profile_options options = read_profile_options(options_json);
    if (const auto why = profiling_unavailable(options)) {
      throw environment_error(
          profiling_unavailable_problem(options).value_or(environment_problem::under_external_profiler),
          *why);
    }
  });
}

int counterguard_profile_begin(const char* metrics_json, const char* options_json) {
  return guarded([&] { begin_profile(read_metric_names(metrics_json), read_profile_options(options_json)); });
}

int counterguard_profile_end(counterguard_measurement** measurement) {
  return guarded([&] {
    require_out(measurement, "measurement");
    *measurement = nullptr;
    if (!profile_open())
      throw input_error({}, "counterguard_profile_end", "no profiled block is open",
                        "call counterguard_profile_begin first");
    auto result = std::make_unique<counterguard_measurement>();
    result->result = end_profile();
    result->device = profiled_device_metadata();
    *measurement = result.release();
  });
}

int counterguard_measure_recording(const char* archive_dir, int case_index, const char* metrics_json,
                                   const char* metadata_json, counterguard_measurement** measurement) {
  return guarded([&] {
    require_out(measurement, "measurement");
    *measurement = nullptr;
    if (archive_dir == nullptr || *archive_dir == '\0')
      throw input_error({}, "archive_dir", "is empty", "give a directory written by --save-counter-data");
    if (case_index < 0)
      throw input_error({}, "case_index", "is negative", "give a case's index in the archive's manifest");
    auto result = std::make_unique<counterguard_measurement>();
    result->result = measure_recorded_block(archive_dir, static_cast<std::size_t>(case_index),
                                            read_metric_names(metrics_json));
    if (metadata_json != nullptr && *metadata_json != '\0') {
      json document = {{"schema_version", results_schema_version},
                       {"metadata", parse_json(metadata_json, "metadata_json")},
                       {"cases", json::array()}};
      result->device = read_run_results(document, "<metadata JSON>").metadata;
    }
    *measurement = result.release();
  });
}

void counterguard_profile_abandon(void) {
  abandon_profile();
}

int counterguard_measurement_json(const counterguard_measurement* measurement, const char* kernel,
                                  char** results_json) {
  return guarded([&] {
    require_out(results_json, "results_json");
    if (measurement == nullptr)
      throw input_error({}, "measurement", "is NULL", "pass what counterguard_profile_end gave");
    run_results results;
    results.metadata = measurement->device;
    results.metadata.mode = "profile";
    results.cases.push_back(kernel == nullptr ? result_record(measurement->result)
                                              : result_record(measurement->result.for_kernel(kernel)));
    *results_json = handed_over(results_text(results));
  });
}

void counterguard_measurement_free(counterguard_measurement* measurement) {
  delete measurement;
}

int counterguard_measurement_save(const counterguard_measurement* measurement, const char* archive_dir,
                                  const char* name, const char* metadata_json) {
  return guarded([&] {
    if (measurement == nullptr)
      throw input_error({}, "measurement", "is NULL", "pass what counterguard_profile_end gave");
    if (archive_dir == nullptr || *archive_dir == '\0')
      throw input_error({}, "archive_dir", "is empty", "give the directory to save the block in");
    save_profiled_block(measurement->result, archive_dir, name == nullptr ? "" : name,
                        measurement->device.device.chip, parse_json(metadata_json, "metadata_json"));
  });
}

int counterguard_device_metadata(char** metadata_json) {
  return guarded([&] {
    require_out(metadata_json, "metadata_json");
    run_results results;
    results.metadata = profiled_device_metadata();
    json document;
    to_json(document, results);
    *metadata_json = handed_over(document.at("metadata").dump());
  });
}

int counterguard_metric_catalog(char** catalog_json) {
  return guarded([&] {
    require_out(catalog_json, "catalog_json");
    const metric_catalog& catalog = metric_catalog::builtin();
    json metrics = json::array();
    for (const auto& name : catalog.alias_names())
      metrics.push_back(metric_definition_json(*catalog.find_alias(name)));
    *catalog_json = handed_over(metrics.dump());
  });
}

int counterguard_resolve_metric(const char* name, char** metric_json) {
  return guarded([&] {
    require_out(metric_json, "metric_json");
    const std::string text = name == nullptr ? "" : name;
    // plan_metrics gives the catalog's own error for an unknown name, with the closest aliases.
    const metric_plan plan = plan_metrics(std::vector<std::string>{text}, metric_catalog::builtin());
    *metric_json = handed_over(metric_definition_json(plan.metrics.at(0)).dump());
  });
}

int counterguard_check_expectations(const char* results_json, const char* request_json,
                                    char** results_out_json) {
  return guarded([&] {
    require_out(results_out_json, "results_out_json");
    run_results results = parse_results(results_json);
    const json request = parse_json(request_json, "request_json");
    const json* expect = request.contains("expect") ? &request.at("expect") : nullptr;
    const std::string text = expect == nullptr || expect->is_null() ? std::string()
                             : expect->is_string()                  ? expect->get<std::string>()
                                                                    : expect->dump(1);
    const json source = request.value("source", json::object());
    const std::string file = source.value("file", std::string("<expectations>"));
    // Messages name where the expectations are stated (a test's file and line), not a line of the text.
    const std::optional<source_location> stated =
        source.contains("line") ? std::optional<source_location>(source_location{
                                      file, source.value("line", 0), source.value("column", 0)})
                                : std::nullopt;
    const auto restated = [&](const input_error& failure) {
      return stated ? input_error(*stated, failure.field(), failure.problem(), failure.valid()) : failure;
    };
    const metric_catalog& catalog = metric_catalog::builtin();
    const parameter_list parameters = read_parameters(request.value("parameters", json::object()));
    std::vector<resolved_expectation> resolved;
    try {
      std::vector<expectation> expectations = parse_expectations(text, file, catalog);
      for (auto& e : expectations) {
        if (stated)
          e.where = *stated;
        resolved.push_back(resolve_expectation(e, parameters, catalog));
      }
    } catch (const input_error& failure) {
      throw restated(failure);
    }
    for (auto& c : results.cases)
      add_expectation_checks(resolved, c);
    *results_out_json = handed_over(results_text(results));
  });
}

int counterguard_compare_baselines(const char* results_json, const char* baseline_dir,
                                   const char* options_json, char** results_out_json) {
  return guarded([&] {
    require_out(results_out_json, "results_out_json");
    if (baseline_dir == nullptr || *baseline_dir == '\0')
      throw input_error({}, "baseline_dir", "is empty",
                        "give the directory that holds <gpu_key>/<suite>.yaml");
    run_results results = parse_results(results_json);
    const json options = parse_json(options_json, "options_json");
    baseline_comparison_options comparison;
    comparison.strict = options.value("strict", false);
    comparison.false_alarm_rate = options.value("false_alarm_rate", comparison.false_alarm_rate);
    apply_baseline_directory(results, baseline_dir, comparison);
    *results_out_json = handed_over(results_text(results));
  });
}

int counterguard_settle(const char* results_json, const char* options_json, char** results_out_json,
                        int* exit_status) {
  return guarded([&] {
    require_out(results_out_json, "results_out_json");
    run_results results = parse_results(results_json);
    const bool strict = parse_json(options_json, "options_json").value("strict", false);
    for (auto& c : results.cases)
      settle_case_status(c, strict);
    if (exit_status != nullptr)
      *exit_status = static_cast<int>(decide_exit_code(results, strict));
    *results_out_json = handed_over(results_text(results));
  });
}

int counterguard_update_baselines(const char* results_json, const char* baseline_dir, char** summary_json) {
  return guarded([&] {
    require_out(summary_json, "summary_json");
    if (baseline_dir == nullptr || *baseline_dir == '\0')
      throw input_error({}, "baseline_dir", "is empty",
                        "give the directory to write <gpu_key>/<suite>.yaml in");
    const run_results results = parse_results(results_json);
    if (results.metadata.gpu_key.empty()) {
      throw input_error({}, "metadata.gpu_key", "is empty: the results were not measured on a GPU",
                        "record baselines from results profiled on the GPU they are for");
    }
    std::set<std::string> suites;
    for (const auto& c : results.cases)
      suites.insert(c.suite);
    json summary = {{"written", json::array()}, {"not_recorded", json::array()}};
    std::vector<baseline_update_result> done;
    for (suite_baseline_update& suite : update_baseline_directory(
             baseline_dir, results.metadata.gpu_key, suites, {results}, baseline_refresh_options{})) {
      if (suite.written)
        summary["written"].push_back(suite.path);
      for (const auto& why : suite.update.not_recorded)
        summary["not_recorded"].push_back(why);
      done.push_back(std::move(suite.update));
    }
    summary["summary"] = render_change_summaries_markdown(done, markdown_budget{0, {}});
    *summary_json = handed_over(summary.dump());
  });
}

int counterguard_write_reports(const char* results_json, const char* options_json) {
  return guarded([&] {
    const json options = parse_json(options_json, "options_json");
    const judged_run run = judge_run(parse_results(results_json), options.value("strict", false));
    report_files files;
    files.json = options.value("json", std::string());
    files.junit = options.value("junit", std::string());
    files.markdown = options.value("markdown", std::string());
    files.markdown_limit = options.value("markdown_limit", files.markdown_limit);
    files.html = options.value("html", std::string());
    write_report_files(run, files);
  });
}

int counterguard_render_console(const char* results_json, const char* options_json, char** text) {
  return guarded([&] {
    require_out(text, "text");
    const json options = parse_json(options_json, "options_json");
    const judged_run run = judge_run(parse_results(results_json), options.value("strict", false));
    console_report_options console;
    console.show_passing = options.value("show_passing", true);
    *text = handed_over(render_console_report(run, console));
  });
}

}  // extern "C"
