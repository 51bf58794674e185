// SPDX-License-Identifier: Apache-2.0
#include "counterguard/blame/line_profile.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

// A profile whose lines are the instructions' own lines (per-line baselines of schema 1, and their cases that
// a later refresh did not measure again).
constexpr const char* innermost_key = "innermost_line";

bool kept(const std::vector<std::string>& metrics, const std::string& metric) {
  return metrics.empty() || std::find(metrics.begin(), metrics.end(), metric) != metrics.end();
}

// "transpose.cu:34" -> position {transpose.cu, 34}; "?" -> none.
std::optional<source_position> position_of(const std::string& place) {
  const auto colon = place.rfind(':');
  if (place == "?" || colon == std::string::npos)
    return std::nullopt;
  return source_position{place.substr(0, colon), std::stoi(place.substr(colon + 1)), 0};
}

bool valid_place(const std::string& place) {
  if (place == "?")
    return true;
  const auto colon = place.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == place.size() || colon + 10 < place.size())
    return false;
  return std::all_of(place.begin() + static_cast<std::ptrdiff_t>(colon) + 1, place.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

line_profile make_line_profile(const std::vector<kernel_blame>& blames,
                               const std::vector<std::string>& metrics) {
  line_profile profile;
  if (!blames.empty())
    profile.attribution = blames.front().attribution;
  for (const auto& blame : blames) {
    line_profile_function function{blame.mangled, blame.function, {}};
    for (const auto& line : blame.lines) {
      line_profile_line kept_line{line_place(line.position), {}, {}, line.memory_opcodes};
      for (const auto& [metric, value] : line.values) {
        if (value != 0 && kept(metrics, metric))
          kept_line.values[metric] = value;
      }
      if (kept_line.values.empty())
        continue;
      std::set<std::string> chains;
      for (const std::size_t i : line.instructions) {
        const blamed_instruction& instruction = blame.instructions[i];
        const std::vector<std::string> chain = inline_chain(instruction);
        const bool carries =
            std::any_of(instruction.values.begin(), instruction.values.end(),
                        [&](const auto& v) { return v.second != 0 && kept(metrics, v.first); });
        if (carries && chain.size() > 1)
          chains.insert(chain_text(chain));
      }
      kept_line.chains.assign(chains.begin(), chains.end());
      function.lines.push_back(std::move(kept_line));
    }
    profile.functions.push_back(std::move(function));
  }
  return profile;
}

std::vector<kernel_blame> to_kernel_blames(const line_profile& profile) {
  std::vector<kernel_blame> blames;
  for (const auto& function : profile.functions) {
    kernel_blame blame;
    blame.function = function.function;
    blame.mangled = function.mangled;
    blame.attribution = profile.attribution;
    for (const auto& line : function.lines) {
      blamed_line out;
      out.position = position_of(line.place);
      out.values = line.values;
      out.memory_opcodes = line.memory_opcodes;
      out.recorded_chains = line.chains;
      blame.lines.push_back(std::move(out));
    }
    blames.push_back(std::move(blame));
  }
  return blames;
}

nlohmann::json to_json(const line_profile& profile) {
  nlohmann::json functions = nlohmann::json::array();
  for (const auto& function : profile.functions) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& line : function.lines) {
      nlohmann::json out = {{"place", line.place}, {"values", line.values}};
      if (!line.chains.empty())
        out["chains"] = line.chains;
      if (line.memory_opcodes)
        out["memory_opcodes"] = *line.memory_opcodes;
      lines.push_back(std::move(out));
    }
    functions.push_back({{"mangled", function.mangled}, {"function", function.function}, {"lines", lines}});
  }
  nlohmann::json out = {{"functions", functions}};
  if (!profile.attribution.external_dirs.empty())
    out["external_dirs"] = profile.attribution.external_dirs;
  if (profile.attribution.innermost)
    out["keyed_by"] = innermost_key;
  return out;
}

line_profile line_profile_from_json(const json_reader& reader, const nlohmann::json& json,
                                    const std::string& path, bool innermost_lines) {
  line_profile profile;
  reader.require_object(json, path);
  profile.attribution.innermost = innermost_lines;
  if (reader.optional_member(json, path, "keyed_by") != nullptr) {
    const std::string key = reader.string(json, path, "keyed_by");
    if (key != innermost_key)
      reader.fail(field_at(path, "keyed_by"), "is '" + key + "'",
                  std::string("'") + innermost_key + "' or no keyed_by (the user's lines)");
    profile.attribution.innermost = true;
  }
  if (reader.optional_member(json, path, "external_dirs") != nullptr)
    profile.attribution.external_dirs = reader.strings(json, path, "external_dirs");
  const nlohmann::json& functions = reader.array(json, path, "functions");
  for (std::size_t f = 0; f < functions.size(); ++f) {
    const std::string at = index_at(field_at(path, "functions"), f);
    reader.require_object(functions[f], at);
    line_profile_function function;
    function.mangled = reader.string(functions[f], at, "mangled");
    function.function = reader.string(functions[f], at, "function");
    const nlohmann::json& lines = reader.array(functions[f], at, "lines");
    for (std::size_t l = 0; l < lines.size(); ++l) {
      const std::string line_at = index_at(field_at(at, "lines"), l);
      reader.require_object(lines[l], line_at);
      line_profile_line line;
      line.place = reader.string(lines[l], line_at, "place");
      if (!valid_place(line.place))
        reader.fail(field_at(line_at, "place"), "is '" + line.place + "'", "FILE:LINE or ?");
      const nlohmann::json& values = reader.object(lines[l], line_at, "values");
      for (const auto& [metric, value] : values.items()) {
        line.values[metric] = static_cast<std::uint64_t>(
            reader.integer(values, field_at(line_at, "values"), metric, 0, INT64_MAX));
      }
      if (reader.optional_member(lines[l], line_at, "chains") != nullptr)
        line.chains = reader.strings(lines[l], line_at, "chains");
      if (reader.optional_member(lines[l], line_at, "memory_opcodes") != nullptr) {
        std::vector<std::string> opcodes = reader.strings(lines[l], line_at, "memory_opcodes");
        std::sort(opcodes.begin(), opcodes.end());
        opcodes.erase(std::unique(opcodes.begin(), opcodes.end()), opcodes.end());
        line.memory_opcodes = std::move(opcodes);
      }
      function.lines.push_back(std::move(line));
    }
    profile.functions.push_back(std::move(function));
  }
  return profile;
}

}  // namespace counterguard
