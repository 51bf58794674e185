// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "counterguard/core/json_reader.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// One kernel's static resources as recordings store them, and back. Reading names the file (the reader's)
// and `field` in every error.
[[nodiscard]] nlohmann::json kernel_resources_to_json(const kernel_resources& kernel);
[[nodiscard]] kernel_resources kernel_resources_from_json(const json_reader& reader,
                                                          const nlohmann::json& item,
                                                          const std::string& field);

}  // namespace counterguard
