// SPDX-License-Identifier: Apache-2.0
// Several GPUs, one queue: the scheduler of `run --devices`, with scripted stand-ins for the GPU workers (two
// fake devices, told apart by the device ordinal in their request file). No GPU needed.
#include "counterguard/runner/multi_device_runner.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <thread>

#include "counterguard/core/interruption.hpp"
#include "scripted_worker.hpp"

namespace counterguard::test {
namespace {

std::vector<case_instance> instances(const std::vector<std::string>& names) {
  std::vector<case_instance> list;
  for (const auto& name : names)
    list.push_back(scripted_instance(name));
  return list;
}

// A worker that takes cases from standard input, logs "<device> <instance>" to `log`, sleeps for cases named
// *slow*, and reports each as passed.
std::string streaming_body(const std::string& log, const std::string& per_case = "") {
  return read_device_from_request() + emit(scripted_device_event()) +
         "while read -r position name; do\n"
         "  echo \"$device $name\" >> " +
         log + "\n" +
         "  echo \"{\\\"event\\\":\\\"begin\\\",\\\"instance\\\":\\\"$name\\\",\\\"position\\\":$position}\" "
         ">&3\n"
         "  case \"$name\" in *slow*) sleep 0.3;; esac\n" +
         per_case + emit_result_for("name") + "done\n";
}

std::vector<std::pair<int, std::string>> read_log(const std::string& log) {
  std::vector<std::pair<int, std::string>> lines;
  std::ifstream in(log);
  int device = 0;
  std::string name;
  while (in >> device >> name)
    lines.emplace_back(device, name);
  return lines;
}

// The results as they would be written, without the timing field.
nlohmann::json without_timing(const std::vector<case_result>& results) {
  run_results wrapper;
  wrapper.cases = results;
  nlohmann::json document = wrapper;
  for (auto& c : document["cases"])
    c.erase("seconds");
  return document["cases"];
}

const std::vector<std::string> six = {"a", "b_slow", "c", "d_slow", "e", "f"};

TEST(multi_device_runner, every_case_runs_once_and_results_come_back_in_the_given_order) {
  const scratch_dir dir;
  const scripted_worker worker(streaming_body(dir.file("log")));
  const auto list = instances(six);
  const auto outcome = run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, worker.options());
  ASSERT_EQ(outcome.results.size(), list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(outcome.results[i].instance, list[i].name);
    EXPECT_EQ(outcome.results[i].status, case_status::passed);
  }
  const auto log = read_log(dir.file("log"));
  std::multiset<std::string> ran;
  std::set<int> devices;
  for (const auto& [device, name] : log) {
    ran.insert(name);
    devices.insert(device);
  }
  EXPECT_EQ(ran.size(), list.size());
  for (const auto& i : list)
    EXPECT_EQ(ran.count(i.name), 1U) << i.name;
  EXPECT_EQ(devices, (std::set<int>{0, 1})) << "both devices took cases";
  EXPECT_EQ(outcome.device.name, "Scripted GPU");
}

TEST(multi_device_runner, fail_fast_starts_no_case_after_a_failing_one_and_reports_them_not_run) {
  const scratch_dir dir;
  const scripted_worker worker(streaming_body(dir.file("log")));
  const auto list = instances({"a", "b", "c", "d", "e", "f", "g", "h"});
  isolated_run_options options = worker.options();
  options.stop_after = [](std::size_t, const case_result& result, const device_description&) {
    return result.instance == "s/b";
  };
  // One device, equal costs: handed out in suite order.
  const auto outcome = run_on_devices(list, std::vector<double>(list.size(), 1.0), {0}, options);
  ASSERT_EQ(outcome.results.size(), list.size());
  std::set<std::string> ran;
  for (const auto& [device, name] : read_log(dir.file("log")))
    ran.insert(name);
  std::size_t skipped = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const case_result& result = outcome.results[i];
    EXPECT_EQ(result.instance, list[i].name);
    if (result.status == case_status::skipped) {
      ++skipped;
      EXPECT_EQ(result.status_reason, not_run_reason("s/b")) << result.instance;
      EXPECT_EQ(ran.count(result.instance), 0U) << result.instance << " ran";
    } else {
      EXPECT_EQ(ran.count(result.instance), 1U) << result.instance;
    }
  }
  // What the worker held beside b (handed ahead) still ran; nothing was started after.
  EXPECT_GE(skipped, list.size() - 2 - 2);
  EXPECT_EQ(outcome.results[7].status, case_status::skipped);
}

TEST(multi_device_runner, cases_are_handed_out_longest_first_with_ties_in_suite_order) {
  const scratch_dir dir;
  const scripted_worker worker(streaming_body(dir.file("log")));
  const auto list = instances({"a", "b", "c", "d", "e"});
  static_cast<void>(run_on_devices(list, {1.0, 5.0, 1.0, 9.0, 5.0}, {0}, worker.options()));
  std::vector<std::string> order;
  for (const auto& [device, name] : read_log(dir.file("log")))
    order.push_back(name);
  EXPECT_EQ(order, (std::vector<std::string>{"s/d", "s/b", "s/e", "s/a", "s/c"}));
}

TEST(multi_device_runner, a_worker_keeps_to_a_profiler_configuration_planned_while_it_starts) {
  const scratch_dir dir;
  const scripted_worker worker(streaming_body(dir.file("log")));
  const auto list = instances({"a", "b_slow", "c", "d_slow", "e"});
  int plans = 0;
  // a, c and e share configuration 0 (cost 3), b_slow and d_slow configuration 1 (cost 10): one device takes
  // each; the one done first (configuration 0's cases are quick) helps with the other's from its end.
  static_cast<void>(run_on_devices(list, {1, 5, 1, 5, 1}, {0, 1}, worker.options(), [&] {
    ++plans;
    return std::vector<int>{0, 1, 0, 1, 0};
  }));
  EXPECT_EQ(plans, 1) << "the plan is asked for once";
  std::map<int, std::vector<std::string>> by_device;
  for (const auto& [device, name] : read_log(dir.file("log")))
    by_device[device].push_back(name);
  ASSERT_EQ(by_device.size(), 2U);
  const std::set<std::vector<std::string>> runs{by_device[0], by_device[1]};
  EXPECT_EQ(runs, (std::set<std::vector<std::string>>{{"s/b_slow"}, {"s/a", "s/c", "s/e", "s/d_slow"}}))
      << "each device kept to its configuration, then helped from the other's end";
}

TEST(multi_device_runner, every_worker_gets_the_runs_plan_before_its_first_case) {
  const scratch_dir dir;
  // Each worker keeps the first line of its input (the plan), then takes cases as usual.
  const scripted_worker worker(
      read_device_from_request() + emit(scripted_device_event()) + "read -r plan\necho \"$plan\" > " +
      dir.file("plan") + "-$device\n" + "while read -r position name; do\n  echo \"$device $name\" >> " +
      dir.file("log") +
      "\n  echo \"{\\\"event\\\":\\\"begin\\\",\\\"instance\\\":\\\"$name\\\",\\\"position\\\":"
      "$position}\" >&3\n" +
      emit_result_for("name") + "done\n");
  const auto list = instances({"a", "b", "c", "d"});
  isolated_run_options options = worker.options();
  options.chip = "GH100";
  worker_plan plan;
  plan.chip = "GH100";
  plan.configurations = {{{"x.sum"}, 1}, {{"y.sum"}, 1}};
  plan.configuration_of = {0, 1, 0, 1};
  std::promise<worker_plan> planned;
  planned.set_value(plan);
  options.plan = planned.get_future().share();
  const auto outcome = run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, options,
                                      [&] { return plan.configuration_of; });
  ASSERT_EQ(outcome.results.size(), list.size());
  EXPECT_EQ(read_log(dir.file("log")).size(), list.size()) << "no case line was taken for the plan";
  for (const int device : {0, 1}) {
    std::ifstream in(dir.file("plan") + "-" + std::to_string(device));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(decode_worker_plan(line).configuration_of, plan.configuration_of) << "device " << device;
  }
}

// How many bytes wait in the worker's standard input during its first case (written to `file`).
std::string log_pending_input_in_first_case(const std::string& file) {
  return "  if [ ! -e " + file +
         " ]; then sleep 0.3; python3 -c 'import array,fcntl,termios; b = array.array(\"i\", [0]); "
         "fcntl.ioctl(0, termios.FIONREAD, b); print(b[0])' > " +
         file + "; fi\n";
}

TEST(multi_device_runner, the_next_case_of_the_same_configuration_waits_in_the_workers_input) {
  // Six cases of one configuration on one device: while the worker runs the first, the second is already in
  // its input (no round trip through the parent between cases). With two cases, none is handed ahead: near
  // the end of the queue another worker may need it.
  for (const std::size_t count : {6U, 2U}) {
    const scratch_dir dir;
    const scripted_worker worker(
        streaming_body(dir.file("log"), log_pending_input_in_first_case(dir.file("pending"))));
    const std::vector<std::string> names(six.begin(), six.begin() + static_cast<std::ptrdiff_t>(count));
    const auto list = instances(names);
    const auto outcome = run_on_devices(list, std::vector<double>(list.size(), 1.0), {0}, worker.options(),
                                        [&] { return std::vector<int>(list.size(), 0); });
    ASSERT_EQ(outcome.results.size(), list.size());
    int pending = -1;
    std::ifstream(dir.file("pending")) >> pending;
    if (count == 6U)
      EXPECT_GT(pending, 0) << "nothing waited in the worker's input";
    else
      EXPECT_EQ(pending, 0) << "a case was handed ahead near the end of the queue";
  }
}

TEST(multi_device_runner, the_longest_cases_start_first_on_two_devices) {
  const scratch_dir dir;
  const scripted_worker worker(streaming_body(dir.file("log")));
  const auto list = instances(six);
  // b_slow and d_slow are the longest: one goes to each device first.
  static_cast<void>(run_on_devices(list, {1, 3, 1, 3, 1, 1}, {0, 1}, worker.options()));
  const auto log = read_log(dir.file("log"));
  ASSERT_GE(log.size(), 2U);
  const std::set<std::string> first_two{log[0].second, log[1].second};
  EXPECT_EQ(first_two, (std::set<std::string>{"s/b_slow", "s/d_slow"}));
  EXPECT_NE(log[0].first, log[1].first) << "the two slow cases ran on different devices";
}

TEST(multi_device_runner, results_do_not_depend_on_which_device_ran_which_case) {
  const scripted_worker worker(streaming_body("/dev/null"));
  const auto list = instances(six);
  const auto single = run_on_devices(list, std::vector<double>(list.size(), 1.0), {0}, worker.options());
  const auto forward = run_on_devices(list, {6, 5, 4, 3, 2, 1}, {0, 1}, worker.options());
  const auto backward = run_on_devices(list, {1, 2, 3, 4, 5, 6}, {1, 0}, worker.options());
  EXPECT_EQ(without_timing(forward.results), without_timing(single.results));
  EXPECT_EQ(without_timing(backward.results), without_timing(single.results));
}

TEST(multi_device_runner, a_worker_that_crashes_on_one_device_fails_that_case_and_is_restarted) {
  const scratch_dir dir;
  // Device 1's first worker dies in its first case; its replacement and device 0 run the rest.
  const std::string crash = "  if [ \"$device\" = 1 ] && [ ! -e " + dir.file("crashed") + " ]; then touch " +
                            dir.file("crashed") + "; echo \"kernel exploded in $name\" >&2; exit 9; fi\n";
  const scripted_worker worker(streaming_body(dir.file("log"), crash));
  const auto list = instances(six);
  const auto outcome = run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, worker.options());
  ASSERT_EQ(outcome.results.size(), list.size());
  std::size_t errors = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(outcome.results[i].instance, list[i].name);
    if (outcome.results[i].status == case_status::error) {
      ++errors;
      EXPECT_NE(outcome.results[i].status_reason.find("status 9"), std::string::npos);
      EXPECT_NE(outcome.results[i].status_reason.find("kernel exploded in " + list[i].name),
                std::string::npos)
          << outcome.results[i].status_reason;
    } else {
      EXPECT_EQ(outcome.results[i].status, case_status::passed);
    }
  }
  EXPECT_EQ(errors, 1U);
}

TEST(multi_device_runner, a_case_that_stays_silent_times_out_alone) {
  const scratch_dir dir;
  const std::string hang = "  case \"$name\" in *c) sleep 30;; esac\n";
  const scripted_worker worker(streaming_body(dir.file("log"), hang));
  const auto list = instances(six);
  const auto outcome =
      run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, worker.options(0.8));
  ASSERT_EQ(outcome.results.size(), list.size());
  EXPECT_EQ(outcome.results[2].status, case_status::error);
  EXPECT_NE(outcome.results[2].status_reason.find("timed out"), std::string::npos);
  for (std::size_t i : {0U, 1U, 3U, 4U, 5U})
    EXPECT_EQ(outcome.results[i].status, case_status::passed) << list[i].name;
}

TEST(multi_device_runner, a_case_handed_out_as_the_context_was_lost_runs_on_a_fresh_worker) {
  const scratch_dir dir;
  // The first worker on each device reports its first case, then exits with the context-lost status without
  // starting the next one it may already have been handed.
  const std::string lose =
      "  if [ ! -e " + dir.file("lost") + "$device ]; then touch " + dir.file("lost") + "$device; " +
      emit_result_for("name").substr(0, emit_result_for("name").size() - 1) + "; exit 70; fi\n";
  const scripted_worker worker(streaming_body(dir.file("log"), lose));
  const auto list = instances(six);
  const auto outcome = run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, worker.options());
  ASSERT_EQ(outcome.results.size(), list.size());
  for (const auto& result : outcome.results)
    EXPECT_EQ(result.status, case_status::passed) << result.instance << ": " << result.status_reason;
}

TEST(multi_device_runner, devices_of_different_gpu_keys_are_refused_before_any_case_runs) {
  const scratch_dir dir;
  const std::string body = read_device_from_request() + "if [ \"$device\" = 1 ]; then\n" +
                           emit(scripted_device_event(114)) + "else\n" + emit(scripted_device_event(132)) +
                           "fi\nwhile read -r position name; do echo \"$name\" >> " + dir.file("log") +
                           "; done\n";
  const scripted_worker worker(body);
  const auto list = instances(six);
  try {
    static_cast<void>(run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, worker.options()));
    FAIL() << "expected an input error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.code(), exit_code::invalid_input);
    const std::string message = e.what();
    EXPECT_NE(message.find("GH100-132sm-cuda13"), std::string::npos) << message;
    EXPECT_NE(message.find("GH100-114sm-cuda13"), std::string::npos) << message;
    EXPECT_NE(message.find("--devices"), std::string::npos) << message;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("log"))) << "a case was handed out";
}

TEST(multi_device_runner, a_worker_that_cannot_start_stops_the_run_naming_its_device) {
  const std::string body = read_device_from_request() +
                           "if [ \"$device\" = 1 ]; then echo 'no libcupti' >&2; exit 4; fi\n" +
                           emit(scripted_device_event()) + "while read -r position name; do :; done\n";
  const scripted_worker worker(body);
  const auto list = instances(six);
  try {
    static_cast<void>(run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, worker.options()));
    FAIL() << "expected an environment error";
  } catch (const environment_error& e) {
    EXPECT_NE(std::string(e.what()).find("device 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no libcupti"), std::string::npos) << e.what();
  }
}

bool process_alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string skipped;
  std::string state;
  stat >> skipped >> skipped >> state;
  return stat && state != "Z";
}

pid_t read_pid(const std::string& file) {
  for (int i = 0; i < 200 && !std::filesystem::exists(file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  pid_t pid = 0;
  std::ifstream(file) >> pid;
  return pid;
}

TEST(multi_device_runner, a_signal_stops_every_worker_and_what_they_started) {
  const scratch_dir dir;
  // Each device's worker starts a long child in its first case and records both process ids, each file
  // appearing whole (written aside, then renamed): a reader must never see one created but still empty.
  const std::string child = dir.file("child") + "$device";
  const std::string worker_file = dir.file("worker") + "$device";
  const std::string body = read_device_from_request() + emit(scripted_device_event()) +
                           "read -r position name\nsleep 60 &\necho $! > " + child + ".part && mv " + child +
                           ".part " + child + "\necho $$ > " + worker_file + ".part && mv " + worker_file +
                           ".part " + worker_file + "\nwait\n";
  const scripted_worker worker(body);
  const auto list = instances(six);
  const interruption_guard guard;
  std::thread sender([&] {
    read_pid(dir.file("worker0"));
    read_pid(dir.file("worker1"));
    ::kill(::getpid(), SIGTERM);
  });
  try {
    static_cast<void>(
        run_on_devices(list, std::vector<double>(list.size(), 1.0), {0, 1}, worker.options(30)));
    ADD_FAILURE() << "expected interrupted_error";
  } catch (const interrupted_error& e) {
    EXPECT_EQ(e.signal_number(), SIGTERM);
  }
  sender.join();
  for (const std::string device : {"0", "1"}) {
    const pid_t worker_pid = read_pid(dir.file("worker" + device));
    const pid_t child_pid = read_pid(dir.file("child" + device));
    ASSERT_GT(worker_pid, 0);
    ASSERT_GT(child_pid, 0);
    for (int i = 0; i < 50 && process_alive(child_pid); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(process_alive(worker_pid)) << "device " << device;
    EXPECT_FALSE(process_alive(child_pid)) << "device " << device << ": the worker's child outlived the run";
  }
}

}  // namespace
}  // namespace counterguard::test
