// SPDX-License-Identifier: Apache-2.0
// The JSON Schema of the suite YAML, and `counterguard schema`'s lookup of both schemas (the results JSON's
// is in results_json_schema.cpp). The suite schema's metric names come from the metric catalogue in code, so
// an alias added there is completed by editors once the schema is printed again (ctest
// schemas.committed_match_printed says when schemas/ is stale).
#include "counterguard/pipeline/json_schemas.hpp"

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/metrics/metric_class.hpp"
#include "counterguard/reporters/report_output.hpp"
#include "detail/json_schema_builders.hpp"

namespace counterguard {
namespace {

using detail::described;
using detail::reference;
using detail::schema_dialect;
using nlohmann::json;

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
