// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/reporters/findings.hpp"

namespace counterguard {

// SARIF 2.1.0 (OASIS), as GitHub code scanning uploads it (github/codeql-action/upload-sarif): one run of
// the tool "counterguard" (`version`), one rule per finding rule, one result per finding that has a place
// (level "error"; "note" for an improvement that fails only under --strict), its location relative to the
// repository root (uriBaseId %SRCROOT%) and its fingerprint under partialFingerprints.
[[nodiscard]] std::string render_sarif_report(const std::vector<finding>& findings,
                                              const std::string& version);

}  // namespace counterguard
