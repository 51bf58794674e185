// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/case_seconds.hpp"

#include <nlohmann/json.hpp>

#include "counterguard/core/field_path.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/results/results_document.hpp"

namespace counterguard {

std::vector<recorded_seconds> read_case_seconds(const std::string& path) {
  const nlohmann::json document = read_results_document(path);
  const json_reader in(path);
  const nlohmann::json& cases = in.array(document, "", "cases");
  std::vector<recorded_seconds> recorded;
  recorded.reserve(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string field = index_at("cases", i);
    recorded.push_back({in.string(cases[i], field, "instance"),
                        in.number_or_nan(in.member(cases[i], field, "seconds"), field + ".seconds")});
  }
  return recorded;
}

std::vector<recorded_seconds> read_case_seconds(const std::vector<std::string>& paths) {
  std::vector<recorded_seconds> recorded;
  for (const auto& path : paths) {
    std::vector<recorded_seconds> file = read_case_seconds(path);
    recorded.insert(recorded.end(), file.begin(), file.end());
  }
  return recorded;
}

}  // namespace counterguard
