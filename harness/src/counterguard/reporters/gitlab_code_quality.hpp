// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/reporters/findings.hpp"

namespace counterguard {

// A GitLab Code Quality report (the `artifacts: reports: codequality:` format): a JSON array with one
// object per finding that has a place, {description, check_name, fingerprint, severity, location: {path,
// lines: {begin}}}; GitLab shows each in the merge request's diff and its widget. description is the
// finding's title and text on one line, check_name its rule, severity "major" for a violated expectation or
// a regression, "minor" for a metric not measured, "info" for an improvement that fails only under --strict.
// Findings without a place are left out: the format has none for them (the other reports list them).
[[nodiscard]] std::string render_gitlab_code_quality(const std::vector<finding>& findings);

}  // namespace counterguard
