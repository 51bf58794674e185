// SPDX-License-Identifier: Apache-2.0
// How results name the processes a case was measured in.
#include "counterguard/exec/process_labels.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

process_identity process(std::int64_t pid, std::int64_t started,
                         std::optional<std::int64_t> rank = std::nullopt,
                         const std::string& executable = "/work/bin/app") {
  process_identity p;
  p.pid = pid;
  p.started_ns = started;
  p.rank = rank;
  p.executable = executable;
  return p;
}

std::vector<std::string> suffixes(const std::vector<process_identity>& processes) {
  std::vector<std::string> result;
  for (const auto& label : label_processes(processes))
    result.push_back(label.suffix());
  return result;
}

TEST(process_labels, one_process_without_a_rank_keeps_the_plain_name) {
  EXPECT_EQ(suffixes({process(10, 1)}), (std::vector<std::string>{""}));
}

TEST(process_labels, ranks_label_their_processes) {
  EXPECT_EQ(suffixes({process(11, 2, 1), process(10, 1, 0)}),
            (std::vector<std::string>{"?rank=1", "?rank=0"}));
  EXPECT_EQ(suffixes({process(11, 2, 3)}), (std::vector<std::string>{"?rank=3"}));
  const auto labels = label_processes({process(11, 2, 1)});
  EXPECT_EQ(labels[0].parameters, (std::vector<std::pair<std::string, std::string>>{{"rank", "1"}}));
}

TEST(process_labels, processes_without_ranks_are_numbered_per_executable_in_start_order) {
  EXPECT_EQ(suffixes({process(30, 3), process(10, 1), process(20, 2, std::nullopt, "/usr/bin/python3.11")}),
            (std::vector<std::string>{"?process=app.2", "?process=app.1", "?process=python3.11.1"}));
}

TEST(process_labels, a_shared_rank_gets_a_number_too) {
  // A rank's helper process inherits the launcher's environment, rank included.
  EXPECT_EQ(suffixes({process(10, 1, 0), process(12, 5, 0, "/bin/helper"), process(11, 2, 1)}),
            (std::vector<std::string>{"?rank=0,process=app.1", "?rank=0,process=helper.1", "?rank=1"}));
}

TEST(process_labels, a_name_with_parameters_takes_the_label_as_one_more) {
  const auto labels = label_processes({process(11, 2, 1)});
  EXPECT_EQ(labels[0].applied_to("s/c"), "s/c?rank=1");
  EXPECT_EQ(labels[0].applied_to("s/c?n=2"), "s/c?n=2,rank=1");
  EXPECT_EQ(label_processes({process(1, 1)})[0].applied_to("s/c?n=2"), "s/c?n=2");
}

TEST(process_labels, labels_stay_readable_names) {
  EXPECT_EQ(suffixes({process(1, 1, std::nullopt, "/x/my app+v2"), process(2, 2)}),
            (std::vector<std::string>{"?process=my_app_v2.1", "?process=app.1"}));
}

}  // namespace
}  // namespace counterguard
