// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <optional>
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
  // An alias's definition, an ncu launch__ / device__attribute_ name's, or a definition for a raw CUPTI name
  // (class guessed from the name: durations, DRAM, cache hit rates, throughputs, hardware bank conflicts and
  // occupancy are noisy; counts are exact). Throws internal_error for a name that is neither (suites are
  // validated when they load).
  [[nodiscard]] metric_definition resolve(const std::string& name) const;
  // The same, or nothing for a name that is neither an alias nor shaped like a raw CUPTI name.
  [[nodiscard]] std::optional<metric_definition> try_resolve(const std::string& name) const;
  // Whether a case may name it: an alias, an ncu launch__ / device__attribute_ name counterguard reports
  // (metrics/ncu_launch_metrics.hpp), or a name shaped like a raw CUPTI metric.
  [[nodiscard]] bool knows(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> alias_names() const;
  // What is wrong with a name it does not know: "unknown metric 'x'", or for one of ncu's launch__ names
  // counterguard does not report, that and why.
  [[nodiscard]] static std::string unknown_metric_problem(const std::string& name);
  // Up to `count` aliases closest to `name` (edit distance), for "did you mean" messages.
  [[nodiscard]] std::vector<std::string> closest_aliases(const std::string& name,
                                                         std::size_t count = 3) const;

 private:
  std::map<std::string, metric_definition> m_aliases;
};

}  // namespace counterguard
