// SPDX-License-Identifier: Apache-2.0
// Every message between the parent and a GPU worker is a typed event; what goes over the pipe reads back
// as what was sent, and anything else is a bug reported as such.
#include "counterguard/runner/worker_protocol.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace counterguard {
namespace {

TEST(worker_protocol, every_event_reads_back_as_it_was_written) {
  device_description device;
  device.name = "NVIDIA H200";
  device.chip = "GH100";
  device.sm_count = 132;
  case_result result;
  result.instance = "s/a";
  result.suite = "s";
  result.case_name = "a";
  result.kernel = "k";
  result.verified = true;
  result.totals["x"] = metric_value{4.0, metric_class::exact};

  const auto device_back =
      std::get<device_ready_event>(decode_worker_event(encode_worker_event(device_ready_event{device})));
  EXPECT_EQ(device_back.device.name, "NVIDIA H200");
  EXPECT_EQ(device_back.device.sm_count, 132);
  const auto busy =
      std::get<gpu_busy_event>(decode_worker_event(encode_worker_event(gpu_busy_event{"held", 12.5})));
  EXPECT_EQ(busy.message, "held");
  EXPECT_EQ(busy.seconds_left, 12.5);
  const auto begun =
      std::get<case_begin_event>(decode_worker_event(encode_worker_event(case_begin_event{"s/a", 7})));
  EXPECT_EQ(begun.instance, "s/a");
  EXPECT_EQ(begun.position, 7U);
  const auto back =
      std::get<case_result_event>(decode_worker_event(encode_worker_event(case_result_event{result})));
  EXPECT_EQ(back.result.instance, "s/a");
  EXPECT_EQ(back.result.totals.at("x").value, 4.0);
  EXPECT_EQ(
      std::get<input_error_event>(decode_worker_event(encode_worker_event(input_error_event{"bad"}))).message,
      "bad");
  for (const auto problem : {environment_problem::no_gpu, environment_problem::insufficient_privileges,
                             environment_problem::profiler_busy, environment_problem::under_external_profiler,
                             environment_problem::unsupported_device, environment_problem::gpu_wait_expired,
                             environment_problem::file_system, environment_problem::process}) {
    const auto decoded = std::get<environment_error_event>(
        decode_worker_event(encode_worker_event(environment_error_event{problem, "why"})));
    EXPECT_EQ(decoded.problem, problem);
    EXPECT_EQ(decoded.message, "why");
  }
}

TEST(worker_protocol, a_line_that_is_no_event_is_an_internal_error_quoting_it) {
  for (const std::string line : {"not json", "42", R"({"event":"dance"})", R"({"event":"begin"})",
                                 R"({"event":"environment_error","problem":"tired","message":"x"})"}) {
    try {
      static_cast<void>(decode_worker_event(line));
      ADD_FAILURE() << "decoded: " << line;
    } catch (const internal_error& e) {
      EXPECT_NE(std::string(e.what()).find("malformed event"), std::string::npos) << e.what();
    }
  }
}

TEST(worker_protocol, a_request_reads_back_and_a_malformed_one_names_the_field) {
  worker_request request;
  request.suite_paths = {"cases"};
  request.instances = {"s/a", "s/b"};
  request.archive_indices = {3, 4};
  request.extra_metrics = {"dram_read_bytes"};
  request.device = 1;
  request.wait_for_gpu_seconds = 30;
  const worker_request back = read_worker_request(worker_request_to_json(request), "req.json");
  EXPECT_EQ(back.instances, request.instances);
  EXPECT_EQ(back.archive_indices, request.archive_indices);
  EXPECT_EQ(back.extra_metrics, request.extra_metrics);
  EXPECT_EQ(back.device, 1);
  EXPECT_EQ(back.wait_for_gpu_seconds, 30);

  nlohmann::json broken = worker_request_to_json(request);
  broken["archive_indices"] = {3};
  try {
    static_cast<void>(read_worker_request(broken, "req.json"));
    ADD_FAILURE() << "accepted a request with too few archive indices";
  } catch (const input_error& e) {
    EXPECT_EQ(e.field(), "archive_indices");
    EXPECT_EQ(e.where().file, "req.json");
  }
}

TEST(worker_protocol, a_streamed_request_says_so_and_an_older_request_is_not_streamed) {
  worker_request request;
  request.suite_paths = {"cases"};
  request.instances = {"s/a"};
  request.archive_indices = {0};
  request.streamed = true;
  EXPECT_TRUE(read_worker_request(worker_request_to_json(request), "request.json").streamed);
  request.streamed = false;
  const nlohmann::json plain = worker_request_to_json(request);
  EXPECT_FALSE(plain.contains("streamed")) << "requests of one GPU are written as before";
  EXPECT_FALSE(read_worker_request(plain, "request.json").streamed);
}

TEST(worker_protocol, a_request_names_the_chip_the_parent_validated_for) {
  // The parent plans the configurations for it and sends the plan once the worker reports its device; none
  // named: the worker plans once the device is known, as before.
  worker_request request;
  request.suite_paths = {"cases"};
  request.instances = {"s/a"};
  request.archive_indices = {0};
  request.expected_chip = "GH100";
  EXPECT_EQ(read_worker_request(worker_request_to_json(request), "request.json").expected_chip, "GH100");
  request.expected_chip.clear();
  const nlohmann::json plain = worker_request_to_json(request);
  EXPECT_FALSE(plain.contains("expected_chip"));
  EXPECT_EQ(read_worker_request(plain, "request.json").expected_chip, "");
  nlohmann::json wrong = worker_request_to_json(request);
  wrong["expected_chip"] = 100;
  EXPECT_THROW(static_cast<void>(read_worker_request(wrong, "request.json")), input_error);
}

TEST(worker_protocol, a_plan_reads_back_as_it_was_sent) {
  worker_plan plan;
  plan.chip = "GH100";
  plan.configurations = {{{"a.sum", "b.sum"}, 2}, {{"c.sum"}, 1}};
  plan.configuration_of = {1, -1, 0};
  const std::string line = encode_worker_plan(plan);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "one line";
  const worker_plan back = decode_worker_plan(line);
  EXPECT_EQ(back.chip, "GH100");
  ASSERT_EQ(back.configurations.size(), 2U);
  EXPECT_EQ(back.configurations[0].raw_metrics, (std::vector<std::string>{"a.sum", "b.sum"}));
  EXPECT_EQ(back.configurations[0].passes, 2);
  EXPECT_EQ(back.configuration_of, (std::vector<int>{1, -1, 0}));
  EXPECT_TRUE(back.planned);
  EXPECT_TRUE(back.problem.empty());
  worker_plan refused;
  refused.chip = "GH100";
  refused.problem = "cases/x.yaml:3: no CUPTI metric of this name on chip GH100";
  EXPECT_EQ(decode_worker_plan(encode_worker_plan(refused)).problem, refused.problem);
}

TEST(worker_protocol, a_malformed_plan_is_an_internal_error) {
  EXPECT_THROW(static_cast<void>(decode_worker_plan("3 s/a")), internal_error);
  worker_plan plan;
  plan.configuration_of = {0};  // no configuration 0
  EXPECT_THROW(static_cast<void>(decode_worker_plan(encode_worker_plan(plan))), internal_error);
}

}  // namespace
}  // namespace counterguard
