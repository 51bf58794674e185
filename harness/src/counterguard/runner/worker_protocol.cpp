// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/worker_protocol.hpp"

#include <nlohmann/json.hpp>

#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

// A position in a request; far above any suite (a request lists every selected case instance).
constexpr std::int64_t max_request_cases = std::int64_t{1} << 40;

using nlohmann::json;

struct event_encoder {
  json operator()(const device_ready_event& e) const {
    run_results wrapper;
    wrapper.metadata.device = e.device;
    return {{"event", "device"}, {"results", wrapper}};
  }
  json operator()(const gpu_busy_event& e) const {
    return {{"event", "waiting"}, {"message", e.message}, {"seconds_left", e.seconds_left}};
  }
  json operator()(const case_begin_event& e) const {
    return {{"event", "begin"}, {"instance", e.instance}, {"position", e.position}};
  }
  json operator()(const case_result_event& e) const {
    run_results wrapper;
    wrapper.cases.push_back(e.result);
    json out = json::object();  // assigned, not listed: an initializer list copies the result deeply again
    out["event"] = "result";
    out["results"] = wrapper;
    return out;
  }
  json operator()(const input_error_event& e) const {
    return {{"event", "input_error"}, {"message", e.message}};
  }
  json operator()(const environment_error_event& e) const {
    return {{"event", "environment_error"},
            {"problem", environment_problem_name(e.problem)},
            {"message", e.message}};
  }
};

worker_event decode(const json_reader& reader, const json& event) {
  const std::string kind = reader.string(event, "", "event");
  if (kind == "device")
    return device_ready_event{
        read_run_results(reader.object(event, "", "results"), reader.file()).metadata.device};
  if (kind == "waiting") {
    return gpu_busy_event{reader.string(event, "", "message"),
                          reader.number_or_nan(reader.member(event, "", "seconds_left"), "seconds_left")};
  }
  if (kind == "begin")
    return case_begin_event{
        reader.string(event, "", "instance"),
        static_cast<std::size_t>(reader.integer(event, "", "position", 0, max_request_cases))};
  if (kind == "result") {
    const run_results wrapper = read_run_results(reader.object(event, "", "results"), reader.file());
    if (wrapper.cases.size() != 1)
      reader.fail("results.cases", "a result event carries exactly one case");
    return case_result_event{wrapper.cases.front()};
  }
  if (kind == "input_error")
    return input_error_event{reader.string(event, "", "message")};
  if (kind == "environment_error") {
    const std::string name = reader.string(event, "", "problem");
    if (const std::optional<environment_problem> problem = environment_problem_from_name(name))
      return environment_error_event{*problem, reader.string(event, "", "message")};
    reader.fail("problem", "unknown environment problem '" + name + "'");
  }
  reader.fail("event", "unknown event '" + kind + "'");
}

}  // namespace

json worker_request_to_json(const worker_request& request) {
  json document{{"suite_paths", request.suite_paths},
                {"instances", request.instances},
                {"archive_indices", request.archive_indices},
                {"extra_metrics", request.extra_metrics},
                {"save_counter_data_dir", request.save_counter_data_dir},
                {"device", request.device},
                {"wait_for_gpu_seconds", request.wait_for_gpu_seconds}};
  if (request.streamed)
    document["streamed"] = true;
  if (request.lock_gpu)
    document["lock_gpu"] = true;
  if (!request.expected_chip.empty())
    document["expected_chip"] = request.expected_chip;
  return document;
}

worker_request read_worker_request(const json& document, const std::string& file) {
  const json_reader reader(file);
  reader.require_object(document, "");
  worker_request request;
  request.suite_paths = reader.strings(document, "", "suite_paths");
  request.instances = reader.strings(document, "", "instances");
  for (const auto& index : reader.array(document, "", "archive_indices")) {
    if (!index.is_number_integer())
      reader.fail("archive_indices", "expected integers");
    request.archive_indices.push_back(index.get<int>());
  }
  if (request.archive_indices.size() != request.instances.size())
    reader.fail("archive_indices", "needs one index per instance");
  request.extra_metrics = reader.strings(document, "", "extra_metrics");
  request.save_counter_data_dir = reader.string(document, "", "save_counter_data_dir");
  request.device = static_cast<int>(reader.integer(document, "", "device", 0, 1024));
  request.wait_for_gpu_seconds =
      reader.number_or_nan(reader.member(document, "", "wait_for_gpu_seconds"), "wait_for_gpu_seconds");
  if (reader.optional_member(document, "", "streamed") != nullptr)
    request.streamed = reader.boolean(document, "", "streamed");
  if (reader.optional_member(document, "", "lock_gpu") != nullptr)
    request.lock_gpu = reader.boolean(document, "", "lock_gpu");
  if (reader.optional_member(document, "", "expected_chip") != nullptr)
    request.expected_chip = reader.string(document, "", "expected_chip");
  return request;
}

std::string encode_worker_plan(const worker_plan& plan) {
  json configurations = json::array();
  for (const auto& configuration : plan.configurations)
    configurations.push_back({{"raw_metrics", configuration.raw_metrics}, {"passes", configuration.passes}});
  const json document{{"chip", plan.chip},
                      {"configurations", configurations},
                      {"configuration_of", plan.configuration_of},
                      {"problem", plan.problem},
                      {"planned", plan.planned}};
  return "plan " + document.dump();
}

worker_plan decode_worker_plan(const std::string& line) {
  const json_reader reader("<worker plan>");
  const std::string prefix = "plan ";
  try {
    if (line.compare(0, prefix.size(), prefix) != 0)
      reader.fail("", "a plan line starts with 'plan '");
    const json document = reader.parse(line.substr(prefix.size()));
    reader.require_object(document, "");
    worker_plan plan;
    plan.chip = reader.string(document, "", "chip");
    const json& configurations = reader.array(document, "", "configurations");
    for (std::size_t i = 0; i < configurations.size(); ++i) {
      const std::string field = "configurations[" + std::to_string(i) + "]";
      reader.require_object(configurations[i], field);
      plan.configurations.push_back(
          {reader.strings(configurations[i], field, "raw_metrics"),
           static_cast<int>(reader.integer(configurations[i], field, "passes", 0, max_request_cases))});
    }
    const auto count = static_cast<std::int64_t>(plan.configurations.size());
    for (const auto& configuration : reader.array(document, "", "configuration_of")) {
      if (!configuration.is_number_integer() || configuration.get<std::int64_t>() < -1 ||
          configuration.get<std::int64_t>() >= count)
        reader.fail("configuration_of", "expected configuration numbers (or -1)");
      plan.configuration_of.push_back(configuration.get<int>());
    }
    plan.problem = reader.string(document, "", "problem");
    plan.planned = reader.boolean(document, "", "planned");
    return plan;
  } catch (const input_error& e) {
    throw internal_error(std::string("the GPU worker was sent a malformed plan (") + e.what() +
                         "): " + line.substr(0, 200));
  }
}

std::string encode_worker_event(const worker_event& event) {
  return std::visit(event_encoder{}, event).dump();
}

worker_event decode_worker_event(const std::string& line) {
  const json_reader reader("<worker event>");
  try {
    const json event = reader.parse(line);
    reader.require_object(event, "");
    return decode(reader, event);
  } catch (const input_error& e) {
    throw internal_error(std::string("the GPU worker sent a malformed event (") + e.what() +
                         "): " + line.substr(0, 200));
  }
}

}  // namespace counterguard
