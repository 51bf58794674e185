// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/finding_reports.hpp"

#include "counterguard/reporters/github_annotations.hpp"
#include "counterguard/reporters/gitlab_code_quality.hpp"
#include "counterguard/reporters/sarif_report.hpp"

namespace counterguard {
namespace {

constexpr finding_format all_formats[] = {finding_format::github, finding_format::gitlab_code_quality,
                                          finding_format::sarif};

}  // namespace

const char* finding_format_name(finding_format format) {
  switch (format) {
    case finding_format::github:
      return "github";
    case finding_format::gitlab_code_quality:
      return "gitlab-code-quality";
    case finding_format::sarif:
      return "sarif";
  }
  return "";
}

std::optional<finding_format> parse_finding_format(const std::string& name) {
  for (const finding_format format : all_formats) {
    if (name == finding_format_name(format))
      return format;
  }
  return std::nullopt;
}

std::vector<std::string> finding_format_names() {
  std::vector<std::string> names;
  for (const finding_format format : all_formats)
    names.emplace_back(finding_format_name(format));
  return names;
}

std::string render_finding_report(finding_format format, const std::vector<finding>& findings,
                                  const finding_report_options& options) {
  switch (format) {
    case finding_format::github:
      return render_github_annotations(findings, options.annotation_limit, options.full_report);
    case finding_format::gitlab_code_quality:
      return render_gitlab_code_quality(findings);
    case finding_format::sarif:
      return render_sarif_report(findings, options.version);
  }
  return "";
}

}  // namespace counterguard
