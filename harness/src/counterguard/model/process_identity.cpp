// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/process_identity.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

// The variables, most specific first: a global MPI rank beats a node-local one.
constexpr std::array<const char*, 5> rank_variables{"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                                    "SLURM_PROCID", "LOCAL_RANK"};

std::optional<std::int64_t> whole_number(const char* text) {
  if (text == nullptr || *text == '\0')
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 0)
    return std::nullopt;
  return value;
}

}  // namespace

void read_rank_from_environment(process_identity& identity, const char* (*lookup)(const char*)) {
  for (const char* variable : rank_variables) {
    if (const std::optional<std::int64_t> rank = whole_number(lookup(variable))) {
      identity.rank = rank;
      identity.rank_variable = variable;
      return;
    }
  }
}

std::string describe_process(const process_identity& process) {
  std::string program = process.argv.empty() ? process.executable : process.argv.front();
  std::string text = process.rank ? "rank " + std::to_string(*process.rank) + " (" : "process (";
  return text + "pid " + std::to_string(process.pid) + ", " + program + ")";
}

nlohmann::json process_identity_to_json(const process_identity& process) {
  nlohmann::json document{{"pid", process.pid},
                          {"parent_pid", process.parent_pid},
                          {"executable", process.executable},
                          {"argv", process.argv},
                          {"rank", process.rank ? nlohmann::json(*process.rank) : nlohmann::json(nullptr)},
                          {"rank_variable", process.rank_variable},
                          {"started_ns", process.started_ns}};
  return document;
}

process_identity process_identity_from_json(const nlohmann::json& document, const std::string& file,
                                            const std::string& field) {
  const json_reader reader(file);
  reader.require_object(document, field);
  process_identity process;
  process.pid = reader.integer(document, field, "pid", 0, INT64_MAX);
  process.parent_pid = reader.integer(document, field, "parent_pid", 0, INT64_MAX);
  process.executable = reader.string(document, field, "executable");
  process.argv = reader.strings(document, field, "argv");
  const nlohmann::json& rank = reader.member(document, field, "rank");
  if (!rank.is_null())
    process.rank = reader.integer(document, field, "rank", 0, INT64_MAX);
  process.rank_variable = reader.string(document, field, "rank_variable");
  process.started_ns = reader.integer(document, field, "started_ns", 0, INT64_MAX);
  return process;
}

}  // namespace counterguard
