// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/reporters/findings.hpp"

namespace counterguard {

// The formats of `--annotations FORMAT FILE`: the run's findings placed on source and suite lines.
enum class finding_format {
  github,               // workflow commands (::error file=...,line=...::): annotations on the pull request
  gitlab_code_quality,  // GitLab's Code Quality report: findings in the merge request's diff
  sarif,                // SARIF 2.1.0: GitHub code scanning and other SARIF readers
};

// "github", "gitlab-code-quality", "sarif".
[[nodiscard]] const char* finding_format_name(finding_format format);
[[nodiscard]] std::optional<finding_format> parse_finding_format(const std::string& name);
[[nodiscard]] std::vector<std::string> finding_format_names();

struct finding_report_options {
  std::size_t annotation_limit = 10;  // github: annotations before the summary one (0: no limit)
  std::string full_report;            // github: where the findings not annotated are listed
  std::string version;                // sarif: counterguard's version
};

[[nodiscard]] std::string render_finding_report(finding_format format, const std::vector<finding>& findings,
                                                const finding_report_options& options);

}  // namespace counterguard
