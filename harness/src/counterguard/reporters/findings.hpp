// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/checker/judged_run.hpp"
#include "counterguard/reporters/repository_paths.hpp"

namespace counterguard {

// A place in the repository: a path relative to its root ('/'-separated) and a 1-based line.
struct repository_place {
  std::string path;
  int line = 0;
};

// Where a finding points a reviewer.
enum class finding_kind {
  source_line,  // the blamed line of the kernel's source (.cu, a Triton .py) the regressed counter comes from
  expectation,  // the suite's YAML line that states the expectation (or the case, for a baseline check)
};

// One failing check of one case at one place, as the annotation, Code Quality and SARIF reports show it
// (reporters/github_annotations.hpp, gitlab_code_quality.hpp, sarif_report.hpp). Computed once from the
// results by collect_findings.
struct finding {
  finding_kind kind = finding_kind::expectation;
  std::string instance;  // "transpose/smem_unpadded?n=2048"
  std::string metric;    // the check's metric; empty for a case that failed without one (wrong output)
  std::string kernel;    // the check's kernel; empty: the case total
  check_verdict verdict = check_verdict::fail;
  std::string expected;            // "== 4063232", "32 (±0)"
  std::optional<double> measured;  // absent when the metric could not be measured
  std::string message;             // the check's own line ("... expected == 0, measured 4063232 (...)")
  std::optional<repository_place> place;  // absent: no file of the repository to point at
  // A source-line finding's blamed line: its counter before -> after and its instruction
  // ("transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -> 4063232").
  std::string blamed;
  std::string sass;  // the instruction ("STS [R7], R8")
  // The same across runs while the finding stays, unique within a run (Code Quality tells new findings from
  // old ones by it): instance, metric, kernel, kind and place, hashed (SHA-256, hex).
  std::string fingerprint;
};

// The findings of `results`: for each failing check (as the run was judged; the case's shown checks) one
// finding at each source line its case's blame names for it (run --blame: the regressed metric's lines),
// then one at the YAML line of its expectation (for a baseline check, the case's expectation of the same
// metric, else the case's definition); a case that failed without a failing check (a wrong output, an
// error) one at its definition. Source-line findings come first, in the results' order. A blamed line whose
// file is not in the repository gives none; a suite-line finding whose file is not keeps no place.
[[nodiscard]] std::vector<finding> collect_findings(const judged_run& run, const repository_paths& paths);

// "counterguard: shared_store_bank_conflicts regressed in transpose/smem_unpadded?n=2048": the headline
// every format gives a finding.
[[nodiscard]] std::string finding_title(const finding& f);

// The finding's text: the headline's facts (expected, measured, the blamed instruction and its counter) on
// one line each, without the place (the format carries it).
[[nodiscard]] std::string finding_description(const finding& f);

// "counterguard/regression", "counterguard/expectation", ...: a rule name per verdict (Code Quality's
// check_name, SARIF's ruleId).
[[nodiscard]] std::string finding_rule(const finding& f);

}  // namespace counterguard
