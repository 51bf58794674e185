// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/pipeline/case_selection.hpp"

namespace counterguard {

// What this runner knows, printed on stdout; each returns the exit status.

// `kernels`: the registered variants, their device functions and parameters.
int list_kernels();
// `metrics list`: the metric aliases, or with `raw` every raw CUPTI metric of `chip`, or with `ncu` the
// launch__ and device__attribute_ names of ncu counterguard reports. `json`: also the aliases as JSON to this
// file; "-": only the JSON, on standard output.
int list_metrics(const std::string& chip, bool raw, const std::string& json, bool ncu = false);
// `metrics validate`: every metric the selected cases name exists (for their chip), else input_error.
int validate_metrics(const selection_options& selection);

// `list`: the case instances of suites, one name per line, with no GPU and no CUPTI. `json`: also as JSON to
// this file; "-": only the JSON, on standard output.
struct list_options {
  std::vector<std::string> paths{"cases"};
  std::string filter;
  std::string json;
};
int list_instances(const list_options& options);

}  // namespace counterguard
