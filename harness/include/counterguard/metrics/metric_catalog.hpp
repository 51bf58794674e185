#pragma once

#include <map>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_definition.hpp"

namespace counterguard {

// The named aliases counterguard documents (docs/metrics.md) and the rules for raw CUPTI names.
class metric_catalog {
 public:
  // The built-in aliases: bank conflicts (exact instrumented and noisy hardware), sectors per request,
  // local and spill bytes, registers, occupancy, divergence, constant-cache requests, ...
  [[nodiscard]] static const metric_catalog& builtin();

  void add(metric_definition definition);

  // The alias, or nullptr.
  [[nodiscard]] const metric_definition* find_alias(const std::string& name) const;
  // True for names shaped like CUPTI metrics: "<unit>__<counter>.<rollup>[.<submetric>]".
  [[nodiscard]] static bool looks_like_raw_cupti_name(const std::string& name);
  // An alias's definition, or a definition for a raw CUPTI name (class guessed from the name: durations,
  // DRAM, cache hit rates, throughputs, hardware bank conflicts and occupancy are noisy; counts are exact).
  // Throws std::out_of_range for a name that is neither.
  [[nodiscard]] metric_definition resolve(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> alias_names() const;
  // Up to `count` aliases closest to `name` (edit distance), for "did you mean" messages.
  [[nodiscard]] std::vector<std::string> closest_aliases(const std::string& name,
                                                         std::size_t count = 3) const;

 private:
  std::map<std::string, metric_definition> m_aliases;
};

// Edit distance between two names, for suggestions.
[[nodiscard]] std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest `count` candidates to `name`, nearest first.
[[nodiscard]] std::vector<std::string> closest_names(const std::string& name,
                                                     const std::vector<std::string>& candidates,
                                                     std::size_t count);

}  // namespace counterguard
