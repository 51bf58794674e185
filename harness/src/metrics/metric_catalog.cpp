#include "counterguard/metrics/metric_catalog.hpp"

#include <algorithm>
#include <regex>
#include <stdexcept>

namespace counterguard {
namespace {

// Raw names whose values move between identical runs (gpu-facts.md section 5).
bool is_noisy_raw_name(const std::string& name) {
  static const std::regex noisy(
      R"(^(gpu__time|dram__|lts__t_sector.*hit_rate|l1tex__t_sector.*hit_rate|l1tex__data_bank_conflicts|)"
      R"(sm__warps_active|.*__cycles|.*__throughput|.*pct_of_peak|.*per_second))");
  return std::regex_search(name, noisy);
}

}  // namespace

void metric_catalog::add(metric_definition definition) {
  const std::string name = definition.name;
  if (!m_aliases.emplace(name, std::move(definition)).second) {
    throw std::logic_error("metric alias '" + name + "' is defined twice");
  }
}

const metric_definition* metric_catalog::find_alias(const std::string& name) const {
  const auto found = m_aliases.find(name);
  return found == m_aliases.end() ? nullptr : &found->second;
}

bool metric_catalog::looks_like_raw_cupti_name(const std::string& name) {
  // <unit>__<counter>.<rollup>[.<submetric>]: "smsp__inst_executed.sum", "l1tex__..._ld.ratio".
  static const std::regex shape(R"(^[a-z0-9]+__[a-z0-9_]+(\.[a-z0-9_]+){1,2}$)");
  return std::regex_match(name, shape);
}

metric_definition metric_catalog::resolve(const std::string& name) const {
  if (const metric_definition* alias = find_alias(name))
    return *alias;
  if (!looks_like_raw_cupti_name(name))
    throw std::out_of_range("unknown metric '" + name + "'");
  metric_definition raw;
  raw.name = name;
  raw.cls = is_noisy_raw_name(name) ? metric_class::noisy : metric_class::exact;
  raw.direction = metric_direction::lower_is_better;
  raw.source = metric_source::cupti;
  raw.formula = name;
  raw.raw_inputs = {name};
  raw.summable = name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0;
  raw.description = "raw CUPTI metric";
  return raw;
}

std::vector<std::string> metric_catalog::alias_names() const {
  std::vector<std::string> names;
  names.reserve(m_aliases.size());
  for (const auto& entry : m_aliases)
    names.push_back(entry.first);
  return names;
}

std::vector<std::string> metric_catalog::closest_aliases(const std::string& name, std::size_t count) const {
  return closest_names(name, alias_names(), count);
}

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

}  // namespace counterguard
