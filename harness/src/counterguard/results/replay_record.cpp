// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/replay_record.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "counterguard/core/field_path.hpp"
#include "counterguard/core/json_reader.hpp"

namespace counterguard {

using nlohmann::json;

json replay_record_to_json(const replay_record& replay) {
  json launches = json::array();
  for (const auto& launch : replay.launches) {
    json entry = json::object();
    entry["instance"] = launch.instance;
    entry["kernel"] = launch.kernel;
    entry["passes"] = launch.passes;
    entry["runs"] = launch.runs;
    entry["setup_milliseconds"] = launch.setup_milliseconds;
    entry["replay_milliseconds"] = launch.replay_milliseconds;
    entry["restore_milliseconds"] =
        launch.restore_milliseconds ? json(*launch.restore_milliseconds) : json(nullptr);
    entry["device_bytes_in_use"] = launch.device_bytes_in_use;
    launches.push_back(std::move(entry));
  }
  json out = json::object();
  out["requested"] = replay.requested;
  out["mode"] = replay.mode;
  out["decision"] = replay.decision;
  out["run_seconds"] = replay.run_seconds;
  out["launches"] = std::move(launches);
  return out;
}

replay_record read_replay_record(const json_reader& in, const json& value, const std::string& path) {
  in.require_object(value, path);
  replay_record replay;
  replay.requested = in.string(value, path, "requested");
  replay.mode = in.string(value, path, "mode");
  replay.decision = in.string(value, path, "decision");
  const json& seconds = in.array(value, path, "run_seconds");
  for (std::size_t i = 0; i < seconds.size(); ++i)
    replay.run_seconds.push_back(in.number_or_nan(seconds[i], index_at(field_at(path, "run_seconds"), i)));
  const json& launches = in.array(value, path, "launches");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const std::string field = index_at(field_at(path, "launches"), i);
    in.require_object(launches[i], field);
    replay_launch_time launch;
    launch.instance = in.string(launches[i], field, "instance");
    launch.kernel = in.string(launches[i], field, "kernel");
    launch.passes = static_cast<int>(in.integer(launches[i], field, "passes", 0, 1000000));
    launch.runs = static_cast<int>(in.integer(launches[i], field, "runs", 0, 1000000));
    launch.setup_milliseconds = in.number_or_nan(in.member(launches[i], field, "setup_milliseconds"),
                                                 field_at(field, "setup_milliseconds"));
    launch.replay_milliseconds = in.number_or_nan(in.member(launches[i], field, "replay_milliseconds"),
                                                  field_at(field, "replay_milliseconds"));
    const json& restore = in.member(launches[i], field, "restore_milliseconds");
    if (!restore.is_null())
      launch.restore_milliseconds = in.number_or_nan(restore, field_at(field, "restore_milliseconds"));
    launch.device_bytes_in_use =
        static_cast<std::uint64_t>(in.integer(launches[i], field, "device_bytes_in_use", 0, INT64_MAX));
    replay.launches.push_back(std::move(launch));
  }
  return replay;
}

}  // namespace counterguard
