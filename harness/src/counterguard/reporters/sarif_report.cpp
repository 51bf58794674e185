// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/sarif_report.hpp"

#include <map>
#include <nlohmann/json.hpp>

namespace counterguard {
namespace {

const std::map<std::string, std::string>& rule_descriptions() {
  static const std::map<std::string, std::string> descriptions = {
      {"counterguard/expectation", "A hardware counter violates the expectation its suite states"},
      {"counterguard/regression", "A hardware counter is worse than its per-GPU baseline beyond tolerance"},
      {"counterguard/stale-baseline",
       "A hardware counter is better than its baseline (fails under --strict)"},
      {"counterguard/missing-metric", "A metric the suite checks could not be measured"},
      {"counterguard/case-failed", "A case failed without a failing check (wrong output, error)"},
  };
  return descriptions;
}

}  // namespace

std::string render_sarif_report(const std::vector<finding>& findings, const std::string& version) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& [id, text] : rule_descriptions())
    rules.push_back({{"id", id}, {"shortDescription", {{"text", text}}}});
  nlohmann::json results = nlohmann::json::array();
  for (const auto& f : findings) {
    if (!f.place)
      continue;
    results.push_back(
        {{"ruleId", finding_rule(f)},
         {"level", f.verdict == check_verdict::improvement ? "note" : "error"},
         {"message", {{"text", finding_title(f) + "\n" + finding_description(f)}}},
         {"locations", nlohmann::json::array(
                           {{{"physicalLocation",
                              {{"artifactLocation", {{"uri", f.place->path}, {"uriBaseId", "%SRCROOT%"}}},
                               {"region", {{"startLine", f.place->line}}}}}}})},
         {"partialFingerprints", {{"counterguardFinding/v1", f.fingerprint}}}});
  }
  nlohmann::json driver = {{"name", "counterguard"}, {"rules", rules}};
  if (!version.empty())
    driver["version"] = version;
  const nlohmann::json report = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", nlohmann::json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace counterguard
