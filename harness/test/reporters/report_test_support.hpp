// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "counterguard/results/run_results.hpp"

namespace counterguard::test {

inline check_outcome make_check(const std::string& metric, const std::string& expected, double measured,
                                check_verdict verdict, bool failing, std::optional<double> baseline = {}) {
  check_outcome c;
  c.metric = metric;
  c.origin = baseline ? "baseline" : "expectation";
  c.expected = expected;
  c.measured = measured;
  c.baseline = baseline;
  c.verdict = verdict;
  c.failing = failing;
  c.message = metric + " says " + to_string(verdict);
  return c;
}

// Four cases: one passing, one failing (expectation + regression), one skipped, one with an error.
inline run_results sample_run() {
  run_results results;
  results.metadata.device.name = "NVIDIA H200";
  results.metadata.gpu_key = "GH100-132sm-cuda13";
  case_result passing;
  passing.instance = "transpose/smem?pad=1,n=2048";
  passing.suite = "transpose";
  passing.verified = true;
  passing.seconds = 0.5;
  passing.checks.push_back(make_check("shared_store_bank_conflicts", "== 0", 0, check_verdict::pass, false));
  passing.checks.push_back(
      make_check("global_load_sectors", "4194304 (exact)", 4194304, check_verdict::new_metric, false));
  results.cases.push_back(passing);

  case_result failing;
  failing.instance = "transpose/naive?n=2048";
  failing.suite = "transpose";
  failing.status = case_status::failed;
  failing.verified = true;
  failing.seconds = 0.25;
  failing.checks.push_back(
      make_check("shared_store_bank_conflicts", "== 0", 4063232, check_verdict::fail, true));
  failing.checks.push_back(
      make_check("duration_ns", "1000 in [900, 1100]", 1500, check_verdict::regression, true, 1000.0));
  results.cases.push_back(failing);

  case_result skipped;
  skipped.instance = "dsmem/cluster";
  skipped.suite = "dsmem";
  skipped.status = case_status::skipped;
  skipped.status_reason = "needs clusters & sm_90";
  results.cases.push_back(skipped);

  case_result broken;
  broken.instance = "atomics/hist<\"x\">";
  broken.suite = "atomics";
  broken.status = case_status::error;
  broken.status_reason = "illegal address <at 0x10>";
  results.cases.push_back(broken);
  return results;
}

// sample_run() with the failing case blamed to a source line (run --blame).
inline run_results sample_run_with_blame() {
  run_results results = sample_run();
  case_blame blame;
  blame.regressed = {"shared_store_bank_conflicts"};
  blame.metrics = {"shared_excess_wavefronts"};
  blame.against_baseline = true;
  blame.lines.push_back({"counterguard::kernels::transpose::naive", "transpose.cu:34", "STS [R7], R8",
                         "shared_excess_wavefronts", 0U, 4063232U});
  results.cases[1].blame = blame;
  return results;
}

// A run without a GPU: one case whose static check passed, five counter expectations left unchecked.
inline run_results static_only_run() {
  run_results results = sample_run();
  results.cases.resize(1);
  results.cases[0].checks.resize(1);
  results.cases[0].counter_checks_not_run = 5;
  results.metadata.counters_not_run = "no GPU";
  return results;
}

}  // namespace counterguard::test
