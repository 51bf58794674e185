// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/github_annotations.hpp"

#include <fmt/format.h>

namespace counterguard {

std::string escape_command_data(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

std::string escape_command_property(const std::string& text) {
  std::string out;
  for (const char c : escape_command_data(text)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

namespace {

std::string command_of(const finding& f) {
  std::string properties;
  if (f.place)
    properties = fmt::format("file={},line={},", escape_command_property(f.place->path), f.place->line);
  properties += "title=" + escape_command_property(finding_title(f));
  return fmt::format("::error {}::{}\n", properties, escape_command_data(finding_description(f)));
}

std::string log_line_of(const finding& f) {
  const std::string where = f.place ? fmt::format("{}:{}: ", f.place->path, f.place->line) : "";
  return fmt::format("counterguard: not annotated: {}{}\n", where, finding_title(f));
}

}  // namespace

std::string render_github_annotations(const std::vector<finding>& findings, std::size_t limit,
                                      const std::string& full_report) {
  const bool capped = limit > 0 && findings.size() > limit;
  const std::size_t annotated = capped ? limit - 1 : findings.size();
  std::string out;
  for (std::size_t i = 0; i < annotated; ++i)
    out += command_of(findings[i]);
  if (!capped)
    return out;
  const std::size_t rest = findings.size() - annotated;
  const std::string where = full_report.empty() ? "the job's summary" : full_report;
  out += fmt::format("::error title={}::{}\n",
                     escape_command_property(fmt::format("counterguard: {} more findings", rest)),
                     escape_command_data(
                         fmt::format("{} of {} findings are not annotated (GitHub shows {} error annotations "
                                     "per step); every one is listed in the log below and in {}",
                                     rest, findings.size(), limit, where)));
  for (std::size_t i = annotated; i < findings.size(); ++i)
    out += log_line_of(findings[i]);
  return out;
}

}  // namespace counterguard
