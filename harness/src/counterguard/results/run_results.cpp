// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/run_results.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/results/results_document.hpp"

namespace counterguard {

const char* to_string(case_status status) {
  switch (status) {
    case case_status::passed:
      return "passed";
    case case_status::failed:
      return "failed";
    case case_status::skipped:
      return "skipped";
    case case_status::error:
      return "error";
  }
  return "error";
}

const char* to_string(check_verdict verdict) {
  switch (verdict) {
    case check_verdict::pass:
      return "pass";
    case check_verdict::fail:
      return "fail";
    case check_verdict::regression:
      return "regression";
    case check_verdict::improvement:
      return "improvement";
    case check_verdict::new_metric:
      return "new_metric";
    case check_verdict::missing:
      return "missing";
  }
  return "missing";
}

namespace {

using nlohmann::json;

// JSON has no NaN or infinity: they are written as null and read back as NaN.
json number_or_null(double value) {
  return std::isfinite(value) ? json(value) : json(nullptr);
}

json optional_number(const std::optional<double>& value) {
  return value ? number_or_null(*value) : json(nullptr);
}

case_status parse_status(const json_reader& in, const std::string& text, const std::string& path) {
  for (auto status : {case_status::passed, case_status::failed, case_status::skipped, case_status::error}) {
    if (text == to_string(status))
      return status;
  }
  in.fail(path, "unknown status '" + text + "'", "valid: passed, failed, skipped, error");
}

check_verdict parse_verdict(const json_reader& in, const std::string& text, const std::string& path) {
  for (auto verdict : {check_verdict::pass, check_verdict::fail, check_verdict::regression,
                       check_verdict::improvement, check_verdict::new_metric, check_verdict::missing}) {
    if (text == to_string(verdict))
      return verdict;
  }
  in.fail(path, "unknown verdict '" + text + "'",
          "valid: pass, fail, regression, improvement, new_metric, missing");
}

// {"file", "line", "column"}: where a case or expectation is written (line and column 1-based, 0 unknown).
json source_to_json(const source_location& where) {
  return json{{"file", where.file}, {"line", where.line}, {"column", where.column}};
}

// The optional "source" member of a case or check; results written before it existed have none.
std::optional<source_location> optional_source(const json_reader& in, const json& object,
                                               const std::string& path) {
  const json* found = in.optional_member(object, path, "source");
  if (found == nullptr || found->is_null())
    return std::nullopt;
  const std::string spath = field_at(path, "source");
  constexpr std::int64_t largest = std::numeric_limits<int>::max();
  source_location where;
  where.file = in.string(*found, spath, "file");
  where.line = static_cast<int>(in.integer(*found, spath, "line", 0, largest));
  if (in.optional_member(*found, spath, "column") != nullptr)
    where.column = static_cast<int>(in.integer(*found, spath, "column", 0, largest));
  return where;
}

json metadata_to_json(const run_metadata& m) {
  json out = device_to_json(m.device);  // the device's fields stand beside the run's
  out["counterguard_version"] = m.counterguard_version;
  out["gpu_key"] = m.gpu_key;
  out["git_commit"] = m.git_commit;
  out["command_line"] = m.command_line;
  out["started_at"] = m.started_at;
  out["mode"] = m.mode;
  return out;
}

run_metadata metadata_from_json(const json_reader& in, const json& value) {
  const std::string path = "metadata";
  run_metadata m;
  m.counterguard_version = in.string(value, path, "counterguard_version");
  m.device = read_device_description(in, value, path);
  m.gpu_key = in.string(value, path, "gpu_key");
  m.git_commit = in.string(value, path, "git_commit");
  m.command_line = in.string(value, path, "command_line");
  m.started_at = in.string(value, path, "started_at");
  m.mode = in.string(value, path, "mode");
  if (in.optional_member(value, path, "hostname") != nullptr)
    m.hostname = in.string(value, path, "hostname");
  if (in.optional_member(value, path, "counters_not_run") != nullptr)
    m.counters_not_run = in.string(value, path, "counters_not_run");
  if (const json* shard = in.optional_member(value, path, "shard"); shard != nullptr && !shard->is_null())
    m.shard = read_shard_record(in, *shard, field_at(path, "shard"));
  if (const json* replay = in.optional_member(value, path, "replay"); replay != nullptr && !replay->is_null())
    m.replay = read_replay_record(in, *replay, field_at(path, "replay"));
  return m;
}

// Members are assigned, not listed in an initializer list: nlohmann copies every listed value deeply, which
// made a case's result cost the GPU worker about 0.1 ms a case on the H200 (COUNTERGUARD_TIMING).
json check_to_json(const check_outcome& c) {
  json out = json::object();
  out["metric"] = c.metric;
  out["kernel"] = c.kernel;
  out["origin"] = c.origin;
  out["expected"] = c.expected;
  out["measured"] = optional_number(c.measured);
  out["baseline"] = optional_number(c.baseline);
  out["verdict"] = to_string(c.verdict);
  out["failing"] = c.failing;
  out["message"] = c.message;
  if (c.source)
    out["source"] = source_to_json(*c.source);
  return out;
}

std::optional<double> optional_number(const json_reader& in, const json& object, const std::string& path,
                                      const char* key) {
  const json* value = in.optional_member(object, path, key);
  if (value == nullptr || value->is_null())
    return std::nullopt;
  return in.number_or_nan(*value, field_at(path, key));
}

check_outcome check_from_json(const json_reader& in, const json& value, const std::string& path) {
  check_outcome c;
  c.metric = in.string(value, path, "metric");
  c.kernel = in.string(value, path, "kernel");
  c.origin = in.string(value, path, "origin");
  c.expected = in.string(value, path, "expected");
  c.measured = optional_number(in, value, path, "measured");
  c.baseline = optional_number(in, value, path, "baseline");
  c.verdict = parse_verdict(in, in.string(value, path, "verdict"), path + ".verdict");
  c.failing = in.boolean(value, path, "failing");
  c.message = in.string(value, path, "message");
  c.source = optional_source(in, value, path);
  return c;
}

json case_to_json(const case_result& r) {
  json kernels = json::array();
  for (const auto& k : r.kernels) {
    json metrics = json::object();
    for (const auto& [name, value] : k.metrics)
      metrics[name] = number_or_null(value);
    json kernel = json::object();
    kernel["function"] = k.function;
    kernel["mangled"] = k.mangled;
    kernel["launch_index"] = k.launch_index;
    kernel["metrics"] = std::move(metrics);
    if (!k.unmeasured.empty())
      kernel["unmeasured"] = k.unmeasured;
    kernels.push_back(std::move(kernel));
  }
  json totals = json::object();
  for (const auto& [name, value] : r.totals) {
    json total = json::object();
    total["value"] = number_or_null(value.value);
    total["class"] = to_string(value.cls);
    totals[name] = std::move(total);
  }
  json checks = json::array();
  for (const auto& c : r.checks)
    checks.push_back(check_to_json(c));
  json out = json::object();
  out["instance"] = r.instance;
  out["suite"] = r.suite;
  out["case"] = r.case_name;
  out["kernel"] = r.kernel;
  out["parameters"] = r.parameters;
  out["status"] = to_string(r.status);
  out["status_reason"] = r.status_reason;
  out["verified"] = r.verified ? json(*r.verified) : json(nullptr);
  out["verification_message"] = r.verification_message;
  out["kernels"] = std::move(kernels);
  out["totals"] = std::move(totals);
  out["checks"] = std::move(checks);
  out["passes"] = r.passes;
  out["seconds"] = number_or_null(r.seconds);
  if (r.unverified)
    out["unverified"] = true;  // written only when set: older readers and files stay as they were
  if (r.counter_checks_not_run != 0)
    out["counter_checks_not_run"] = r.counter_checks_not_run;  // written only when set, as unverified
  if (r.blame)
    out["blame"] = case_blame_to_json(*r.blame);
  if (r.source)
    out["source"] = source_to_json(*r.source);
  return out;
}

case_result case_from_json(const json_reader& in, const json& value, const std::string& path) {
  constexpr std::int64_t largest = std::numeric_limits<int>::max();
  case_result r;
  r.instance = in.string(value, path, "instance");
  r.suite = in.string(value, path, "suite");
  r.case_name = in.string(value, path, "case");
  r.kernel = in.string(value, path, "kernel");
  const json& parameters = in.object(value, path, "parameters");
  for (const auto& [name, text] : parameters.items()) {
    if (!text.is_string())
      in.fail(path + ".parameters." + name, "expected a string, got " + describe_json(text));
    r.parameters[name] = text.get<std::string>();
  }
  r.status = parse_status(in, in.string(value, path, "status"), path + ".status");
  r.status_reason = in.string(value, path, "status_reason");
  const json& verified = in.member(value, path, "verified");
  if (verified.is_boolean()) {
    r.verified = verified.get<bool>();
  } else if (!verified.is_null()) {
    in.fail(path + ".verified", "expected true, false or null, got " + describe_json(verified));
  }
  r.verification_message = in.string(value, path, "verification_message");
  if (in.optional_member(value, path, "unverified") != nullptr)
    r.unverified = in.boolean(value, path, "unverified");
  if (in.optional_member(value, path, "counter_checks_not_run") != nullptr) {
    r.counter_checks_not_run = static_cast<std::size_t>(
        in.integer(value, path, "counter_checks_not_run", 0, std::numeric_limits<std::int64_t>::max()));
  }
  const json& kernels = in.array(value, path, "kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string kpath = index_at(path + ".kernels", i);
    kernel_measurement k;
    k.function = in.string(kernels[i], kpath, "function");
    k.mangled = in.string(kernels[i], kpath, "mangled");
    k.launch_index = static_cast<int>(in.integer(kernels[i], kpath, "launch_index", 0, largest));
    for (const auto& [name, number] : in.object(kernels[i], kpath, "metrics").items())
      k.metrics[name] = in.number_or_nan(number, kpath + ".metrics." + name);
    if (in.optional_member(kernels[i], kpath, "unmeasured") != nullptr) {
      const json& unmeasured = in.object(kernels[i], kpath, "unmeasured");
      for (const auto& entry : unmeasured.items())
        k.unmeasured[entry.key()] = in.string(unmeasured, kpath + ".unmeasured", entry.key().c_str());
    }
    r.kernels.push_back(std::move(k));
  }
  for (const auto& [name, total] : in.object(value, path, "totals").items()) {
    const std::string tpath = path + ".totals." + name;
    metric_value v;
    v.value = in.number_or_nan(in.member(total, tpath, "value"), tpath + ".value");
    const std::string cls = in.string(total, tpath, "class");
    const auto parsed = parse_metric_class(cls);
    if (!parsed)
      in.fail(tpath + ".class", "unknown class '" + cls + "'", "valid: static, exact, noisy");
    v.cls = *parsed;
    r.totals[name] = v;
  }
  const json& checks = in.array(value, path, "checks");
  for (std::size_t i = 0; i < checks.size(); ++i)
    r.checks.push_back(check_from_json(in, checks[i], index_at(path + ".checks", i)));
  r.passes = static_cast<int>(in.integer(value, path, "passes", 0, largest));
  r.seconds = in.number_or_nan(in.member(value, path, "seconds"), path + ".seconds");
  r.source = optional_source(in, value, path);
  if (const json* blame = in.optional_member(value, path, "blame"))
    r.blame = case_blame_from_json(in, *blame, field_at(path, "blame"));
  return r;
}

}  // namespace

json device_to_json(const device_description& device) {
  return json{{"gpu_name", device.name},
              {"chip", device.chip},
              {"sm_count", device.sm_count},
              {"compute_capability", device.compute_capability},
              {"driver_version", device.driver_version},
              {"cuda_runtime_version", device.cuda_runtime_version},
              {"cupti_version", device.cupti_version},
              {"sm_clock_mhz", device.sm_clock_mhz},
              {"memory_clock_mhz", device.memory_clock_mhz}};
}

device_description read_device_description(const json_reader& reader, const json& value,
                                           const std::string& path) {
  constexpr std::int64_t largest = std::numeric_limits<int>::max();
  device_description device;
  device.name = reader.string(value, path, "gpu_name");
  device.chip = reader.string(value, path, "chip");
  device.sm_count = static_cast<int>(reader.integer(value, path, "sm_count", 0, largest));
  device.compute_capability = static_cast<int>(reader.integer(value, path, "compute_capability", 0, largest));
  device.driver_version = reader.string(value, path, "driver_version");
  device.cuda_runtime_version = reader.string(value, path, "cuda_runtime_version");
  device.cupti_version = reader.string(value, path, "cupti_version");
  device.sm_clock_mhz = static_cast<int>(reader.integer(value, path, "sm_clock_mhz", 0, largest));
  device.memory_clock_mhz = static_cast<int>(reader.integer(value, path, "memory_clock_mhz", 0, largest));
  return device;
}

void to_json(nlohmann::json& out, const run_results& results) {
  json cases = json::array();
  for (const auto& c : results.cases)
    cases.push_back(case_to_json(c));
  out = json::object();
  out["schema_version"] = results.schema_version;
  out["metadata"] = metadata_to_json(results.metadata);
  out["cases"] = std::move(cases);
  if (!results.metadata.hostname.empty())
    out["metadata"]["hostname"] = results.metadata.hostname;
  if (!results.metadata.counters_not_run.empty())
    out["metadata"]["counters_not_run"] = results.metadata.counters_not_run;
  if (results.metadata.shard)
    out["metadata"]["shard"] = shard_record_to_json(*results.metadata.shard);
  if (results.metadata.replay)
    out["metadata"]["replay"] = replay_record_to_json(*results.metadata.replay);
}

run_results read_run_results(const nlohmann::json& document, const std::string& file) {
  const json_reader in(file);
  run_results parsed;
  parsed.schema_version = checked_schema_version(in, document);
  parsed.metadata = metadata_from_json(in, in.object(document, "", "metadata"));
  const json& cases = in.array(document, "", "cases");
  for (std::size_t i = 0; i < cases.size(); ++i)
    parsed.cases.push_back(case_from_json(in, cases[i], index_at("cases", i)));
  return parsed;
}

run_results load_run_results(const std::string& path) {
  return read_run_results(read_results_document(path), path);
}

void from_json(const nlohmann::json& in, run_results& results) {
  results = read_run_results(in, "<results JSON>");
}

}  // namespace counterguard
