// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/process_labels.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace counterguard {
namespace {

std::string file_name(const process_identity& process) {
  const std::string& path =
      process.executable.empty() && !process.argv.empty() ? process.argv.front() : process.executable;
  const std::size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  // Instance names use letters, digits and a few marks: keep the label readable in every report.
  for (char& c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '.' || c == '-';
    if (!plain)
      c = '_';
  }
  return name.empty() ? std::string("process") : name;
}

}  // namespace

std::string process_label::suffix() const {
  std::string text;
  for (const auto& [key, value] : parameters)
    text += (text.empty() ? "?" : ",") + key + "=" + value;
  return text;
}

std::string process_label::applied_to(const std::string& name) const {
  std::string text = suffix();
  if (!text.empty() && name.find('?') != std::string::npos)
    text[0] = ',';
  return name + text;
}

std::vector<process_label> label_processes(const std::vector<process_identity>& processes) {
  std::vector<process_label> labels(processes.size());
  std::map<std::int64_t, int> rank_users;
  for (const auto& process : processes) {
    if (process.rank)
      ++rank_users[*process.rank];
  }
  // Which processes need a number: those without a rank (unless alone) and those sharing a rank.
  std::vector<std::size_t> numbered;
  for (std::size_t i = 0; i < processes.size(); ++i) {
    if (processes[i].rank) {
      labels[i].parameters.emplace_back("rank", std::to_string(*processes[i].rank));
      if (rank_users[*processes[i].rank] > 1)
        numbered.push_back(i);
    } else if (processes.size() > 1) {
      numbered.push_back(i);
    }
  }
  std::sort(numbered.begin(), numbered.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(processes[a].started_ns, processes[a].pid) <
           std::tie(processes[b].started_ns, processes[b].pid);
  });
  std::map<std::string, int> next_number;
  for (const std::size_t i : numbered) {
    const std::string name = file_name(processes[i]);
    labels[i].parameters.emplace_back("process", name + "." + std::to_string(++next_number[name]));
  }
  return labels;
}

}  // namespace counterguard
