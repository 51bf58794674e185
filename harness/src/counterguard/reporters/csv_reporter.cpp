// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/csv_reporter.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace counterguard {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_number(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value))
    return "";
  return fmt::format("{}", *value);
}

void append_csv_row(std::string& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i)
    out += (i == 0 ? "" : ",") + csv_field(fields[i]);
  out += "\r\n";
}

// The class of the case total a check read, when the case measured it.
std::string total_class(const case_result& result, const std::string& metric) {
  const auto found = result.totals.find(metric);
  return found == result.totals.end() ? "" : to_string(found->second.cls);
}

}  // namespace

std::string render_csv_report(const run_results& results) {
  std::string out = std::string(csv_report_header) + "\r\n";
  for (const case_result& c : results.cases) {
    const std::vector<std::string> identity{c.instance, c.suite, c.case_name, to_string(c.status)};
    auto row = [&](std::vector<std::string> rest) {
      std::vector<std::string> fields = identity;
      fields.insert(fields.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
      append_csv_row(out, fields);
    };
    std::set<std::string> checked_totals;
    for (const check_outcome& check : c.checks) {
      if (check.kernel.empty())
        checked_totals.insert(check.metric);
      row({check.kernel, check.metric, check.kernel.empty() ? total_class(c, check.metric) : "",
           csv_number(check.measured), check.origin, check.expected, csv_number(check.baseline),
           to_string(check.verdict), check.failing ? "true" : "false", check.message});
    }
    for (const auto& [metric, total] : c.totals) {
      if (checked_totals.count(metric) == 0)
        row({"", metric, to_string(total.cls), csv_number(total.value), "measured", "", "", "", "", ""});
    }
    if (c.checks.empty() && c.totals.empty())
      row({"", "", "", "", "", "", "", "", "", c.status_reason});
  }
  return out;
}

}  // namespace counterguard
