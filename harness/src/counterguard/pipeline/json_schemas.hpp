// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON Schemas (draft 2020-12) of what users write and what counterguard writes, for editors and validators:
// `counterguard schema suite|results` prints them; schemas/ holds them committed (docs/cli.md, "Schemas").

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {

// The suite YAML (docs/schema.md): its keys at every level, the expectation forms, and the metric names an
// `expect:` map takes: every alias of `metrics` (with its description, class and unit, so an editor completes
// and explains them) and raw CUPTI names by their shape. Kernel names are strings: each runner registers its
// own.
[[nodiscard]] nlohmann::json suite_json_schema(const metric_catalog& metrics);

// The results JSON (docs/results-schema.md), schema_version 1, with the `summary` the --json report adds.
[[nodiscard]] nlohmann::json results_json_schema();

// The pattern a raw CUPTI metric name matches in the suite schema
// (metric_catalog::looks_like_raw_cupti_name).
[[nodiscard]] const char* raw_cupti_name_schema_pattern();

// The names `counterguard schema` takes, and the schema of one (input_error for another name).
[[nodiscard]] std::vector<std::string> json_schema_names();
[[nodiscard]] nlohmann::json json_schema(const std::string& name);

// `counterguard schema NAME`: the schema, indented by 2, on standard output (or to `output`, "-" standard
// output). Returns the exit status.
int print_json_schema(const std::string& name, const std::string& output);

}  // namespace counterguard
