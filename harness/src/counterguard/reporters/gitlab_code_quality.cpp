// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/gitlab_code_quality.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace counterguard {
namespace {

const char* severity_of(const finding& f) {
  switch (f.verdict) {
    case check_verdict::missing:
      return "minor";
    case check_verdict::improvement:
      return "info";
    default:
      return "major";
  }
}

// One line: GitLab shows the description as a sentence in the widget.
std::string description_on_one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ';');
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == ';')
      out += ' ';
  }
  return out;
}

}  // namespace

std::string render_gitlab_code_quality(const std::vector<finding>& findings) {
  nlohmann::json report = nlohmann::json::array();
  for (const auto& f : findings) {
    if (!f.place)
      continue;
    report.push_back(
        {{"description", description_on_one_line(finding_title(f) + "\n" + finding_description(f))},
         {"check_name", finding_rule(f)},
         {"fingerprint", f.fingerprint},
         {"severity", severity_of(f)},
         {"location", {{"path", f.place->path}, {"lines", {{"begin", f.place->line}}}}}});
  }
  return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace counterguard
