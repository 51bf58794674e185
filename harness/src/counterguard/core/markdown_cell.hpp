// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// Text as it may stand in a Markdown table cell (or a code span in one): '|' escaped, line breaks as spaces,
// and a backtick, which would end the code span, as an apostrophe.
[[nodiscard]] std::string markdown_cell(const std::string& text);

}  // namespace counterguard
