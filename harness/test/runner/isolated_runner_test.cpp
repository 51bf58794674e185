// SPDX-License-Identifier: Apache-2.0
// The parent side of worker isolation, with scripted stand-ins for the GPU worker: what happens when a worker
// hangs, crashes, cannot start, or reports an environment problem. No GPU needed.
#include "counterguard/runner/isolated_runner.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "counterguard/core/interruption.hpp"

namespace counterguard {
namespace {

case_instance instance(const std::string& name) {
  case_instance i;
  i.suite = "s";
  i.case_name = name;
  i.name = "s/" + name;
  i.kernel = "k";
  return i;
}

std::string device_event() {
  run_results wrapper;
  wrapper.metadata.device.name = "Scripted GPU";
  wrapper.metadata.device.chip = "GH100";
  return nlohmann::json{{"event", "device"}, {"results", wrapper}}.dump();
}

std::string result_event(const std::string& name) {
  run_results wrapper;
  case_result result;
  result.instance = "s/" + name;
  result.suite = "s";
  result.case_name = name;
  result.kernel = "k";
  result.verified = true;
  wrapper.cases.push_back(result);
  return nlohmann::json{{"event", "result"}, {"results", wrapper}}.dump();
}

// A stand-in worker: a shell script whose body writes events to descriptor 3 as the real one does.
class scripted_worker {
 public:
  explicit scripted_worker(const std::string& body) {
    m_path = std::filesystem::temp_directory_path() / ("counterguard-worker-" + std::to_string(::getpid()) +
                                                       "-" + std::to_string(counter()++) + ".sh");
    std::ofstream(m_path) << "#!/bin/sh\n" << body;
    ::chmod(m_path.c_str(), 0755);
  }
  scripted_worker(const scripted_worker&) = delete;
  scripted_worker& operator=(const scripted_worker&) = delete;
  ~scripted_worker() { std::filesystem::remove(m_path); }

  [[nodiscard]] isolated_run_options options(double timeout_seconds = 5.0) const {
    isolated_run_options o;
    o.executable = m_path.string();
    o.case_timeout_seconds = timeout_seconds;
    o.echo_progress = false;
    o.lock_gpu = false;
    return o;
  }

 private:
  static int& counter() {
    static int next = 0;
    return next;
  }
  std::filesystem::path m_path;
};

std::string emit(const std::string& json) {
  return "echo '" + json + "' >&3\n";
}

TEST(isolated_runner, collects_one_result_per_case_in_order) {
  const scripted_worker worker(
      emit(device_event()) + emit(R"({"event":"begin","instance":"s/a","position":0})") +
      emit(result_event("a")) + emit(R"({"event":"begin","instance":"s/b","position":1})") +
      emit(result_event("b")));
  const auto outcome = run_isolated({instance("a"), instance("b")}, worker.options());
  ASSERT_EQ(outcome.results.size(), 2U);
  EXPECT_EQ(outcome.results[0].instance, "s/a");
  EXPECT_EQ(outcome.results[1].instance, "s/b");
  EXPECT_EQ(outcome.device.name, "Scripted GPU");
}

TEST(isolated_runner, a_worker_that_runs_the_cases_in_its_own_order_gives_results_in_the_order_given) {
  // The worker profiles by configuration, not in suite order: each result belongs to the position its begin
  // event named.
  const scripted_worker worker(
      emit(device_event()) + emit(R"({"event":"begin","instance":"s/c","position":2})") +
      emit(result_event("c")) + emit(R"({"event":"begin","instance":"s/a","position":0})") +
      emit(result_event("a")) + emit(R"({"event":"begin","instance":"s/b","position":1})") +
      emit(result_event("b")));
  const auto outcome = run_isolated({instance("a"), instance("b"), instance("c")}, worker.options());
  ASSERT_EQ(outcome.results.size(), 3U);
  EXPECT_EQ(outcome.results[0].instance, "s/a");
  EXPECT_EQ(outcome.results[1].instance, "s/b");
  EXPECT_EQ(outcome.results[2].instance, "s/c");
}

TEST(isolated_runner, a_worker_dying_in_a_case_it_chose_fails_that_case_and_the_rest_run_again) {
  // The first worker begins the second case and dies; the second worker (handed a and c) runs them.
  const std::string marker =
      (std::filesystem::temp_directory_path() / ("counterguard-order-marker-" + std::to_string(::getpid())))
          .string();
  std::filesystem::remove(marker);
  const scripted_worker worker(
      emit(device_event()) + "if [ ! -e " + marker + " ]; then\n  touch " + marker + "\n" +
      emit(R"({"event":"begin","instance":"s/b","position":1})") + "  exit 9\nfi\n" +
      emit(R"({"event":"begin","instance":"s/c","position":1})") + emit(result_event("c")) +
      emit(R"({"event":"begin","instance":"s/a","position":0})") + emit(result_event("a")));
  const auto outcome = run_isolated({instance("a"), instance("b"), instance("c")}, worker.options());
  std::filesystem::remove(marker);
  ASSERT_EQ(outcome.results.size(), 3U);
  EXPECT_EQ(outcome.results[0].status, case_status::passed);
  EXPECT_EQ(outcome.results[1].instance, "s/b");
  EXPECT_EQ(outcome.results[1].status, case_status::error);
  EXPECT_NE(outcome.results[1].status_reason.find("status 9"), std::string::npos)
      << outcome.results[1].status_reason;
  EXPECT_EQ(outcome.results[2].instance, "s/c");
  EXPECT_EQ(outcome.results[2].status, case_status::passed);
}

TEST(isolated_runner, a_result_for_a_case_the_worker_did_not_begin_is_an_internal_error) {
  for (const std::string& script :
       {emit(R"({"event":"begin","instance":"s/b","position":0})") + emit(result_event("b")),
        emit(R"({"event":"begin","instance":"s/a","position":0})") + emit(result_event("b")),
        emit(result_event("a"))}) {
    const scripted_worker worker(emit(device_event()) + script);
    EXPECT_THROW(static_cast<void>(run_isolated({instance("a")}, worker.options())), internal_error)
        << script;
  }
}

// A worker that reports its one case, then takes 2 s to exit and leaves `exited` behind when it has.
std::string slow_exit_body(const std::filesystem::path& exited) {
  return emit(device_event()) + emit(R"({"event":"begin","instance":"s/a","position":0})") +
         emit(result_event("a")) + "exec 3>&-\nsleep 2\ntouch " + exited.string() + "\n";
}

TEST(isolated_runner, the_worker_that_delivered_every_result_exits_while_the_caller_goes_on) {
  // CUDA's teardown need not hold up the reports: the outcome comes back while the worker is still exiting,
  // and wait_for_exiting_worker waits for it.
  const auto exited =
      std::filesystem::temp_directory_path() / ("counterguard-exited-" + std::to_string(::getpid()));
  std::filesystem::remove(exited);
  const scripted_worker worker(slow_exit_body(exited));
  auto outcome = run_isolated({instance("a")}, worker.options());
  ASSERT_EQ(outcome.results.size(), 1U);
  EXPECT_FALSE(std::filesystem::exists(exited)) << "the caller waited for the worker to exit";
  ASSERT_TRUE(outcome.exiting);
  wait_for_exiting_worker(outcome);
  EXPECT_TRUE(std::filesystem::exists(exited)) << "wait_for_exiting_worker did not wait";
  EXPECT_FALSE(outcome.exiting);
  std::filesystem::remove(exited);
}

TEST(isolated_runner, an_exiting_worker_let_go_finishes_on_its_own_rather_than_being_stopped) {
  const auto exited =
      std::filesystem::temp_directory_path() / ("counterguard-let-go-" + std::to_string(::getpid()));
  std::filesystem::remove(exited);
  const scripted_worker worker(slow_exit_body(exited));
  {
    const auto outcome = run_isolated({instance("a")}, worker.options());
    ASSERT_EQ(outcome.results.size(), 1U);
  }
  EXPECT_FALSE(std::filesystem::exists(exited)) << "letting the outcome go waited for the worker";
  for (int i = 0; i < 100 && !std::filesystem::exists(exited); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(std::filesystem::exists(exited)) << "the worker was stopped instead of left to exit";
  std::filesystem::remove(exited);
}

TEST(isolated_runner, fail_fast_stops_the_worker_after_a_failing_case_and_reports_the_rest_not_run) {
  // The worker would take 30 s over its third case: stopped after the second, the run ends at once.
  const scripted_worker worker(
      emit(device_event()) + emit(R"({"event":"begin","instance":"s/a","position":0})") +
      emit(result_event("a")) + emit(R"({"event":"begin","instance":"s/b","position":1})") +
      emit(result_event("b")) + emit(R"({"event":"begin","instance":"s/c","position":2})") + "sleep 30\n" +
      emit(result_event("c")));
  isolated_run_options options = worker.options();
  std::vector<std::string> judged;
  options.stop_after = [&judged](std::size_t index, const case_result& result,
                                 const device_description& device) {
    judged.push_back(std::to_string(index) + " " + result.instance + " on " + device.name);
    return result.instance == "s/b";
  };
  const auto started = std::chrono::steady_clock::now();
  const auto outcome = run_isolated({instance("a"), instance("b"), instance("c"), instance("d")}, options);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 10.0);
  EXPECT_EQ(judged, (std::vector<std::string>{"0 s/a on Scripted GPU", "1 s/b on Scripted GPU"}));
  ASSERT_EQ(outcome.results.size(), 4U);
  EXPECT_EQ(outcome.results[1].status, case_status::passed) << "its own result, as reported";
  for (std::size_t i : {2U, 3U}) {
    EXPECT_EQ(outcome.results[i].instance, "s/" + std::string(1, static_cast<char>('a' + i)));
    EXPECT_EQ(outcome.results[i].status, case_status::skipped);
    EXPECT_EQ(outcome.results[i].status_reason, not_run_reason("s/b"));
  }
}

TEST(isolated_runner, a_case_that_stays_silent_past_the_timeout_fails_alone) {
  // Every worker hangs in its first case; each case is killed after the timeout and the next one still runs.
  // (It begins the first case of its request, whichever that is.)
  const scripted_worker worker(
      emit(device_event()) + "name=$(sed -n 's/.*\"instances\":\\[\"\\([^\"]*\\)\".*/\\1/p' \"$2\")\n" +
      "echo \"{\\\"event\\\":\\\"begin\\\",\\\"instance\\\":\\\"$name\\\",\\\"position\\\":0}\" >&3\n" +
      "sleep 30\n");
  const auto outcome = run_isolated({instance("a"), instance("b")}, worker.options(0.5));
  ASSERT_EQ(outcome.results.size(), 2U);
  for (const auto& result : outcome.results) {
    EXPECT_EQ(result.status, case_status::error);
    EXPECT_NE(result.status_reason.find("timed out"), std::string::npos) << result.status_reason;
  }
}

TEST(isolated_runner, a_worker_that_dies_mid_case_fails_that_case_with_its_last_words) {
  const scripted_worker worker(emit(device_event()) +
                               emit(R"({"event":"begin","instance":"s/a","position":0})") +
                               "echo 'kernel exploded' >&2\nexit 9\n");
  const auto outcome = run_isolated({instance("a")}, worker.options());
  ASSERT_EQ(outcome.results.size(), 1U);
  EXPECT_EQ(outcome.results[0].status, case_status::error);
  EXPECT_NE(outcome.results[0].status_reason.find("status 9"), std::string::npos)
      << outcome.results[0].status_reason;
  EXPECT_NE(outcome.results[0].status_reason.find("kernel exploded"), std::string::npos);
}

TEST(isolated_runner, a_lost_cuda_context_restarts_the_worker_for_the_remaining_cases) {
  // The first worker reports its case and exits with the context-lost status; the second one runs the rest.
  const std::string marker =
      (std::filesystem::temp_directory_path() / "counterguard-restart-marker").string();
  std::filesystem::remove(marker);
  const scripted_worker worker(emit(device_event()) + "if [ ! -e " + marker + " ]; then\n  touch " + marker +
                               "\n" + emit(R"({"event":"begin","instance":"s/a","position":0})") +
                               emit(result_event("a")) + "  exit 70\nfi\n" +
                               emit(R"({"event":"begin","instance":"s/b","position":0})") +
                               emit(result_event("b")));
  const auto outcome = run_isolated({instance("a"), instance("b")}, worker.options());
  std::filesystem::remove(marker);
  ASSERT_EQ(outcome.results.size(), 2U);
  EXPECT_EQ(outcome.results[1].instance, "s/b");
  EXPECT_EQ(outcome.results[1].status, case_status::passed);
}

TEST(isolated_runner, each_worker_gets_its_part_of_the_runs_plan_once_it_reports_its_device) {
  // Two cases of two configurations; the first worker loses its context after the first case, so a second
  // worker is started for the other, and is sent only the configuration that case uses.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("counterguard-plan-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string marker = (dir / "restarted").string();
  const std::string first = (dir / "first").string();
  const std::string second = (dir / "second").string();
  const scripted_worker worker(
      emit(device_event()) + "if [ ! -e " + marker + " ]; then\n  touch " + marker + "\n  read -r line\n" +
      "  echo \"$line\" > " + first + "\n  grep -q expected_chip \"$2\" && echo request >> " + first + "\n" +
      emit(R"({"event":"begin","instance":"s/a","position":0})") + emit(result_event("a")) +
      "  exit 70\nfi\n" + "read -r line\necho \"$line\" > " + second + "\n" +
      emit(R"({"event":"begin","instance":"s/b","position":0})") + emit(result_event("b")));
  isolated_run_options options = worker.options();
  options.chip = "GH100";
  worker_plan plan;
  plan.chip = "GH100";
  plan.configurations = {{{"x.sum"}, 1}, {{"y.sum"}, 2}};
  plan.configuration_of = {0, 1};
  std::promise<worker_plan> planned;
  planned.set_value(plan);
  options.plan = planned.get_future().share();
  const auto outcome = run_isolated({instance("a"), instance("b")}, options);
  ASSERT_EQ(outcome.results.size(), 2U);
  EXPECT_EQ(outcome.results[1].status, case_status::passed);
  std::string line;
  std::string request;
  {
    std::ifstream in(first);
    std::getline(in, line);
    std::getline(in, request);
  }
  EXPECT_EQ(request, "request") << "the request says a plan comes";
  const worker_plan whole = decode_worker_plan(line);
  EXPECT_EQ(whole.configuration_of, (std::vector<int>{0, 1}));
  EXPECT_EQ(whole.configurations.size(), 2U);
  {
    std::ifstream in(second);
    std::getline(in, line);
  }
  const worker_plan part = decode_worker_plan(line);
  EXPECT_EQ(part.configuration_of, (std::vector<int>{0}));
  ASSERT_EQ(part.configurations.size(), 1U);
  EXPECT_EQ(part.configurations[0].raw_metrics, (std::vector<std::string>{"y.sum"}));
  std::filesystem::remove_all(dir);
}

TEST(isolated_runner, a_worker_that_cannot_start_stops_the_run_with_its_message) {
  const scripted_worker worker("echo 'cannot load libcupti' >&2\nexit 4\n");
  try {
    static_cast<void>(run_isolated({instance("a")}, worker.options()));
    FAIL() << "expected an error";
  } catch (const environment_error& e) {
    EXPECT_EQ(e.problem(), environment_problem::process);
    EXPECT_NE(std::string(e.what()).find("cannot load libcupti"), std::string::npos) << e.what();
  }
}

TEST(isolated_runner, an_environment_problem_is_reported_not_turned_into_case_failures) {
  const scripted_worker worker(
      emit(
          R"({"event":"environment_error","problem":"insufficient_privileges","message":"insufficient privileges"})") +
      "exit 3\n");
  const auto outcome = run_isolated({instance("a")}, worker.options());
  ASSERT_TRUE(outcome.environment.has_value());
  EXPECT_EQ(*outcome.environment, environment_problem::insufficient_privileges);
  EXPECT_TRUE(outcome.results.empty());
}

bool process_alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string skipped;
  std::string state;
  stat >> skipped >> skipped >> state;
  return stat && state != "Z";  // a zombie has ended; only its exit status waits to be collected
}

pid_t read_pid(const std::filesystem::path& file) {
  for (int i = 0; i < 100 && !std::filesystem::exists(file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  pid_t pid = 0;
  std::ifstream(file) >> pid;
  return pid;
}

TEST(isolated_runner, a_signal_stops_the_worker_and_everything_it_started_then_reports_the_interruption) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("counterguard-signal-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // Each pid file appears whole (written aside, then renamed): the signal may stop the worker mid-write.
  const std::string child = (dir / "child").string();
  const std::string worker_file = (dir / "worker").string();
  const scripted_worker worker(
      emit(device_event()) + emit(R"({"event":"begin","instance":"s/a","position":0})") +
      "sleep 60 &\necho $! > " + child + ".new && mv " + child + ".new " + child + "\necho $$ > " +
      worker_file + ".new && mv " + worker_file + ".new " + worker_file + "\nwait\n");
  const interruption_guard guard;
  std::thread sender([&] {
    read_pid(dir / "worker");
    ::kill(::getpid(), SIGTERM);
  });
  try {
    static_cast<void>(run_isolated({instance("a"), instance("b")}, worker.options(30.0)));
    ADD_FAILURE() << "expected interrupted_error";
  } catch (const interrupted_error& e) {
    EXPECT_EQ(e.signal_number(), SIGTERM);
    EXPECT_EQ(e.exit_status(), 128 + SIGTERM);
  }
  sender.join();
  const pid_t worker_pid = read_pid(dir / "worker");
  const pid_t child_pid = read_pid(dir / "child");
  ASSERT_GT(worker_pid, 0);
  ASSERT_GT(child_pid, 0);
  for (int i = 0; i < 50 && process_alive(child_pid); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(process_alive(worker_pid));
  EXPECT_FALSE(process_alive(child_pid)) << "the worker's own child outlived the run";
  std::filesystem::remove_all(dir);
}

TEST(isolated_runner, the_request_file_is_removed_however_the_worker_ends) {
  // The worker says where its request file is; it must be gone after a clean run and after a crash.
  const auto note =
      std::filesystem::temp_directory_path() / ("counterguard-request-" + std::to_string(::getpid()));
  for (const std::string& ending :
       {emit(R"({"event":"begin","instance":"s/a","position":0})") + emit(result_event("a")),
        std::string("exit 9\n")}) {
    const scripted_worker worker("echo \"$2\" > " + note.string() + "\n" + emit(device_event()) + ending);
    static_cast<void>(run_isolated({instance("a")}, worker.options()));
    std::string request;
    std::ifstream(note) >> request;
    EXPECT_FALSE(request.empty());
    EXPECT_FALSE(std::filesystem::exists(request)) << request;
  }
  std::filesystem::remove(note);
}

}  // namespace
}  // namespace counterguard
