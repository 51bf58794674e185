#include "counterguard/results/run_results.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "counterguard/core/error.hpp"

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

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

[[noreturn]] void malformed(const std::string& field, const std::string& problem,
                            const std::string& valid = {}) {
  throw input_error(source_location{"<results JSON>", 0, 0}, field, problem, valid);
}

const json& member(const json& object, const char* key, const std::string& path) {
  if (!object.is_object())
    malformed(path, "expected an object");
  const auto found = object.find(key);
  if (found == object.end())
    malformed(join(path, key), "missing");
  return *found;
}

std::string get_string(const json& object, const char* key, const std::string& path) {
  const json& value = member(object, key, path);
  if (!value.is_string())
    malformed(join(path, key), "expected a string");
  return value.get<std::string>();
}

int get_int(const json& object, const char* key, const std::string& path) {
  const json& value = member(object, key, path);
  if (!value.is_number_integer())
    malformed(join(path, key), "expected an integer");
  return value.get<int>();
}

double get_number_or_nan(const json& value, const std::string& path) {
  if (value.is_null())
    return std::numeric_limits<double>::quiet_NaN();
  if (!value.is_number())
    malformed(path, "expected a number or null");
  return value.get<double>();
}

std::optional<double> get_optional_number(const json& object, const char* key, const std::string& path) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null())
    return std::nullopt;
  return get_number_or_nan(*found, join(path, key));
}

case_status parse_status(const std::string& text, const std::string& path) {
  for (auto status : {case_status::passed, case_status::failed, case_status::skipped, case_status::error}) {
    if (text == to_string(status))
      return status;
  }
  malformed(path, "unknown status '" + text + "'", "valid: passed, failed, skipped, error");
}

check_verdict parse_verdict(const std::string& text, const std::string& path) {
  for (auto verdict : {check_verdict::pass, check_verdict::fail, check_verdict::regression,
                       check_verdict::improvement, check_verdict::new_metric, check_verdict::missing}) {
    if (text == to_string(verdict))
      return verdict;
  }
  malformed(path, "unknown verdict '" + text + "'",
            "valid: pass, fail, regression, improvement, new_metric, missing");
}

// {"file", "line", "column"}: where a case or expectation is written (line and column 1-based, 0 unknown).
json source_to_json(const source_location& where) {
  return json{{"file", where.file}, {"line", where.line}, {"column", where.column}};
}

// The optional "source" member of a case or check; results written before it existed have none.
std::optional<source_location> optional_source(const json& object, const std::string& path) {
  const auto found = object.find("source");
  if (found == object.end() || found->is_null())
    return std::nullopt;
  const std::string spath = join(path, "source");
  source_location where;
  where.file = get_string(*found, "file", spath);
  where.line = get_int(*found, "line", spath);
  if (found->contains("column"))
    where.column = get_int(*found, "column", spath);
  return where;
}

json metadata_to_json(const run_metadata& m) {
  return json{{"counterguard_version", m.counterguard_version},
              {"gpu_name", m.gpu_name},
              {"chip", m.chip},
              {"sm_count", m.sm_count},
              {"compute_capability", m.compute_capability},
              {"driver_version", m.driver_version},
              {"cuda_runtime_version", m.cuda_runtime_version},
              {"cupti_version", m.cupti_version},
              {"sm_clock_mhz", m.sm_clock_mhz},
              {"memory_clock_mhz", m.memory_clock_mhz},
              {"gpu_key", m.gpu_key},
              {"git_commit", m.git_commit},
              {"command_line", m.command_line},
              {"started_at", m.started_at},
              {"mode", m.mode}};
}

run_metadata metadata_from_json(const json& in) {
  const std::string path = "metadata";
  run_metadata m;
  m.counterguard_version = get_string(in, "counterguard_version", path);
  m.gpu_name = get_string(in, "gpu_name", path);
  m.chip = get_string(in, "chip", path);
  m.sm_count = get_int(in, "sm_count", path);
  m.compute_capability = get_int(in, "compute_capability", path);
  m.driver_version = get_string(in, "driver_version", path);
  m.cuda_runtime_version = get_string(in, "cuda_runtime_version", path);
  m.cupti_version = get_string(in, "cupti_version", path);
  m.sm_clock_mhz = get_int(in, "sm_clock_mhz", path);
  m.memory_clock_mhz = get_int(in, "memory_clock_mhz", path);
  m.gpu_key = get_string(in, "gpu_key", path);
  m.git_commit = get_string(in, "git_commit", path);
  m.command_line = get_string(in, "command_line", path);
  m.started_at = get_string(in, "started_at", path);
  m.mode = get_string(in, "mode", path);
  if (in.contains("hostname"))
    m.hostname = get_string(in, "hostname", path);
  return m;
}

json check_to_json(const check_outcome& c) {
  return json{{"metric", c.metric},
              {"kernel", c.kernel},
              {"origin", c.origin},
              {"expected", c.expected},
              {"measured", optional_number(c.measured)},
              {"baseline", optional_number(c.baseline)},
              {"verdict", to_string(c.verdict)},
              {"failing", c.failing},
              {"message", c.message}};
}

check_outcome check_from_json(const json& in, const std::string& path) {
  check_outcome c;
  c.metric = get_string(in, "metric", path);
  c.kernel = get_string(in, "kernel", path);
  c.origin = get_string(in, "origin", path);
  c.expected = get_string(in, "expected", path);
  c.measured = get_optional_number(in, "measured", path);
  c.baseline = get_optional_number(in, "baseline", path);
  c.verdict = parse_verdict(get_string(in, "verdict", path), path + ".verdict");
  const json& failing = member(in, "failing", path);
  if (!failing.is_boolean())
    malformed(path + ".failing", "expected true or false");
  c.failing = failing.get<bool>();
  c.message = get_string(in, "message", path);
  c.source = optional_source(in, path);
  return c;
}

json case_to_json(const case_result& r) {
  json kernels = json::array();
  for (const auto& k : r.kernels) {
    json metrics = json::object();
    for (const auto& [name, value] : k.metrics)
      metrics[name] = number_or_null(value);
    kernels.push_back({{"function", k.function},
                       {"mangled", k.mangled},
                       {"launch_index", k.launch_index},
                       {"metrics", metrics}});
  }
  json totals = json::object();
  for (const auto& [name, value] : r.totals) {
    totals[name] = {{"value", number_or_null(value.value)}, {"class", to_string(value.cls)}};
  }
  json checks = json::array();
  for (const auto& c : r.checks) {
    checks.push_back(check_to_json(c));
    if (c.source)
      checks.back()["source"] = source_to_json(*c.source);
  }
  return json{{"instance", r.instance},
              {"suite", r.suite},
              {"case", r.case_name},
              {"kernel", r.kernel},
              {"parameters", r.parameters},
              {"status", to_string(r.status)},
              {"status_reason", r.status_reason},
              {"verified", r.verified ? json(*r.verified) : json(nullptr)},
              {"verification_message", r.verification_message},
              {"kernels", kernels},
              {"totals", totals},
              {"checks", checks},
              {"passes", r.passes},
              {"seconds", number_or_null(r.seconds)}};
}

case_result case_from_json(const json& in, const std::string& path) {
  case_result r;
  r.instance = get_string(in, "instance", path);
  r.suite = get_string(in, "suite", path);
  r.case_name = get_string(in, "case", path);
  r.kernel = get_string(in, "kernel", path);
  const json& parameters = member(in, "parameters", path);
  if (!parameters.is_object())
    malformed(path + ".parameters", "expected an object of strings");
  for (const auto& [name, value] : parameters.items()) {
    if (!value.is_string())
      malformed(path + ".parameters." + name, "expected a string");
    r.parameters[name] = value.get<std::string>();
  }
  r.status = parse_status(get_string(in, "status", path), path + ".status");
  r.status_reason = get_string(in, "status_reason", path);
  const json& verified = member(in, "verified", path);
  if (verified.is_boolean()) {
    r.verified = verified.get<bool>();
  } else if (!verified.is_null()) {
    malformed(path + ".verified", "expected true, false or null");
  }
  r.verification_message = get_string(in, "verification_message", path);
  const json& kernels = member(in, "kernels", path);
  if (!kernels.is_array())
    malformed(path + ".kernels", "expected an array");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string kpath = path + ".kernels[" + std::to_string(i) + "]";
    kernel_measurement k;
    k.function = get_string(kernels[i], "function", kpath);
    k.mangled = get_string(kernels[i], "mangled", kpath);
    k.launch_index = get_int(kernels[i], "launch_index", kpath);
    const json& metrics = member(kernels[i], "metrics", kpath);
    if (!metrics.is_object())
      malformed(kpath + ".metrics", "expected an object");
    for (const auto& [name, value] : metrics.items()) {
      k.metrics[name] = get_number_or_nan(value, kpath + ".metrics." + name);
    }
    r.kernels.push_back(std::move(k));
  }
  const json& totals = member(in, "totals", path);
  if (!totals.is_object())
    malformed(path + ".totals", "expected an object");
  for (const auto& [name, value] : totals.items()) {
    const std::string tpath = path + ".totals." + name;
    metric_value v;
    v.value = get_number_or_nan(member(value, "value", tpath), tpath + ".value");
    const std::string cls = get_string(value, "class", tpath);
    const auto parsed = parse_metric_class(cls);
    if (!parsed)
      malformed(tpath + ".class", "unknown class '" + cls + "'", "valid: static, exact, noisy");
    v.cls = *parsed;
    r.totals[name] = v;
  }
  const json& checks = member(in, "checks", path);
  if (!checks.is_array())
    malformed(path + ".checks", "expected an array");
  for (std::size_t i = 0; i < checks.size(); ++i) {
    r.checks.push_back(check_from_json(checks[i], path + ".checks[" + std::to_string(i) + "]"));
  }
  r.passes = get_int(in, "passes", path);
  r.seconds = get_number_or_nan(member(in, "seconds", path), path + ".seconds");
  r.source = optional_source(in, path);
  return r;
}

}  // namespace

void to_json(nlohmann::json& out, const run_results& results) {
  json cases = json::array();
  for (const auto& c : results.cases) {
    cases.push_back(case_to_json(c));
    if (c.source)
      cases.back()["source"] = source_to_json(*c.source);
  }
  out = json{{"schema_version", results.schema_version},
             {"metadata", metadata_to_json(results.metadata)},
             {"cases", cases}};
  if (!results.metadata.hostname.empty())
    out["metadata"]["hostname"] = results.metadata.hostname;
}

void from_json(const nlohmann::json& in, run_results& results) {
  const int version = get_int(in, "schema_version", "");
  if (version < 1 || version > results_schema_version) {
    malformed("schema_version", "unsupported version " + std::to_string(version),
              "this counterguard reads versions 1 to " + std::to_string(results_schema_version));
  }
  run_results parsed;
  parsed.schema_version = version;
  parsed.metadata = metadata_from_json(member(in, "metadata", ""));
  const json& cases = member(in, "cases", "");
  if (!cases.is_array())
    malformed("cases", "expected an array");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    parsed.cases.push_back(case_from_json(cases[i], "cases[" + std::to_string(i) + "]"));
  }
  results = std::move(parsed);
}

}  // namespace counterguard
