// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/model/kernel_signature.hpp"
#include "counterguard/model/suite.hpp"

namespace counterguard {

class metric_catalog;

// Loads and validates one suite file. Every problem is an input_error naming file:line:column, the field
// and what would be valid: unknown keys, wrong types, unknown kernels or kernel parameters, parameter values
// outside their declared range, unknown metric aliases, duplicate case names, empty axes, bad formulas,
// unreadable files.
// Raw CUPTI metric names are only checked for shape here; chip validation is metric_name_validator's job.
[[nodiscard]] suite load_suite(const std::string& path, const kernel_catalog& kernels,
                               const metric_catalog& metrics);

// Loads every path: files as they are, directories as their *.yaml files in name order. The problems of every
// file are reported together (an input_error_list, core/input_errors.hpp, up to its cap): each case of a
// file, each expectation and parameter of a case, is read on its own.
[[nodiscard]] std::vector<suite> load_suites(const std::vector<std::string>& paths,
                                             const kernel_catalog& kernels, const metric_catalog& metrics);

// load_suites and expand_instances of each suite, with the problems of both in every file reported together.
[[nodiscard]] std::vector<case_instance> load_suite_instances(const std::vector<std::string>& paths,
                                                              const kernel_catalog& kernels,
                                                              const metric_catalog& metrics);

// The cartesian product of each case's axes, formulas evaluated, kernel parameter defaults filled in. Each
// instance must satisfy its kernel's declared block size and requirements (input_error at the case). The
// problems of every case are reported together; a case reports the first of its instances that fails.
[[nodiscard]] std::vector<case_instance> expand_instances(const suite& s, const kernel_catalog& kernels,
                                                          const metric_catalog& metrics);

// Keeps the instances whose name matches the pattern: a glob (`*` matches any run of characters; everything
// else, `?` included, is literal), or `regex:EXPR`, an ECMAScript regular expression found anywhere in the
// name (a bad one is an input_error naming --filter); an empty pattern keeps all.
[[nodiscard]] std::vector<case_instance> filter_instances(std::vector<case_instance> instances,
                                                          const std::string& pattern);

// An `expect:` map on its own, as YAML or JSON text (JSON is YAML): the forms, checks and messages of a
// case's `expect:` block (docs/schema.md, "Expectations"). `origin` stands for the file in error messages.
[[nodiscard]] std::vector<expectation> parse_expectations(const std::string& text, const std::string& origin,
                                                          const metric_catalog& metrics);

// An expectation evaluated for one instance's parameters: its formulas computed (an unknown or string
// parameter is an input_error naming the numeric ones), its class the declared one or the catalog's.
[[nodiscard]] resolved_expectation resolve_expectation(const expectation& spec,
                                                       const parameter_list& parameters,
                                                       const metric_catalog& metrics);

}  // namespace counterguard
