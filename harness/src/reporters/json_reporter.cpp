#include "counterguard/reporters/json_reporter.hpp"

#include <cmath>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/reporters/run_summary.hpp"

namespace counterguard {

nlohmann::json make_json_report(const run_results& results, bool strict) {
  nlohmann::json report = results;
  const run_summary s = summarize(results, strict);
  report["summary"] = {{"cases", s.cases},
                       {"passed", s.passed},
                       {"failed", s.failed},
                       {"skipped", s.skipped},
                       {"errors", s.errors},
                       {"wrong_output", s.wrong_output},
                       {"checks",
                        {{"total", s.checks},
                         {"pass", s.check_pass},
                         {"fail", s.check_fail},
                         {"regression", s.check_regression},
                         {"improvement", s.check_improvement},
                         {"new_metric", s.check_new},
                         {"missing", s.check_missing},
                         {"failing", s.failing_checks}}},
                       {"strict", strict},
                       {"seconds", std::isfinite(s.seconds) ? s.seconds : 0.0},
                       {"exit_code", static_cast<int>(s.status)}};
  return report;
}

void write_json_report(const std::string& path, const run_results& results, bool strict) {
  write_file_atomically(
      path,
      make_json_report(results, strict).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace counterguard
