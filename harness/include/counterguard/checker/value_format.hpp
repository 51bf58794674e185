#pragma once

#include <string>

namespace counterguard {

// A metric value as reports and messages print it: the shortest text that reads back as the same double
// ("4063232", "4.5", "1e+20"); "nan" / "inf" / "-inf" for non-finite values.
[[nodiscard]] std::string format_value(double value);

}  // namespace counterguard
