// SPDX-License-Identifier: Apache-2.0
// The HTML report as a browser sees it: headless Chromium (Debian package `chromium`, installed by
// `tools/setup.sh --browser`) loads the report of the run recorded on the H200 with a trend history, and
// the tests check that its script ran without errors, that every plot is in the DOM, and that it renders.
// Without Chromium the tests are skipped, saying so.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "counterguard/reporters/html_reporter.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// COUNTERGUARD_CHROMIUM, else `chromium` or `chromium-browser` on the PATH.
std::optional<std::string> find_chromium() {
  if (const char* chosen = std::getenv("COUNTERGUARD_CHROMIUM"); chosen != nullptr && *chosen != '\0')
    return std::string(chosen);
  const char* path = std::getenv("PATH");
  std::stringstream directories(path == nullptr ? "" : path);
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path candidate = fs::path(directory) / name;
      if (::access(candidate.c_str(), X_OK) == 0)
        return candidate.string();
    }
  }
  return std::nullopt;
}

// A directory removed at the end of the test suite.
class scratch_directory {
 public:
  scratch_directory() {
    std::string pattern = (fs::temp_directory_path() / "counterguard-html-XXXXXX").string();
    m_path = ::mkdtemp(pattern.data());
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  ~scratch_directory() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  [[nodiscard]] const fs::path& path() const { return m_path; }

 private:
  fs::path m_path;
};

struct browser_result {
  int status = -1;
  std::string out;  // stdout (the DOM with --dump-dom)
  std::string log;  // stderr (Chromium's log, console messages included)
};

// Runs headless Chromium on `page` with a fresh profile and no network services.
browser_result run_chromium(const std::string& chromium, const fs::path& work, const std::string& arguments,
                            const fs::path& page) {
  static int run = 0;
  const fs::path profile = work / ("profile-" + std::to_string(++run));
  fs::create_directories(profile);
  const fs::path out = work / ("out-" + std::to_string(run) + ".txt");
  const fs::path log = work / ("log-" + std::to_string(run) + ".txt");
  const std::string command = "timeout 120 '" + chromium +
                              "' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                              "--disable-background-networking --disable-component-update --disable-sync "
                              "--enable-logging=stderr --v=0 --user-data-dir='" +
                              profile.string() + "' " + arguments + " 'file://" + page.string() + "' >'" +
                              out.string() + "' 2>'" + log.string() + "'";
  browser_result result;
  const int status = std::system(command.c_str());
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.log = read_file(log);
  return result;
}

// Lines of Chromium's log that report a script error or any console output (the report's script logs
// nothing, so any console message is a problem).
std::string console_problems(const std::string& log) {
  std::string problems;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("Uncaught") != std::string::npos || line.find("CONSOLE") != std::string::npos)
      problems += line + "\n";
  }
  return problems;
}

// A history of six runs for some metrics of the recorded run. SYNTHETIC: the values are the recording's,
// the noisy ones moved by a fixed pattern, with a baseline band per run that is refreshed once, and one
// regression at the latest run.
std::vector<metric_history> synthetic_history(const run_results& results) {
  static const char* const commits[] = {
      "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d", "2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e",
      "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f", "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70",
      "5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081", "6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192"};
  static const double wobble[] = {0.0, 0.012, -0.008, 0.02, -0.015, 0.005};
  std::vector<metric_history> history;
  for (const auto& c : results.cases) {
    if (c.suite != "transpose" && c.suite != "occupancy")
      continue;
    for (const auto& [metric, total] : c.totals) {
      if (total.cls == metric_class::static_resource || !std::isfinite(total.value))
        continue;
      metric_history series;
      series.gpu_key = results.metadata.gpu_key;
      series.instance = c.instance;
      series.kernel = "total";
      series.metric = metric;
      series.cls = total.cls;
      for (std::size_t run = 0; run < 6; ++run) {
        history_point p;
        p.run_id = std::to_string(run + 1);
        p.git_commit = commits[run];
        p.started_at = "2026-11-2" + std::to_string(run + 1) + "T03:00:00Z";
        const bool noisy = total.cls == metric_class::noisy;
        p.value = noisy ? total.value * (1.0 + wobble[run]) : total.value;
        const double width = noisy ? std::max(1.0, std::abs(total.value) * (run < 3 ? 0.05 : 0.03)) : 0.0;
        p.band_low = total.value - width;
        p.band_high = total.value + width;
        p.verdict = "pass";
        series.points.push_back(p);
      }
      history.push_back(series);
    }
  }
  if (!history.empty()) {  // the planted regression: the latest run of the first series moved up
    history_point& last = history.front().points.back();
    last.value = *last.band_high + std::max(32.0, std::abs(last.value) * 0.5);
    last.verdict = "regression";
  }
  return history;
}

// The series the report draws: those whose value, band or verdict moved (an unchanged series is counted, not
// drawn).
std::size_t changing_series(const std::vector<metric_history>& history) {
  std::size_t n = 0;
  for (const auto& series : history) {
    const history_point& first = series.points.front();
    for (const auto& p : series.points) {
      if (p.value != first.value || p.band_low != first.band_low || p.band_high != first.band_high ||
          p.verdict != "pass") {
        ++n;
        break;
      }
    }
  }
  return n;
}

class html_report_in_chromium : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_chromium = find_chromium();
    if (!s_chromium)
      return;
    s_work = std::make_unique<scratch_directory>();
    std::ifstream in(std::string(COUNTERGUARD_SOURCE_DIR) +
                     "/harness/test/fixtures/h200_builtin/results.json");
    const run_results results = nlohmann::json::parse(in).get<run_results>();
    s_history = synthetic_history(results);
    s_drawn = changing_series(s_history);
    s_page = s_work->path() / "report.html";
    write_html_report(s_page.string(), judge_run(results, false), s_history);
  }
  static void TearDownTestSuite() {
    s_dom.reset();
    s_work.reset();
  }

  void SetUp() override {
    if (!s_chromium) {
      GTEST_SKIP() << "chromium is not installed: install the Debian package `chromium` "
                      "(tools/setup.sh --browser) or set COUNTERGUARD_CHROMIUM to run the browser tests";
    }
  }

  // The DOM after the page's script ran (each ctest process runs one test: only those that need it load it).
  static const browser_result& dom() {
    if (!s_dom)
      s_dom = run_chromium(*s_chromium, s_work->path(), "--dump-dom", s_page);
    return *s_dom;
  }

  static inline std::optional<std::string> s_chromium;
  static inline std::unique_ptr<scratch_directory> s_work;
  static inline std::vector<metric_history> s_history;
  static inline std::size_t s_drawn = 0;
  static inline fs::path s_page;
  static inline std::optional<browser_result> s_dom;
};

TEST_F(html_report_in_chromium, loads_without_console_errors) {
  ASSERT_EQ(dom().status, 0) << dom().log;
  EXPECT_EQ(console_problems(dom().log), "");
}

TEST_F(html_report_in_chromium, runs_its_script_to_the_end) {
  // The script's last statement sets data-cg-ready to the number of plots it found; the file has no such
  // attribute, so seeing it proves the script ran through.
  EXPECT_EQ(read_file(s_page).find("data-cg-ready=\""), std::string::npos);
  EXPECT_NE(dom().out.find("data-cg-ready=\"" + std::to_string(s_drawn) + "\""), std::string::npos)
      << dom().out.substr(0, 300);
}

TEST_F(html_report_in_chromium, has_every_trend_plot_in_the_dom) {
  ASSERT_GE(s_drawn, 5U) << "the synthetic history should cover several changing series";
  EXPECT_EQ(count(dom().out, "<svg class=\"cg-plot"), s_drawn);
  EXPECT_EQ(count(dom().out, "<path class=\"band\""), s_drawn);
  EXPECT_EQ(count(dom().out, "<circle class=\"pt bad\""), 1U);  // the planted regression
}

TEST_F(html_report_in_chromium, renders_a_screenshot) {
  const fs::path png = s_work->path() / "report.png";
  const browser_result shot = run_chromium(
      *s_chromium, s_work->path(), "--screenshot='" + png.string() + "' --window-size=1400,2000", s_page);
  ASSERT_EQ(shot.status, 0) << shot.log;
  EXPECT_EQ(console_problems(shot.log), "");
  const std::string image = read_file(png);
  ASSERT_GT(image.size(), 10'000U) << "a blank page would compress to almost nothing";
  EXPECT_EQ(image.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  // IHDR: width and height, big-endian, at bytes 16 and 20.
  auto be32 = [&image](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(image[at])) << 24) |
           (static_cast<unsigned>(static_cast<unsigned char>(image[at + 1])) << 16) |
           (static_cast<unsigned>(static_cast<unsigned char>(image[at + 2])) << 8) |
           static_cast<unsigned>(static_cast<unsigned char>(image[at + 3]));
  };
  EXPECT_EQ(be32(16), 1400U);
  EXPECT_EQ(be32(20), 2000U);
}

TEST_F(html_report_in_chromium, the_console_check_catches_a_script_error) {
  // The control for loads_without_console_errors: the same scan finds an error when there is one.
  const fs::path broken = s_work->path() / "broken.html";
  std::ofstream(broken) << "<!DOCTYPE html><html><body><script>no_such_function();</script></body></html>\n";
  const browser_result result = run_chromium(*s_chromium, s_work->path(), "--dump-dom", broken);
  EXPECT_NE(console_problems(result.log).find("Uncaught"), std::string::npos) << result.log;
}

}  // namespace
}  // namespace counterguard
