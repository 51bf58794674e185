// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/name_suggestions.hpp"

#include <algorithm>
#include <utility>

namespace counterguard {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0U : 1U)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& candidates,
                                       std::size_t count) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  scored.reserve(candidates.size());
  for (const auto& candidate : candidates)
    scored.emplace_back(edit_distance(name, candidate), candidate);
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> best;
  for (std::size_t i = 0; i < scored.size() && i < count; ++i)
    best.push_back(scored[i].second);
  return best;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names)
    text += (text.empty() ? "'" : ", '") + name + "'";
  return text;
}

std::string comma_list(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items)
    text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::vector<std::string> plausible;
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 2);
  for (const auto& candidate : candidates) {
    if (edit_distance(name, candidate) <= limit)
      plausible.push_back(candidate);
  }
  if (plausible.empty())
    return {};
  return "did you mean " + quoted_list(plausible) + "? ";
}

}  // namespace counterguard
