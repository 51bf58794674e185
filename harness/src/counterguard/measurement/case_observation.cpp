// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/case_observation.hpp"

#include <nlohmann/json.hpp>

namespace counterguard {

nlohmann::json observation_outcome_to_json(const case_observation& observation) {
  return nlohmann::json{
      {"metrics", observation.metrics},
      {"kernel_metrics", observation.kernel_metrics},
      {"verified", observation.verified ? nlohmann::json(*observation.verified) : nlohmann::json(nullptr)},
      {"verification_message", observation.verification_message},
      {"unverified", observation.unverified}};
}

void read_observation_outcome(const json_reader& reader, const nlohmann::json& metadata,
                              const std::string& field, case_observation& observation) {
  reader.require_object(metadata, field);
  if (reader.optional_member(metadata, field, "metrics") != nullptr)
    observation.metrics = reader.strings(metadata, field, "metrics");
  if (reader.optional_member(metadata, field, "kernel_metrics") != nullptr) {
    const std::string kernel_field = field_at(field, "kernel_metrics");
    for (const auto& [name, value] : reader.object(metadata, field, "kernel_metrics").items())
      observation.kernel_metrics[name] = reader.number_or_nan(value, field_at(kernel_field, name));
  }
  if (const nlohmann::json* verified = reader.optional_member(metadata, field, "verified")) {
    if (verified->is_boolean()) {
      observation.verified = verified->get<bool>();
    } else if (!verified->is_null()) {
      reader.fail(field_at(field, "verified"),
                  "expected true, false or null, got " + describe_json(*verified));
    }
  }
  if (reader.optional_member(metadata, field, "verification_message") != nullptr)
    observation.verification_message = reader.string(metadata, field, "verification_message");
  if (reader.optional_member(metadata, field, "unverified") != nullptr)
    observation.unverified = reader.boolean(metadata, field, "unverified");
}

}  // namespace counterguard
