// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace counterguard {

class json_reader;

// Which part of a larger run a results file holds (`run --shard I/N`, `evaluate --shard I/N`), so that
// `counterguard merge` can check that the shards fit together and put the cases back in suite order.
struct shard_record {
  int index = 1;                       // 1-based: 1..count
  int count = 1;                       // N
  std::size_t total_instances = 0;     // case instances in all N shards together
  std::string plan;                    // digest of the whole assignment; equal in every shard of one run
  std::vector<std::size_t> positions;  // per case of this file: its position in the unsharded run (0-based)
};

[[nodiscard]] nlohmann::json shard_record_to_json(const shard_record& shard);
// Reads metadata.shard; errors name the file and the field (input_error).
[[nodiscard]] shard_record read_shard_record(const json_reader& in, const nlohmann::json& value,
                                             const std::string& path);

}  // namespace counterguard
