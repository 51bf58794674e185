// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// A per-instruction counter of CUPTI's SASS metrics API under the name blame shows ("shared_wavefronts") and
// the name the API reports for the chip ("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared").
struct sass_metric_choice {
  std::string friendly;
  std::string cupti;
};

// The friendly names blame collects by default, in display order, each with the CUPTI names that may carry
// it (the first one the chip reports wins).
struct sass_metric_candidates {
  std::string friendly;
  std::vector<std::string> cupti;
};
[[nodiscard]] const std::vector<sass_metric_candidates>& blame_sass_metrics();

// A per-instruction value blame derives from two collected ones: the part of a count above its ideal
// (bank conflicts as shared_excess_wavefronts, uncoalesced access as global_excess_sectors, predicated-off
// lanes as predicated_off_thread_instructions).
struct derived_sass_metric {
  std::string friendly;
  std::string total;
  std::string ideal;
};
[[nodiscard]] const std::vector<derived_sass_metric>& derived_sass_metrics();

// "shared_store_wavefronts" -> "shared store wavefronts".
[[nodiscard]] std::string sass_metric_display_name(const std::string& friendly);

// The metrics for `wanted` (friendly names, or CUPTI SASS metric names used as they are) among `available`,
// the names the SASS metrics API reports for `chip`. A wanted name the chip lacks is an input_error listing
// every available name. With `wanted` empty: every default metric the chip has; `skipped` gets the
// friendly names it lacks.
[[nodiscard]] std::vector<sass_metric_choice> choose_sass_metrics(
    const std::vector<std::string>& wanted, const std::vector<std::string>& available,
    const std::string& chip, std::vector<std::string>* skipped = nullptr);

}  // namespace counterguard
