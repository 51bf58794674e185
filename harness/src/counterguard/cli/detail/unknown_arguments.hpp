// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace counterguard::detail {

// After a failed parse of `app`: the first argument no command took, named with the closest valid ones, as
//   unknown command 'statc'; did you mean 'static'?
//   unknown option '--jsn' of 'counterguard static'; did you mean '--json'?
// Nothing when every argument was taken (the parse failed for another reason: a missing value, a bad number),
// which CLI11's own message then explains.
[[nodiscard]] std::optional<std::string> describe_unknown_argument(const CLI::App& app);

}  // namespace counterguard::detail
