// The parent side of worker isolation, with scripted stand-ins for the GPU worker: what happens when a worker
// hangs, crashes, cannot start, or reports an environment problem. No GPU needed.
#include "counterguard/runner/isolated_runner.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

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
  wrapper.metadata.gpu_name = "Scripted GPU";
  wrapper.metadata.chip = "GH100";
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
  const scripted_worker worker(emit(device_event()) + emit(R"({"event":"begin","instance":"s/a"})") +
                               emit(result_event("a")) + emit(R"({"event":"begin","instance":"s/b"})") +
                               emit(result_event("b")));
  const auto outcome = run_isolated({instance("a"), instance("b")}, worker.options());
  ASSERT_EQ(outcome.results.size(), 2U);
  EXPECT_EQ(outcome.results[0].instance, "s/a");
  EXPECT_EQ(outcome.results[1].instance, "s/b");
  EXPECT_EQ(outcome.device.gpu_name, "Scripted GPU");
}

TEST(isolated_runner, a_case_that_stays_silent_past_the_timeout_fails_alone) {
  // Every worker hangs in its first case; each case is killed after the timeout and the next one still runs.
  const scripted_worker worker(emit(device_event()) + emit(R"({"event":"begin","instance":"s/a"})") +
                               "sleep 30\n");
  const auto outcome = run_isolated({instance("a"), instance("b")}, worker.options(0.5));
  ASSERT_EQ(outcome.results.size(), 2U);
  for (const auto& result : outcome.results) {
    EXPECT_EQ(result.status, case_status::error);
    EXPECT_NE(result.status_reason.find("timed out"), std::string::npos) << result.status_reason;
  }
}

TEST(isolated_runner, a_worker_that_dies_mid_case_fails_that_case_with_its_last_words) {
  const scripted_worker worker(emit(device_event()) + emit(R"({"event":"begin","instance":"s/a"})") +
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
                               "\n" + emit(result_event("a")) + "  exit 70\nfi\n" + emit(result_event("b")));
  const auto outcome = run_isolated({instance("a"), instance("b")}, worker.options());
  std::filesystem::remove(marker);
  ASSERT_EQ(outcome.results.size(), 2U);
  EXPECT_EQ(outcome.results[1].instance, "s/b");
  EXPECT_EQ(outcome.results[1].status, case_status::passed);
}

TEST(isolated_runner, a_worker_that_cannot_start_stops_the_run_with_its_message) {
  const scripted_worker worker("echo 'cannot load libcupti' >&2\nexit 4\n");
  try {
    static_cast<void>(run_isolated({instance("a")}, worker.options()));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load libcupti"), std::string::npos) << e.what();
  }
}

TEST(isolated_runner, an_environment_problem_is_reported_not_turned_into_case_failures) {
  const scripted_worker worker(
      emit(R"({"event":"environment_error","problem":1,"message":"insufficient privileges"})") + "exit 3\n");
  const auto outcome = run_isolated({instance("a")}, worker.options());
  ASSERT_TRUE(outcome.environment.has_value());
  EXPECT_EQ(*outcome.environment, environment_problem::insufficient_privileges);
  EXPECT_TRUE(outcome.results.empty());
}

}  // namespace
}  // namespace counterguard
