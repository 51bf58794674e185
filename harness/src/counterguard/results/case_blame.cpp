// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/case_blame.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "counterguard/core/json_reader.hpp"

namespace counterguard {

nlohmann::json case_blame_to_json(const case_blame& blame) {
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& line : blame.lines) {
    lines.push_back({{"function", line.function},
                     {"place", line.place},
                     {"chain", line.chain},
                     {"sass", line.sass},
                     {"metric", line.metric},
                     {"before", line.before ? nlohmann::json(*line.before) : nlohmann::json(nullptr)},
                     {"after", line.after},
                     {"opcodes_before", line.opcodes_before},
                     {"opcodes_after", line.opcodes_after}});
    if (!line.file.empty())
      lines.back()["file"] = line.file;
  }
  return {{"regressed", blame.regressed},
          {"metrics", blame.metrics},
          {"against_baseline", blame.against_baseline},
          {"lines", lines},
          {"note", blame.note}};
}

case_blame case_blame_from_json(const json_reader& in, const nlohmann::json& value, const std::string& path) {
  in.require_object(value, path);
  case_blame blame;
  blame.regressed = in.strings(value, path, "regressed");
  blame.metrics = in.strings(value, path, "metrics");
  blame.against_baseline = in.boolean(value, path, "against_baseline");
  blame.note = in.string(value, path, "note");
  const nlohmann::json& lines = in.array(value, path, "lines");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string at = index_at(field_at(path, "lines"), i);
    in.require_object(lines[i], at);
    blamed_source_line line;
    line.function = in.string(lines[i], at, "function");
    line.place = in.string(lines[i], at, "place");
    if (in.optional_member(lines[i], at, "chain") != nullptr)  // absent in results written before chains
      line.chain = in.strings(lines[i], at, "chain");
    line.sass = in.string(lines[i], at, "sass");
    line.metric = in.string(lines[i], at, "metric");
    if (!in.member(lines[i], at, "before").is_null())
      line.before = static_cast<std::uint64_t>(in.integer(lines[i], at, "before", 0, INT64_MAX));
    line.after = static_cast<std::uint64_t>(in.integer(lines[i], at, "after", 0, INT64_MAX));
    if (in.optional_member(lines[i], at, "opcodes_before") != nullptr)
      line.opcodes_before = in.strings(lines[i], at, "opcodes_before");
    if (in.optional_member(lines[i], at, "opcodes_after") != nullptr)
      line.opcodes_after = in.strings(lines[i], at, "opcodes_after");
    if (in.optional_member(lines[i], at, "file") != nullptr)  // absent in results written before it
      line.file = in.string(lines[i], at, "file");
    blame.lines.push_back(std::move(line));
  }
  return blame;
}

std::string describe_blamed_place(const blamed_source_line& line) {
  if (line.chain.size() < 2)
    return line.place;
  std::string text;
  for (const auto& place : line.chain)
    text += (text.empty() ? "" : " -> ") + place;
  return text;
}

std::string describe_kind_change(const blamed_source_line& line) {
  const auto listed = [](const std::vector<std::string>& opcodes) {
    std::string text;
    for (const auto& opcode : opcodes)
      text += (text.empty() ? "" : ", ") + opcode;
    return text;
  };
  if (line.opcodes_before.empty() && line.opcodes_after.empty())
    return "";
  if (line.opcodes_before.empty())
    return "new instruction kinds " + listed(line.opcodes_after);
  if (line.opcodes_after.empty())
    return "instruction kinds " + listed(line.opcodes_before) + " gone";
  return "instruction kinds " + listed(line.opcodes_before) + " -> " + listed(line.opcodes_after);
}

std::string describe_blamed_line(const blamed_source_line& line) {
  std::string metric = line.metric;  // blame metric names read as words: "shared excess wavefronts"
  std::replace(metric.begin(), metric.end(), '_', ' ');
  const std::string place = describe_blamed_place(line);
  const std::string kinds = describe_kind_change(line);
  if (!kinds.empty() && line.before && *line.before == line.after) {
    return metric.empty()
               ? fmt::format("{}  {}  {}", place, line.sass, kinds)
               : fmt::format("{}  {}  {}, {} {} (unchanged)", place, line.sass, kinds, metric, line.after);
  }
  std::string text =
      line.before ? fmt::format("{}  {}  {} {} -> {}", place, line.sass, metric, *line.before, line.after)
                  : fmt::format("{}  {}  {} {}", place, line.sass, metric, line.after);
  return kinds.empty() ? text : text + ", " + kinds;
}

}  // namespace counterguard
