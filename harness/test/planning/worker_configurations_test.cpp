// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/worker_configurations.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/planning/metric_plan.hpp"

namespace counterguard {
namespace {

// What a worker's request says about its cases: their names in order (streamed or not, every case it may be
// handed) and the metrics measured for all of them.
struct handed_cases {
  std::vector<std::string> instances;
  std::vector<std::string> extra_metrics;
};

case_instance instance(const std::string& name, const std::vector<std::string>& metrics) {
  case_instance made;
  made.name = name;
  for (const auto& metric : metrics) {
    resolved_expectation expectation;
    expectation.metric = metric;
    made.expectations.push_back(expectation);
  }
  return made;
}

std::map<std::string, case_instance> suite() {
  std::map<std::string, case_instance> instances;
  for (auto made :
       {instance("bank", {"shared_store_bank_conflicts"}), instance("sectors", {"global_load_sectors"}),
        instance("skipped", {"global_store_sectors"}),
        instance("registers", {"launch_registers_per_thread"})}) {
    instances.emplace(made.name, made);
  }
  instances.at("skipped").skip_reason = "not on this chip";
  return instances;
}

bool holds(const std::vector<std::string>& configuration, const std::string& raw) {
  return std::find(configuration.begin(), configuration.end(), raw) != configuration.end();
}

const metric_catalog& catalog() {
  return metric_catalog::builtin();
}

TEST(worker_configurations, every_case_the_request_may_hand_out_is_planned_with_the_chips_pass_counts) {
  handed_cases request;
  request.instances = {"registers", "bank", "skipped", "sectors", "not loaded"};
  const metric_name_validator validator("GH100");
  const worker_configurations planned(
      request.instances, request.extra_metrics, suite(), catalog(),
      [&](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); });
  EXPECT_EQ(planned.configuration_of(0), -1);  // launch attributes only
  EXPECT_EQ(planned.configuration_of(2), -1);  // skipped
  EXPECT_EQ(planned.configuration_of(4), -1);  // not in the loaded suites
  EXPECT_TRUE(planned.raw_metrics(0).empty());
  // Two instrumented counters of one pass each: one configuration holding both cases' counters.
  ASSERT_EQ(planned.configurations().size(), 1U);
  EXPECT_EQ(planned.configuration_of(1), 0);
  EXPECT_EQ(planned.configuration_of(3), 0);
  const auto& raw = planned.raw_metrics(1);
  EXPECT_EQ(raw, planned.raw_metrics(3));
  for (const char* alias : {"shared_store_bank_conflicts", "global_load_sectors"}) {
    for (const auto& input : catalog().resolve(alias).raw_inputs)
      EXPECT_TRUE(holds(raw, input)) << input;
  }
  EXPECT_FALSE(holds(raw, catalog().resolve("global_store_sectors").raw_inputs.front()));
  EXPECT_EQ(planned.configurations()[0].passes, validator.pass_count(raw));
  EXPECT_THROW(static_cast<void>(planned.configuration_of(5)), internal_error);
}

TEST(worker_configurations, extra_metrics_are_collected_for_every_case) {
  handed_cases request;
  request.instances = {"registers", "bank"};
  request.extra_metrics = {"global_store_sectors"};
  const metric_name_validator validator("GH100");
  const worker_configurations planned(
      request.instances, request.extra_metrics, suite(), catalog(),
      [&](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); });
  ASSERT_EQ(planned.configuration_of(0), 0);
  EXPECT_TRUE(holds(planned.raw_metrics(0), catalog().resolve("global_store_sectors").raw_inputs.front()));
}

TEST(worker_configurations, sets_that_would_take_too_many_passes_together_stay_apart) {
  handed_cases request;
  request.instances = {"bank", "sectors"};
  // One pass alone, twenty together: past the three passes a one-pass case may take.
  const worker_configurations planned(
      request.instances, request.extra_metrics, suite(), catalog(),
      [](const std::vector<std::string>& metrics) {
        const bool bank = std::any_of(metrics.begin(), metrics.end(), [](const std::string& m) {
          return m.find("shared") != std::string::npos;
        });
        const bool sectors = std::any_of(metrics.begin(), metrics.end(), [](const std::string& m) {
          return m.find("global") != std::string::npos;
        });
        return bank && sectors ? 20 : 1;
      });
  ASSERT_EQ(planned.configurations().size(), 2U);
  EXPECT_NE(planned.configuration_of(0), planned.configuration_of(1));
  // Each with exactly its own counters.
  for (const auto& [position, alias] : {std::pair<std::size_t, const char*>{0, "shared_store_bank_conflicts"},
                                        std::pair<std::size_t, const char*>{1, "global_load_sectors"}}) {
    std::vector<std::string> own = catalog().resolve(alias).raw_inputs;
    std::sort(own.begin(), own.end());
    own.erase(std::unique(own.begin(), own.end()), own.end());
    EXPECT_EQ(planned.raw_metrics(position), own) << alias;
  }
}

TEST(worker_configurations, per_case_profiles_every_case_with_exactly_its_own_metrics) {
  handed_cases request;
  request.instances = {"bank", "registers", "sectors", "bank"};
  const metric_name_validator validator("GH100");
  const worker_configurations planned(
      request.instances, request.extra_metrics, suite(), catalog(),
      [&](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); },
      configuration_sharing::per_case);
  ASSERT_EQ(planned.configurations().size(), 2U);
  EXPECT_EQ(planned.configuration_of(0), planned.configuration_of(3));
  EXPECT_EQ(planned.configuration_of(1), -1);
  const auto suites = suite();
  for (const std::size_t position : {0U, 2U}) {
    EXPECT_EQ(planned.raw_metrics(position),
              plan_metrics(suites.at(request.instances[position]), catalog()).raw_cupti);
  }
}

TEST(worker_configurations, no_extra_passes_shares_only_where_no_case_needs_more) {
  handed_cases request;
  request.instances = {"bank", "sectors"};
  // Two passes together: shared lets one-pass cases take them, no_extra_passes does not.
  const pass_counter two_together = [](const std::vector<std::string>& metrics) {
    const bool shared = std::any_of(metrics.begin(), metrics.end(), [](const std::string& m) {
      return m.find("shared") != std::string::npos;
    });
    const bool global = std::any_of(metrics.begin(), metrics.end(), [](const std::string& m) {
      return m.find("global") != std::string::npos;
    });
    return shared && global ? 2 : 1;
  };
  EXPECT_EQ(worker_configurations(request.instances, request.extra_metrics, suite(), catalog(), two_together,
                                  configuration_sharing::shared)
                .configurations()
                .size(),
            1U);
  EXPECT_EQ(worker_configurations(request.instances, request.extra_metrics, suite(), catalog(), two_together,
                                  configuration_sharing::no_extra_passes)
                .configurations()
                .size(),
            2U);
}

TEST(worker_configurations, hardware_stages_shares_instrumented_counters_but_never_adds_a_hardware_stage) {
  std::map<std::string, case_instance> instances = suite();
  for (auto made :
       {instance("local", {"local_load_bytes_hw"}), instance("local_store", {"local_store_bytes_hw"}),
        instance("constant", {"constant_requests"})}) {
    instances.emplace(made.name, made);
  }
  handed_cases request;
  request.instances = {"bank", "local", "sectors", "constant", "local_store"};
  const metric_name_validator validator("GH100");
  const pass_counter passes = [&](const std::vector<std::string>& metrics) {
    return validator.pass_count(metrics);
  };
  const worker_configurations planned(request.instances, request.extra_metrics, instances, catalog(), passes);
  // Instrumented counters only (bank, sectors) share; the L1TEX tag stage's local bytes (local, local_store)
  // share; the constant cache's requests stay apart from both.
  ASSERT_EQ(planned.configurations().size(), 3U);
  EXPECT_EQ(planned.configuration_of(0), planned.configuration_of(2));
  EXPECT_EQ(planned.configuration_of(1), planned.configuration_of(4));
  EXPECT_NE(planned.configuration_of(0), planned.configuration_of(1));
  EXPECT_NE(planned.configuration_of(3), planned.configuration_of(0));
  EXPECT_NE(planned.configuration_of(3), planned.configuration_of(1));
  EXPECT_FALSE(holds(planned.raw_metrics(3), "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"));
  EXPECT_TRUE(holds(planned.raw_metrics(1), "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum"));
  // no_extra_passes lets a one-pass set take a stage it lacks when that costs no pass.
  const worker_configurations by_passes(request.instances, request.extra_metrics, instances, catalog(),
                                        passes, configuration_sharing::no_extra_passes);
  EXPECT_EQ(by_passes.configuration_of(1), by_passes.configuration_of(3))
      << "the H200's local bytes and constant requests fit one pass: the case this sharing mode exists for";
}

TEST(worker_configurations, a_case_with_a_noisy_metric_keeps_exactly_its_own_metrics) {
  std::map<std::string, case_instance> instances = suite();
  case_instance noisy = instance("noisy", {"shared_store_bank_conflicts", "shared_atomic_instructions"});
  noisy.expectations[1].cls = metric_class::noisy;  // declared noisy in its suite, as atomics/block_staged
  instances.emplace(noisy.name, noisy);
  handed_cases request;
  request.instances = {"bank", "noisy", "sectors"};
  const pass_counter one_pass = [](const std::vector<std::string>&) { return 1; };
  for (const auto sharing : {configuration_sharing::shared, configuration_sharing::no_extra_passes}) {
    const worker_configurations planned(request.instances, request.extra_metrics, instances, catalog(),
                                        one_pass, sharing);
    ASSERT_EQ(planned.configurations().size(), 2U);
    EXPECT_EQ(planned.configuration_of(0), planned.configuration_of(2)) << "the exact cases share";
    EXPECT_NE(planned.configuration_of(1), planned.configuration_of(0));
    EXPECT_EQ(planned.raw_metrics(1), plan_metrics(noisy, catalog()).raw_cupti);
  }
}

TEST(worker_configurations, the_environment_chooses_the_sharing) {
  const char* variable = "COUNTERGUARD_PROFILER_CONFIGURATIONS";
  ::unsetenv(variable);
  EXPECT_EQ(configuration_sharing_from_environment(), configuration_sharing::hardware_stages);
  ::setenv(variable, "hardware_stages", 1);
  EXPECT_EQ(configuration_sharing_from_environment(), configuration_sharing::hardware_stages);
  ::setenv(variable, "shared", 1);
  EXPECT_EQ(configuration_sharing_from_environment(), configuration_sharing::shared);
  ::setenv(variable, "per_case", 1);
  EXPECT_EQ(configuration_sharing_from_environment(), configuration_sharing::per_case);
  ::setenv(variable, "no_extra_passes", 1);
  EXPECT_EQ(configuration_sharing_from_environment(), configuration_sharing::no_extra_passes);
  ::setenv(variable, "together", 1);
  try {
    static_cast<void>(configuration_sharing_from_environment());
    ADD_FAILURE() << "an unknown value was accepted";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("hardware_stages (the default), no_extra_passes"), std::string::npos)
        << e.what();
  }
  ::unsetenv(variable);
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

TEST(worker_configurations, one_gpu_profiles_the_cases_of_a_configuration_one_after_another) {
  // bank and sectors cannot share (twenty passes together); registers collects nothing.
  const pass_counter apart = [](const std::vector<std::string>& metrics) {
    const bool bank = std::any_of(metrics.begin(), metrics.end(),
                                  [](const std::string& m) { return m.find("shared") != std::string::npos; });
    const bool sectors = std::any_of(metrics.begin(), metrics.end(), [](const std::string& m) {
      return m.find("global") != std::string::npos;
    });
    return bank && sectors ? 20 : 1;
  };
  const auto all = suite();
  const std::vector<case_instance> instances = {all.at("bank"), all.at("sectors"), all.at("registers"),
                                                all.at("bank"), all.at("sectors"), all.at("bank")};
  const std::vector<int> configurations =
      instance_configurations(instances, {}, catalog(), apart, configuration_sharing::no_extra_passes);
  EXPECT_EQ(configurations, (std::vector<int>{0, 1, -1, 0, 1, 0}));
  EXPECT_EQ(order_by_configuration(configurations), (std::vector<std::size_t>{0, 3, 5, 1, 4, 2}));
  // Where bank and sectors share one configuration, only the case without counters moves (after them).
  const std::vector<int> shared = instance_configurations(
      instances, {}, catalog(), [](const std::vector<std::string>&) { return 1; },
      configuration_sharing::no_extra_passes);
  EXPECT_EQ(order_by_configuration(shared), (std::vector<std::size_t>{0, 1, 3, 4, 5, 2}));
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

TEST(worker_configurations, configurations_without_instrumented_counters_are_numbered_and_profiled_first) {
  // With CUPTI's session API a switch from instrumented to hardware-only counters ends the session
  // (profiler_session), so a worker profiles the hardware-only configurations first, whatever the case order.
  std::map<std::string, case_instance> instances;
  for (auto made : {instance("sectors", {"global_load_sectors"}), instance("local", {"local_load_bytes_hw"}),
                    instance("bank", {"shared_store_bank_conflicts"})}) {
    instances.emplace(made.name, made);
  }
  handed_cases request;
  request.instances = {"sectors", "local", "bank", "local"};
  const worker_configurations planned(request.instances, request.extra_metrics, instances, catalog(),
                                      [](const std::vector<std::string>&) { return 1; });
  ASSERT_EQ(planned.configurations().size(), 2U);  // instrumented counters share; the local bytes apart
  EXPECT_EQ(planned.configuration_of(1), 0);
  EXPECT_EQ(planned.configuration_of(3), 0);
  EXPECT_EQ(planned.configuration_of(0), 1);
  EXPECT_EQ(planned.configuration_of(2), 1);
  EXPECT_TRUE(holds(planned.raw_metrics(1), "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"));
  EXPECT_EQ(order_by_configuration({1, 0, 1, 0, -1}), (std::vector<std::size_t>{1, 3, 0, 2, 4}));
}

TEST(worker_configurations, the_run_is_planned_once_as_a_worker_handed_all_of_it_would_plan_it) {
  std::vector<case_instance> list;
  for (const auto& [name, made] : suite())
    list.push_back(made);
  const worker_plan plan = plan_for_run(list, {}, "GH100");
  ASSERT_TRUE(plan.planned);
  EXPECT_TRUE(plan.problem.empty());
  const metric_name_validator validator("GH100");
  const worker_configurations worker = plan_for_instances(
      list, {}, catalog(),
      [&](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); },
      configuration_sharing::hardware_stages);
  ASSERT_EQ(plan.configuration_of.size(), list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(plan.configuration_of[i], worker.configuration_of(i)) << list[i].name;
    EXPECT_EQ(worker_configurations(plan).raw_metrics(i), worker.raw_metrics(i)) << list[i].name;
  }
}

TEST(worker_configurations, a_metric_the_chip_lacks_is_the_plans_problem_naming_it) {
  const worker_plan plan = plan_for_run({instance("bad", {"dram__no_such_counter.sum"})}, {}, "GH100");
  EXPECT_NE(plan.problem.find("dram__no_such_counter.sum"), std::string::npos) << plan.problem;
}

TEST(worker_configurations, a_part_of_the_plan_keeps_only_the_configurations_its_cases_use_in_order) {
  worker_plan run;
  run.chip = "GH100";
  run.configurations = {{{"a.sum"}, 1}, {{"b.sum"}, 1}, {{"c.sum"}, 1}};
  run.configuration_of = {0, 1, 2, -1, 2};
  const worker_plan part = plan_for_positions(run, {2, 3, 4});
  ASSERT_EQ(part.configurations.size(), 1U);
  EXPECT_EQ(part.configurations[0].raw_metrics, (std::vector<std::string>{"c.sum"}));
  EXPECT_EQ(part.configuration_of, (std::vector<int>{0, -1, 0}));
  EXPECT_EQ(plan_for_positions(run, {1, 0}).configuration_of, (std::vector<int>{1, 0}));
}

}  // namespace
}  // namespace counterguard
