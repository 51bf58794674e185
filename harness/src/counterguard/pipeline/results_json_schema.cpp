// SPDX-License-Identifier: Apache-2.0
// The JSON Schema of the results JSON (docs/results-schema.md): what `run`, `exec`, `evaluate`, `static` and
// `merge` write with --json.
#include "counterguard/pipeline/json_schemas.hpp"
#include "counterguard/results/run_results.hpp"
#include "detail/json_schema_builders.hpp"

namespace counterguard {
namespace {

using detail::described;
using detail::reference;
using nlohmann::json;

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

}  // namespace counterguard
