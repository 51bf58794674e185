// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_definition.hpp"

namespace counterguard {

// ncu's names for what a launch and its device are (launch__*, device__attribute_*), accepted wherever
// metrics are named: ncu computes them itself from the launch, the function's attributes and the device's,
// never from CUPTI counters, and so does counterguard (they are "launch" metrics, never sent to CUPTI).
// validation/launch_code_checks.sh compares each with ncu on the same launches.

// ncu's launch__ metrics counterguard reports, with ncu's definitions.
[[nodiscard]] const std::vector<std::string>& ncu_launch_metric_names();
// ncu's device__attribute_ metrics that are CUDA device attributes (the name without the prefix and its
// CUdevice_attribute value), and the few ncu derives from them.
struct ncu_device_attribute {
  const char* name;
  int cu_attribute;  // CU_DEVICE_ATTRIBUTE_*; negative: derived (see read_ncu_device_attributes)
};
[[nodiscard]] const std::vector<ncu_device_attribute>& ncu_device_attributes();

inline constexpr const char* ncu_launch_prefix = "launch__";
inline constexpr const char* ncu_device_attribute_prefix = "device__attribute_";

// The definition of an ncu launch or device attribute name, or nothing for another name (a launch__ or
// device__attribute_ name counterguard does not report among them).
[[nodiscard]] std::optional<metric_definition> ncu_launch_metric(const std::string& name);
// Why counterguard does not report `name`, one of ncu's launch__ names it knows and refuses; nothing for
// other names.
[[nodiscard]] std::optional<std::string> ncu_launch_refusal(const std::string& name);
// Whether `name` is in ncu's launch__ or device__attribute_ families (reported or not).
[[nodiscard]] bool is_ncu_launch_family(const std::string& name);
// Every name ncu_launch_metric accepts, for "did you mean" messages.
[[nodiscard]] std::vector<std::string> ncu_launch_family_names();

// The device's attributes by ncu's name (without the prefix), read through `attribute`
// (cuDeviceGetAttribute of a CU_DEVICE_ATTRIBUTE_* value; nothing where the driver does not answer), with
// the device's total memory and ordinal.
[[nodiscard]] std::map<std::string, double> read_ncu_device_attributes(
    const std::function<std::optional<std::int64_t>(int)>& attribute,
    std::optional<std::uint64_t> total_memory, int ordinal);

}  // namespace counterguard
