// SPDX-License-Identifier: Apache-2.0
// The JSON Schemas of the suite YAML and the results JSON. The suite schema's metric names come from the
// metric catalogue in code, so an alias added there is completed by editors once the schema is printed again
// (ctest schemas.committed_match_printed says when schemas/ is stale).
#include "counterguard/pipeline/json_schemas.hpp"

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/metrics/metric_class.hpp"
#include "counterguard/reporters/report_output.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {
namespace {

using nlohmann::json;

constexpr const char* schema_dialect = "https://json-schema.org/draft/2020-12/schema";

json described(json schema, const std::string& description) {
  schema["description"] = description;
  return schema;
}

json reference(const std::string& definition) {
  return {{"$ref", "#/$defs/" + definition}};
}

json any_of(std::vector<json> alternatives) {
  return {{"anyOf", json(std::move(alternatives))}};
}

json nullable(json schema) {
  // A key with an empty value (`expect:` and nothing after it) is the same as leaving the key out.
  return any_of({std::move(schema), {{"type", "null"}}});
}

json type_of(const char* type) {
  return {{"type", type}};
}

json non_empty_string() {
  return {{"type", "string"}, {"minLength", 1}};
}

json integer_from(int minimum) {
  return {{"type", "integer"}, {"minimum", minimum}};
}

json array_of(json items) {
  return {{"type", "array"}, {"items", std::move(items)}};
}

json map_of(json values) {
  return {{"type", "object"}, {"additionalProperties", std::move(values)}};
}

// An object with exactly these properties (no others), `required` among them.
json object_with(json properties, std::vector<std::string> required = {}) {
  json schema = {{"type", "object"}, {"additionalProperties", false}, {"properties", std::move(properties)}};
  if (!required.empty())
    schema["required"] = required;
  return schema;
}

json required_one_of(const std::vector<std::string>& keys) {
  json alternatives = json::array();
  for (const auto& key : keys)
    alternatives.push_back({{"required", json::array({key})}});
  return alternatives;
}

std::string metric_description(const metric_definition& m) {
  std::string text = m.description.empty() ? m.name : m.description;
  text += std::string(" (class ") + to_string(m.cls);
  if (!m.unit.empty())
    text += ", unit " + m.unit;
  text += std::string(", ") + to_string(m.direction);
  if (m.source == metric_source::cupti && !m.formula.empty())
    text += "; CUPTI: " + m.formula;
  return text + ")";
}

json expectation_definitions(const metric_catalog& metrics) {
  json defs = json::object();
  // An expectation: a bare number or formula (equals), or exactly one comparison with its options.
  json comparison = object_with(
      {{"equals", described(reference("formula"), "the metric equals the value (within tolerance)")},
       {"max", described(reference("formula"), "the metric is at most the value")},
       {"min", described(reference("formula"), "the metric is at least the value")},
       {"between",
        described(json{{"type", "array"}, {"items", reference("formula")}, {"minItems", 2}, {"maxItems", 2}},
                  "[lower, upper], lower <= upper")},
       {"tolerance", described({{"type", "number"}, {"minimum", 0}}, "relative: 0.05 allows 5 %; default 0")},
       {"class",
        described({{"enum", {"static", "exact", "noisy"}}}, "overrides the class the catalogue gives")},
       {"kernel",
        described(non_empty_string(), "a device function: the expectation applies to its launches only")}});
  comparison["oneOf"] = required_one_of({"equals", "max", "min", "between"});
  defs["expectation"] =
      described(any_of({reference("formula"), comparison}),
                "a number or formula (equals), or {equals|max|min|between, tolerance, class, kernel}");

  json aliases = json::object();
  for (const std::string& name : metrics.alias_names())
    aliases[name] = described(reference("expectation"), metric_description(*metrics.find_alias(name)));
  json expectations = {{"type", "object"},
                       {"properties", std::move(aliases)},
                       {"patternProperties", {{raw_cupti_name_schema_pattern(), reference("expectation")}}},
                       {"additionalProperties", false}};
  defs["expectations"] = described(std::move(expectations),
                                   "metric (an alias of docs/metrics.md, or a raw CUPTI name "
                                   "<unit>__<counter>.<rollup>) to what it must be");
  return defs;
}

// select: of the cases of `counterguard exec` (docs/exec.md).
json selector_definitions() {
  json defs = json::object();
  defs["name_pattern"] =
      described(any_of({non_empty_string(),
                        [] {
                          json one = object_with({{"regex", type_of("string")}, {"glob", type_of("string")}});
                          one["minProperties"] = 1;
                          one["maxProperties"] = 1;
                          return one;
                        }()}),
                "a glob, regex:EXPR, {regex: EXPR} or {glob: G}");
  const json nvtx_path = any_of({type_of("string"), array_of(type_of("string"))});
  defs["nvtx"] =
      described(any_of({nvtx_path, object_with({{"range", nvtx_path},
                                                {"domain", type_of("string")},
                                                {"kind", {{"enum", {"push_pop", "start_end"}}}}},
                                               {"range"})}),
                "\"outer/inner\", \"Domain@outer/inner\", [outer, inner] or {range, domain, kind}");
  const json launch = described(
      any_of({integer_from(0), object_with({{"skip", integer_from(0)}, {"count", integer_from(1)}})}),
      "an ordinal among the matching launches, or {skip, count}");
  const json process = object_with({{"rank", integer_from(0)}, {"executable", reference("name_pattern")}});
  defs["selector"] =
      described(any_of({reference("name_pattern"), object_with({{"kernel", reference("name_pattern")},
                                                                {"nvtx", reference("nvtx")},
                                                                {"launch", launch},
                                                                {"max_launches", integer_from(1)},
                                                                {"process", process}})}),
                "the launches of a program this case measures (counterguard exec)");
  return defs;
}

json suite_definitions(const metric_catalog& metrics) {
  json defs = json::object();
  defs["name"] =
      described({{"type", "string"}, {"pattern", "^[A-Za-z0-9_.-]+$"}}, "letters, digits, '_', '.', '-'");
  defs["formula"] = described(any_of({type_of("number"), non_empty_string()}),
                              "a number, or an arithmetic expression of the instance's numeric parameters "
                              "(docs/schema.md, \"Formulas\")");
  defs["scalar"] = {{"type", {"string", "number", "integer", "boolean"}}};
  defs["dimensions"] = described(
      any_of({reference("formula"),
              {{"type", "array"}, {"items", reference("formula")}, {"minItems", 1}, {"maxItems", 3}}}),
      "one to three dimensions (x, y, z); missing ones are 1");
  defs["launch"] = object_with(
      {{"block", nullable(described(reference("dimensions"), "threads per block"))},
       {"grid", nullable(described(reference("dimensions"), "blocks per grid"))},
       {"cluster",
        nullable(described(reference("dimensions"), "thread-block cluster dimensions (sm_90 and newer)"))},
       {"dynamic_shared_bytes", nullable(described(reference("formula"), "dynamic shared memory, bytes"))}});
  defs["parameters"] =
      described(map_of(reference("scalar")), "parameter name to value; each must be one the kernel declares");
  defs.update(expectation_definitions(metrics));
  defs.update(selector_definitions());

  const json axes = described(
      map_of({{"type", "array"}, {"items", reference("scalar")}, {"minItems", 1}, {"uniqueItems", true}}),
      "parameters to sweep: one instance per combination");
  json case_schema = object_with(
      {{"name", described(reference("name"), "unique within the suite")},
       {"kernel",
        described(non_empty_string(), "a registered kernel variant (`counterguard kernels` lists them)")},
       {"select", reference("selector")},
       {"description", nullable(type_of("string"))},
       {"parameters", nullable(reference("parameters"))},
       {"axes", nullable(axes)},
       {"launch", nullable(reference("launch"))},
       {"skip", nullable(described(non_empty_string(), "reported as skipped with this reason, not run"))},
       {"expect", nullable(reference("expectations"))},
       {"measure", nullable(reference("measured"))}},
      {"name"});
  // A registered variant (kernel:), or launches of a program (select:, without parameters, axes or launch).
  case_schema["oneOf"] = json::array(
      {{{"required", json::array({"kernel"})}, {"properties", {{"select", false}}}},
       {{"required", json::array({"select"})},
        {"properties", {{"kernel", false}, {"parameters", false}, {"axes", false}, {"launch", false}}}}});
  defs["case"] = std::move(case_schema);
  defs["measured"] = described({{"type", "array"}, {"items", non_empty_string()}, {"uniqueItems", true}},
                               "metrics measured without an expectation, for the per-GPU baselines to judge "
                               "(aliases or raw CUPTI names)");
  return defs;
}

json results_definitions() {
  json defs = json::object();
  const json text = {{"type", "string"}};
  const json count = {{"type", "integer"}, {"minimum", 0}};
  const json number_or_null =
      described({{"type", json::array({"number", "null"})}}, "null where not measured or not finite");
  defs["source"] = {{"type", "object"},
                    {"additionalProperties", false},
                    {"required", json::array({"file", "line"})},
                    {"properties", {{"file", text}, {"line", count}, {"column", count}}}};
  defs["check"] = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", json::array({"metric", "kernel", "origin", "expected", "measured", "baseline", "verdict",
                                "failing", "message"})},
      {"properties",
       {{"metric", text},
        {"kernel", described(text, "the launch the check read; empty for the case total")},
        {"origin", {{"enum", json::array({"expectation", "baseline", "program", "selection"})}}},
        {"expected", text},
        {"measured", number_or_null},
        {"baseline", number_or_null},
        {"verdict",
         {{"enum", json::array({"pass", "fail", "regression", "improvement", "new_metric", "missing"})}}},
        {"failing", {{"type", "boolean"}}},
        {"message", text},
        {"source", reference("source")}}}};
  defs["kernel"] = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", json::array({"function", "mangled", "launch_index", "metrics"})},
      {"properties",
       {{"function", text},
        {"mangled", text},
        {"launch_index", count},
        {"metrics", {{"type", "object"}, {"additionalProperties", number_or_null}}},
        {"unmeasured",
         {{"type", "object"},
          {"additionalProperties",
           {{"type", "string"}, {"description", "why this launch has no value for the metric"}}}}}}}};
  defs["blame"] = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", json::array({"regressed", "metrics", "against_baseline", "lines", "note"})},
      {"properties",
       {{"regressed", {{"type", "array"}, {"items", text}}},
        {"metrics", {{"type", "array"}, {"items", text}}},
        {"against_baseline", {{"type", "boolean"}}},
        {"note", text},
        {"lines",
         {{"type", "array"},
          {"items",
           {{"type", "object"},
            {"additionalProperties", false},
            {"required", json::array({"function", "place", "sass", "metric", "before", "after"})},
            {"properties",
             {{"function", text},
              {"place", text},
              {"chain", {{"type", "array"}, {"items", text}}},
              {"sass", text},
              {"metric", text},
              {"before", {{"type", json::array({"integer", "null"})}, {"minimum", 0}}},
              {"after", count},
              {"opcodes_before", {{"type", "array"}, {"items", text}}},
              {"opcodes_after", {{"type", "array"}, {"items", text}}},
              {"file", text}}}}}}}}}};
  defs["case"] = {{"type", "object"},
                  {"additionalProperties", false},
                  {"required", json::array({"instance", "suite", "case", "kernel", "parameters", "status",
                                            "status_reason", "verified", "verification_message", "kernels",
                                            "totals", "checks", "passes", "seconds"})},
                  {"properties",
                   {{"instance", described(text, "suite/case plus ?axis=value,... in declared axis order")},
                    {"suite", text},
                    {"case", text},
                    {"kernel", text},
                    {"parameters", {{"type", "object"}, {"additionalProperties", text}}},
                    {"status", {{"enum", json::array({"passed", "failed", "skipped", "error"})}}},
                    {"status_reason", text},
                    {"verified", {{"type", json::array({"boolean", "null"})}}},
                    {"verification_message", text},
                    {"unverified", {{"type", "boolean"}}},
                    {"counter_checks_not_run",
                     described(count, "expectations of counters left unchecked: nothing was profiled")},
                    {"kernels", {{"type", "array"}, {"items", reference("kernel")}}},
                    {"totals",
                     {{"type", "object"},
                      {"additionalProperties",
                       {{"type", "object"},
                        {"additionalProperties", false},
                        {"required", json::array({"value", "class"})},
                        {"properties",
                         {{"value", number_or_null},
                          {"class", {{"enum", json::array({"static", "exact", "noisy"})}}}}}}}}},
                    {"checks", {{"type", "array"}, {"items", reference("check")}}},
                    {"passes", count},
                    {"seconds", number_or_null},
                    {"blame", reference("blame")},
                    {"source", reference("source")}}}};
  defs["shard"] = {{"type", "object"},
                   {"additionalProperties", false},
                   {"required", json::array({"index", "count", "instances", "plan", "positions"})},
                   {"properties",
                    {{"index", {{"type", "integer"}, {"minimum", 1}}},
                     {"count", {{"type", "integer"}, {"minimum", 1}}},
                     {"instances", count},
                     {"plan", {{"type", "string"}, {"pattern", "^[0-9a-f]{16}$"}}},
                     {"positions", {{"type", "array"}, {"items", count}}}}}};
  defs["replay"] = {
      {"type", "object"},
      {"additionalProperties", false},
      {"description",
       "exec: how counters needing several passes were collected, and where each profiled "
       "launch's time went (docs/exec.md)"},
      {"required", json::array({"requested", "mode", "decision", "run_seconds", "launches"})},
      {"properties",
       {{"requested", {{"enum", json::array({"auto", "kernel", "application"})}}},
        {"mode", {{"enum", json::array({"kernel", "application"})}}},
        {"decision", text},
        {"run_seconds", {{"type", "array"}, {"items", number_or_null}}},
        {"launches",
         {{"type", "array"},
          {"items",
           {{"type", "object"},
            {"additionalProperties", false},
            {"required", json::array({"instance", "kernel", "passes", "runs", "setup_milliseconds",
                                      "replay_milliseconds", "restore_milliseconds", "device_bytes_in_use"})},
            {"properties",
             {{"instance", text},
              {"kernel", text},
              {"passes", count},
              {"runs", count},
              {"setup_milliseconds", number_or_null},
              {"replay_milliseconds", number_or_null},
              {"restore_milliseconds",
               described(number_or_null,
                         "estimated: the time beyond the passes' one-pass cost; null when "
                         "that cost was not measured")},
              {"device_bytes_in_use", count}}}}}}}}}};
  defs["metadata"] = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required",
       json::array({"counterguard_version", "gpu_name", "chip", "sm_count", "compute_capability",
                    "driver_version", "cuda_runtime_version", "cupti_version", "sm_clock_mhz",
                    "memory_clock_mhz", "gpu_key", "git_commit", "command_line", "started_at", "mode"})},
      {"properties",
       {{"counterguard_version", text},
        {"gpu_name", text},
        {"chip", text},
        {"sm_count", count},
        {"compute_capability", count},
        {"driver_version", text},
        {"cuda_runtime_version", text},
        {"cupti_version", text},
        {"sm_clock_mhz", count},
        {"memory_clock_mhz", count},
        {"gpu_key", described(text, "the baseline key of the device (docs/baselines.md)")},
        {"git_commit", text},
        {"command_line", text},
        {"started_at", described(text, "ISO 8601, UTC")},
        {"mode", {{"enum", json::array({"run", "exec", "evaluate", "static"})}}},
        {"hostname", text},
        {"counters_not_run",
         described(text, "why no counter was measured (\"no GPU\"); absent when profiled")},
        {"shard", reference("shard")},
        {"replay", reference("replay")}}}};
  const json checks_summary = {{"type", "object"},
                               {"additionalProperties", false},
                               {"properties",
                                {{"total", count},
                                 {"pass", count},
                                 {"fail", count},
                                 {"regression", count},
                                 {"improvement", count},
                                 {"new_metric", count},
                                 {"missing", count},
                                 {"failing", count}}}};
  defs["summary"] = described({{"type", "object"},
                               {"additionalProperties", false},
                               {"properties",
                                {{"cases", count},
                                 {"passed", count},
                                 {"failed", count},
                                 {"skipped", count},
                                 {"errors", count},
                                 {"wrong_output", count},
                                 {"checks", checks_summary},
                                 {"strict", {{"type", "boolean"}}},
                                 {"seconds", {{"type", "number"}}},
                                 {"exit_code", count},
                                 {"counter_checks_not_run", count},
                                 {"static_checks_only", text}}}},
                              "added by the --json report; ignored when the file is read back");
  return defs;
}

}  // namespace

const char* raw_cupti_name_schema_pattern() {
  return R"(^[a-z0-9]+__[a-z0-9_]+(\.[a-z0-9_]+){1,2}$)";
}

json suite_json_schema(const metric_catalog& metrics) {
  return {
      {"$schema", schema_dialect},
      {"title", "counterguard suite"},
      {"description",
       "A counterguard suite: kernel variants (cases), the parameters and launch each runs with, and the "
       "metrics expected of it (docs/schema.md). Printed by `counterguard schema suite`."},
      {"type", "object"},
      {"additionalProperties", false},
      {"required", json::array({"suite", "cases"})},
      {"properties",
       {{"suite", described(reference("name"), "the suite's name: the first part of every instance name")},
        {"description", nullable({{"type", "string"}})},
        {"defaults",
         nullable(described({{"type", "object"},
                             {"additionalProperties", false},
                             {"properties",
                              {{"parameters", nullable(reference("parameters"))},
                               {"launch", nullable(reference("launch"))},
                               {"measure", nullable(reference("measured"))}}}},
                            "parameters, launch and measured metrics applied to every case before "
                            "its own"))},
        {"cases", {{"type", "array"}, {"minItems", 1}, {"items", reference("case")}}}}},
      {"$defs", suite_definitions(metrics)}};
}

json results_json_schema() {
  return {
      {"$schema", schema_dialect},
      {"title", "counterguard results"},
      {"description",
       "The results JSON of counterguard run, exec, evaluate, static and merge (--json), schema_version 1 "
       "(docs/results-schema.md). Printed by `counterguard schema results`."},
      {"type", "object"},
      {"additionalProperties", false},
      {"required", json::array({"schema_version", "metadata", "cases"})},
      {"properties",
       {{"schema_version", {{"const", results_schema_version}}},
        {"metadata", reference("metadata")},
        {"cases", {{"type", "array"}, {"items", reference("case")}}},
        {"summary", reference("summary")}}},
      {"$defs", results_definitions()}};
}

std::vector<std::string> json_schema_names() {
  return {"suite", "results"};
}

json json_schema(const std::string& name) {
  if (name == "suite")
    return suite_json_schema(metric_catalog::builtin());
  if (name == "results")
    return results_json_schema();
  throw input_error(
      {}, "schema", "no schema named '" + name + "'",
      did_you_mean(name, json_schema_names()) + "the schemas: " + comma_list(json_schema_names()));
}

int print_json_schema(const std::string& name, const std::string& output) {
  write_report_text(output.empty() ? standard_output_path : output, json_schema(name).dump(2) + "\n");
  return 0;
}

}  // namespace counterguard
