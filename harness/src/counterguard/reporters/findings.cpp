// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/history/sha256.hpp"

namespace counterguard {
namespace {

// The line number of a blame place ("transpose.cu:34" -> 34); 0 without one.
int line_of_place(const std::string& place) {
  const auto colon = place.rfind(':');
  if (colon == std::string::npos || colon + 1 == place.size())
    return 0;
  int line = 0;
  for (std::size_t i = colon + 1; i < place.size(); ++i) {
    if (place[i] < '0' || place[i] > '9')
      return 0;
    line = line * 10 + (place[i] - '0');
  }
  return line;
}

// The YAML line of a check (expectation_line), else the case's definition.
const source_location* expectation_source(const case_result& result, const shown_check& check) {
  if (check.suite_line)
    return &*check.suite_line;
  return result.source ? &*result.source : nullptr;
}

std::optional<repository_place> place_of(const source_location* where, const repository_paths& paths) {
  if (where == nullptr || where->file.empty())
    return std::nullopt;
  const auto path = paths.relative(where->file);
  if (!path)
    return std::nullopt;
  return repository_place{*path, std::max(where->line, 1)};
}

finding from_check(const case_result& result, const check_outcome& check, finding_kind kind) {
  finding f;
  f.kind = kind;
  f.instance = result.instance;
  f.metric = check.metric;
  f.kernel = check.kernel;
  f.verdict = check.verdict;
  f.expected = check.expected;
  f.measured = check.measured;
  f.message = check.message;
  return f;
}

// The blamed lines of `result` for a failing check of `metric`, one per place, the most telling first:
// against a per-line baseline every line that changed (it has a before); else the lines carrying the most
// telling blame metric (the others' lines carry their counters as always: a load's wavefronts next to a
// store's conflicts).
std::vector<std::size_t> blamed_lines_for(const case_result& result, const std::string& metric) {
  std::vector<std::size_t> lines;  // positions in result.blame->lines
  if (!result.blame)
    return lines;
  const case_blame& blame = *result.blame;
  const bool asked = blame.regressed.empty() || std::find(blame.regressed.begin(), blame.regressed.end(),
                                                          metric) != blame.regressed.end();
  if (!asked)
    return lines;
  std::set<std::pair<std::string, std::string>> seen;  // (file or place, line)
  for (std::size_t i = 0; i < blame.lines.size(); ++i) {
    const blamed_source_line& line = blame.lines[i];
    if (!line.before && !blame.metrics.empty() && line.metric != blame.metrics.front())
      continue;
    if (line.sass == "(no instruction now)")  // only the per-line baseline has it: nothing to point at now
      continue;
    if (seen.emplace(line.file.empty() ? line.place : line.file, line.place).second)
      lines.push_back(i);
  }
  return lines;
}

void add_fingerprint(finding& f) {
  f.fingerprint = sha256_hex(
      fmt::format("{}\n{}\n{}\n{}\n{}\n{}", f.kind == finding_kind::source_line ? "source" : "yaml",
                  f.instance, f.metric, f.kernel, f.place ? f.place->path : "", f.place ? f.place->line : 0));
}

}  // namespace

std::vector<finding> collect_findings(const judged_run& run, const repository_paths& paths) {
  const run_results& results = run.results;
  std::vector<finding> at_source;
  std::vector<finding> at_yaml;
  for (std::size_t position = 0; position < results.cases.size(); ++position) {
    const case_result& result = results.cases[position];
    const shown_case& shown = run.shown[position];
    if (result.status == case_status::skipped)
      continue;
    bool any_check = false;
    for (std::size_t c = 0; c < result.checks.size(); ++c) {
      const check_outcome& check = result.checks[c];
      if (!shown.checks[c].listed || !shown.checks[c].failing)
        continue;
      any_check = true;
      for (const std::size_t i : blamed_lines_for(result, check.metric)) {
        const blamed_source_line& line = result.blame->lines[i];
        // A line outside the repository (a library's header) has nowhere to go: the suite line still says it.
        const auto path = paths.relative(line.file);
        if (!path || line_of_place(line.place) <= 0)
          continue;
        finding f = from_check(result, check, finding_kind::source_line);
        f.place = repository_place{*path, line_of_place(line.place)};
        f.blamed = shown.blame_lines[i].described;
        f.sass = line.sass;
        at_source.push_back(std::move(f));
      }
      finding f = from_check(result, check, finding_kind::expectation);
      f.place = place_of(expectation_source(result, shown.checks[c]), paths);
      at_yaml.push_back(std::move(f));
    }
    const bool wrong_output = result.verified && !*result.verified;
    if (!any_check && (result.status == case_status::error || result.status == case_status::failed)) {
      finding f;
      f.instance = result.instance;
      f.verdict = check_verdict::fail;
      f.message =
          result.instance + ": " +
          (wrong_output ? "wrong output: " + result.verification_message
                        : (result.status == case_status::error ? "error: " : "") + result.status_reason);
      f.place = place_of(result.source ? &*result.source : nullptr, paths);
      at_yaml.push_back(std::move(f));
    }
  }
  at_source.insert(at_source.end(), std::make_move_iterator(at_yaml.begin()),
                   std::make_move_iterator(at_yaml.end()));
  for (auto& f : at_source)
    add_fingerprint(f);
  return at_source;
}

std::string finding_title(const finding& f) {
  if (f.metric.empty())
    return "counterguard: " + f.instance + " failed";
  const std::string metric = f.kernel.empty() ? f.metric : f.metric + " [" + f.kernel + "]";
  const char* what = f.verdict == check_verdict::regression    ? "regressed"
                     : f.verdict == check_verdict::improvement ? "improved beyond its baseline"
                     : f.verdict == check_verdict::missing     ? "was not measured"
                                                               : "failed its expectation";
  return fmt::format("counterguard: {} {} in {}", metric, what, f.instance);
}

std::string finding_description(const finding& f) {
  if (f.metric.empty())
    return f.message;
  std::string text = fmt::format("{}: expected {}, measured {}", f.metric, f.expected,
                                 f.measured ? format_value(*f.measured) : std::string("nothing"));
  if (!f.blamed.empty())
    text += "\nsource line: " + f.blamed;
  if (!f.message.empty())
    text += "\n" + f.message;
  return text;
}

std::string finding_rule(const finding& f) {
  if (f.metric.empty())
    return "counterguard/case-failed";
  switch (f.verdict) {
    case check_verdict::regression:
      return "counterguard/regression";
    case check_verdict::improvement:
      return "counterguard/stale-baseline";
    case check_verdict::missing:
      return "counterguard/missing-metric";
    default:
      return "counterguard/expectation";
  }
}

}  // namespace counterguard
