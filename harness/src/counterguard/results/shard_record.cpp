// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/shard_record.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "counterguard/core/json_reader.hpp"

namespace counterguard {

nlohmann::json shard_record_to_json(const shard_record& shard) {
  return nlohmann::json{{"index", shard.index},
                        {"count", shard.count},
                        {"instances", shard.total_instances},
                        {"plan", shard.plan},
                        {"positions", shard.positions}};
}

shard_record read_shard_record(const json_reader& in, const nlohmann::json& value, const std::string& path) {
  constexpr std::int64_t largest = std::numeric_limits<int>::max();
  shard_record shard;
  in.require_object(value, path);
  shard.count = static_cast<int>(in.integer(value, path, "count", 1, largest));
  shard.index = static_cast<int>(in.integer(value, path, "index", 1, shard.count));
  shard.total_instances = static_cast<std::size_t>(in.integer(value, path, "instances", 0, largest));
  shard.plan = in.string(value, path, "plan");
  const nlohmann::json& positions = in.array(value, path, "positions");
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto& position = positions[i];
    if (!position.is_number_unsigned() || position.get<std::size_t>() >= shard.total_instances) {
      in.fail(
          index_at(field_at(path, "positions"), i),
          "expected a position below " + std::to_string(shard.total_instances) + ", got " + position.dump());
    }
    shard.positions.push_back(position.get<std::size_t>());
  }
  return shard;
}

}  // namespace counterguard
