// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_entry_refresh.hpp"
#include "counterguard/history/history_store.hpp"

namespace counterguard {

// The earlier values `baseline update --from-history N` pools into noisy bands (docs/baselines.md): the last
// `last_n` values `store` recorded for the refresh's GPU key, case instance, kernel key and metric (runs
// that did not measure the metric are skipped), oldest first. Runs whose content hash is in
// `own_content_hashes` (results_content_hash of this refresh's repetitions with the distinguisher they are
// recorded under) are left out, so a refresh that finds its own repetitions in the store already does not
// count them twice. The source shares ownership of `store`.
[[nodiscard]] earlier_values_source recorded_baseline_values(
    std::shared_ptr<const history_store> store, const std::string& gpu_key, std::size_t last_n,
    const std::vector<std::string>& own_content_hashes);

}  // namespace counterguard
