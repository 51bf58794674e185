#pragma once

#include <string>

namespace counterguard::detail {

// The shortest spelling that reads back as the same value: integers without decimals (4063232),
// other values without trailing zeros (0.5, 1e-05); "inf", "-inf" and "nan" for the rest.
[[nodiscard]] std::string number_text(double value);

}  // namespace counterguard::detail
