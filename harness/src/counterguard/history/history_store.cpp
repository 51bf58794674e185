// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/history_store.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <tuple>

#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/history/checked_band.hpp"
#include "detail/history_schema.hpp"
#include "detail/sqlite_database.hpp"

namespace counterguard {
namespace {

using detail::sqlite_database;
using detail::sqlite_statement;

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::array<char, 32> stamp{};
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(stamp.data(), stamp.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return stamp.data();
}

// SQLite's LIMIT: -1 is no limit.
std::int64_t limit_of(std::size_t last_n) {
  return last_n == 0 ? -1 : static_cast<std::int64_t>(last_n);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// A status the store did not write (another program's, or a damaged file) is refused rather than read as
// `error`: a history that says a case errored when it did not misleads every comparison made from it.
case_status parse_case_status(const std::string& text, const std::string& database, std::int64_t run_id) {
  std::string valid;
  for (auto status : {case_status::passed, case_status::failed, case_status::skipped, case_status::error}) {
    if (text == to_string(status))
      return status;
    valid += (valid.empty() ? "" : ", ") + std::string(to_string(status));
  }
  throw input_error({database}, "cases.status",
                    "run " + std::to_string(run_id) + " holds a case of unknown status '" + text + "'",
                    "one of " + valid + " (restore the database from a backup or start a new file)");
}

metric_class parse_class(const std::string& text) {
  return parse_metric_class(text).value_or(metric_class::exact);
}

// How much a verdict matters, for the one verdict a history point shows.
int severity(const std::string& verdict) {
  static const std::map<std::string, int> order{{"pass", 0},    {"new_metric", 1}, {"improvement", 2},
                                                {"missing", 3}, {"regression", 4}, {"fail", 5}};
  const auto found = order.find(verdict);
  return found == order.end() ? 0 : found->second;
}

// The runs columns that make up run_metadata and run_record, in this order.
constexpr const char* run_columns =
    "r.id, r.gpu_key, r.chip, r.gpu_name, r.sm_count, r.compute_capability, r.driver_version, "
    "r.cuda_runtime_version, r.cupti_version, r.sm_clock_mhz, r.memory_clock_mhz, r.git_commit, "
    "r.started_at, "
    "r.mode, r.command_line, r.counterguard_version, r.source, r.content_hash, r.recorded_at";

run_record read_run(const sqlite_statement& s) {
  run_record run;
  run.id = s.integer(0);
  run_metadata& m = run.metadata;
  m.gpu_key = s.text(1);
  m.device.chip = s.text(2);
  m.device.name = s.text(3);
  m.device.sm_count = static_cast<int>(s.integer(4));
  m.device.compute_capability = static_cast<int>(s.integer(5));
  m.device.driver_version = s.text(6);
  m.device.cuda_runtime_version = s.text(7);
  m.device.cupti_version = s.text(8);
  m.device.sm_clock_mhz = static_cast<int>(s.integer(9));
  m.device.memory_clock_mhz = static_cast<int>(s.integer(10));
  m.git_commit = s.text(11);
  m.started_at = s.text(12);
  m.mode = s.text(13);
  m.command_line = s.text(14);
  m.counterguard_version = s.text(15);
  run.source = s.text(16);
  run.content_hash = s.text(17);
  run.recorded_at = s.text(18);
  return run;
}

// The case counts after the run columns (19..23).
constexpr const char* run_count_columns =
    ", count(c.id), coalesce(sum(c.status = 'passed'), 0), coalesce(sum(c.status = 'failed'), 0), "
    "coalesce(sum(c.status = 'skipped'), 0), coalesce(sum(c.status = 'error'), 0)";

void read_counts(const sqlite_statement& s, run_record& run) {
  run.cases = static_cast<int>(s.integer(19));
  run.passed = static_cast<int>(s.integer(20));
  run.failed = static_cast<int>(s.integer(21));
  run.skipped = static_cast<int>(s.integer(22));
  run.errors = static_cast<int>(s.integer(23));
}

std::int64_t insert_run(sqlite_database& db, const run_metadata& m, const history_source& source) {
  sqlite_statement s = db.prepare(
      "INSERT INTO runs (gpu_key, chip, gpu_name, sm_count, compute_capability, driver_version, "
      "cuda_runtime_version, cupti_version, sm_clock_mhz, memory_clock_mhz, git_commit, started_at, mode, "
      "command_line, counterguard_version, source, content_hash, recorded_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
  s.bind(1, m.gpu_key)
      .bind(2, m.device.chip)
      .bind(3, m.device.name)
      .bind(4, std::int64_t{m.device.sm_count})
      .bind(5, std::int64_t{m.device.compute_capability})
      .bind(6, m.device.driver_version)
      .bind(7, m.device.cuda_runtime_version)
      .bind(8, m.device.cupti_version)
      .bind(9, std::int64_t{m.device.sm_clock_mhz})
      .bind(10, std::int64_t{m.device.memory_clock_mhz})
      .bind(11, m.git_commit)
      .bind(12, m.started_at)
      .bind(13, m.mode)
      .bind(14, m.command_line)
      .bind(15, m.counterguard_version)
      .bind(16, source.origin)
      .bind(17, source.content_hash)
      .bind(18, utc_now());
  s.step();
  return db.last_insert_id();
}

// Series rows of one GPU key, each (instance, kernel key, metric) limited to its last N runs. `filter` adds
// conditions on c.instance / m.kernel_key / m.metric bound from ?3 on.
std::string ranked_values_sql(const std::string& filter) {
  return "WITH ranked AS (SELECT r.id AS run_id, r.git_commit, r.started_at, c.id AS case_id, c.instance, "
         "m.kernel_key, m.metric, m.value, m.class, row_number() OVER (PARTITION BY c.instance, "
         "m.kernel_key, "
         "m.metric ORDER BY r.started_at DESC, r.id DESC) AS age FROM runs r JOIN cases c ON c.run_id = r.id "
         "JOIN metrics m ON m.case_id = c.id WHERE r.gpu_key = ?1" +
         filter + "), chosen AS (SELECT * FROM ranked WHERE ?2 < 0 OR age <= ?2) ";
}

struct point_key {
  std::int64_t case_id;
  std::string kernel;
  std::string metric;
  bool operator<(const point_key& other) const {
    return std::tie(case_id, kernel, metric) < std::tie(other.case_id, other.kernel, other.metric);
  }
};

struct point_checks {
  std::string verdict;
  int verdict_severity = -1;
  std::optional<double> band_low;
  std::optional<double> band_high;
};

std::vector<metric_history> query_series(const sqlite_database& db, const std::string& gpu_key,
                                         const std::string& filter,
                                         const std::vector<std::string>& filter_values, std::size_t last_n) {
  const std::string with = ranked_values_sql(filter);
  const auto bind_all = [&](sqlite_statement& s) {
    s.bind(1, gpu_key).bind(2, limit_of(last_n));
    for (std::size_t i = 0; i < filter_values.size(); ++i)
      s.bind(static_cast<int>(i) + 3, filter_values[i]);
  };

  // The checks of the chosen points: the most severe verdict, and the band of the baseline check.
  std::map<point_key, point_checks> checks;
  sqlite_statement k = db.prepare(
      with +
      "SELECT k.case_id, k.kernel, k.metric, k.origin, k.band_low, k.band_high, k.verdict FROM checks k "
      "WHERE k.case_id IN (SELECT DISTINCT case_id FROM chosen)");
  bind_all(k);
  while (k.step()) {
    const std::string kernel = k.text(1).empty() ? baseline_total_key : k.text(1);
    point_checks& entry = checks[{k.integer(0), kernel, k.text(2)}];
    const std::string verdict = k.text(6);
    if (severity(verdict) > entry.verdict_severity) {
      entry.verdict = verdict;
      entry.verdict_severity = severity(verdict);
    }
    if (k.text(3) == "baseline" && !k.is_null(4) && !k.is_null(5)) {
      entry.band_low = k.number(4);
      entry.band_high = k.number(5);
    }
  }

  std::vector<metric_history> series;
  sqlite_statement s =
      db.prepare(with +
                 "SELECT run_id, git_commit, started_at, case_id, instance, kernel_key, metric, "
                 "value, class FROM chosen ORDER BY instance, kernel_key = '" +
                 std::string(baseline_total_key) + "' DESC, kernel_key, metric, started_at, run_id");
  bind_all(s);
  while (s.step()) {
    const std::string instance = s.text(4);
    const std::string kernel = s.text(5);
    const std::string metric = s.text(6);
    if (series.empty() || series.back().instance != instance || series.back().kernel != kernel ||
        series.back().metric != metric) {
      metric_history h;
      h.gpu_key = gpu_key;
      h.instance = instance;
      h.kernel = kernel;
      h.metric = metric;
      series.push_back(std::move(h));
    }
    metric_history& h = series.back();
    h.cls = parse_class(s.text(8));  // the newest run's class wins (rows are oldest first)
    history_point point;
    point.run_id = std::to_string(s.integer(0));
    point.git_commit = s.text(1);
    point.started_at = s.text(2);
    point.value = s.number(7);
    if (const auto found = checks.find({s.integer(3), kernel, metric}); found != checks.end()) {
      point.verdict = found->second.verdict;
      point.band_low = found->second.band_low;
      point.band_high = found->second.band_high;
    }
    h.points.push_back(std::move(point));
  }
  return series;
}

}  // namespace

history_store::history_store(const std::string& path, open_mode mode, std::chrono::milliseconds busy_timeout)
    : m_path(path) {
  if (mode == open_mode::must_exist && !std::filesystem::exists(path)) {
    throw input_error({path}, "", "no history database here",
                      "record one with `counterguard run --history FILE` or `counterguard history import`");
  }
  if (std::filesystem::is_directory(path))
    throw input_error({path}, "", "a directory, not a history database file");
  m_db = std::make_unique<detail::sqlite_database>(path, mode == open_mode::create,
                                                   static_cast<int>(busy_timeout.count()));
  detail::prepare_history_schema(*m_db);
}

history_store::~history_store() = default;
history_store::history_store(history_store&&) noexcept = default;
history_store& history_store::operator=(history_store&&) noexcept = default;

record_outcome history_store::record(const run_results& results, const history_source& source) {
  detail::sqlite_transaction transaction(*m_db);
  {
    sqlite_statement existing = m_db->prepare("SELECT id FROM runs WHERE content_hash = ?1");
    existing.bind(1, source.content_hash);
    if (existing.step())
      return {existing.integer(0), true};
  }
  const std::int64_t run_id = insert_run(*m_db, results.metadata, source);
  const run_values values = values_of(results);

  sqlite_statement insert_case = m_db->prepare(
      "INSERT INTO cases (run_id, instance, suite, case_name, kernel, status, status_reason, verified, "
      "seconds, "
      "passes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  sqlite_statement insert_metric = m_db->prepare(
      "INSERT INTO metrics (case_id, kernel_key, metric, value, class) VALUES (?1, ?2, ?3, ?4, ?5)");
  sqlite_statement insert_check = m_db->prepare(
      "INSERT INTO checks (case_id, metric, kernel, origin, expected, measured, baseline, band_low, "
      "band_high, "
      "verdict, failing, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const case_result& c = results.cases[i];
    insert_case.bind(1, run_id)
        .bind(2, c.instance)
        .bind(3, c.suite)
        .bind(4, c.case_name)
        .bind(5, c.kernel)
        .bind(6, std::string(to_string(c.status)))
        .bind(7, c.status_reason)
        .bind(9, c.seconds)
        .bind(10, std::int64_t{c.passes});
    if (c.verified)
      insert_case.bind(8, std::int64_t{*c.verified ? 1 : 0});
    else
      insert_case.bind_null(8);
    insert_case.step("case instance '" + c.instance + "' appears twice in the results of one run (" +
                     source.origin + "); nothing was recorded");
    insert_case.reset();
    const std::int64_t case_id = m_db->last_insert_id();

    for (const auto& [kernel, metrics] : values.cases[i].kernels) {
      for (const auto& [metric, reading] : metrics) {
        insert_metric.bind(1, case_id)
            .bind(2, kernel)
            .bind(3, metric)
            .bind(4, reading.value)
            .bind(5, std::string(to_string(reading.cls)));
        insert_metric.step();
        insert_metric.reset();
      }
    }
    for (const auto& check : c.checks) {
      const std::optional<value_band> band = band_of_check(check);
      insert_check.bind(1, case_id)
          .bind(2, check.metric)
          .bind(3, check.kernel)
          .bind(4, check.origin)
          .bind(5, check.expected)
          .bind(6, check.measured)
          .bind(7, check.baseline)
          .bind(8, band ? std::optional<double>(band->low) : std::nullopt)
          .bind(9, band ? std::optional<double>(band->high) : std::nullopt)
          .bind(10, std::string(to_string(check.verdict)))
          .bind(11, std::int64_t{check.failing ? 1 : 0})
          .bind(12, check.message);
      insert_check.step();
      insert_check.reset();
    }
  }
  transaction.commit();
  return {run_id, false};
}

std::vector<run_record> history_store::runs(const run_filter& filter) const {
  sqlite_statement s =
      m_db->prepare(std::string("SELECT ") + run_columns + run_count_columns +
                    " FROM runs r LEFT JOIN cases c ON c.run_id = r.id WHERE (?1 = '' OR r.gpu_key = ?1) AND "
                    "(?2 = '' OR substr(lower(r.git_commit), 1, length(?2)) = ?2) GROUP BY r.id "
                    "ORDER BY r.started_at DESC, r.id DESC LIMIT ?3");
  s.bind(1, filter.gpu_key).bind(2, lower(filter.commit_prefix)).bind(3, limit_of(filter.last_n));
  std::vector<run_record> runs;
  while (s.step()) {
    runs.push_back(read_run(s));
    read_counts(s, runs.back());
  }
  std::reverse(runs.begin(), runs.end());
  return runs;
}

std::optional<run_record> history_store::find_run(std::int64_t id) const {
  sqlite_statement s =
      m_db->prepare(std::string("SELECT ") + run_columns + run_count_columns +
                    " FROM runs r LEFT JOIN cases c ON c.run_id = r.id WHERE r.id = ?1 GROUP BY r.id");
  s.bind(1, id);
  if (!s.step())
    return std::nullopt;
  run_record run = read_run(s);
  read_counts(s, run);
  return run;
}

std::optional<run_record> history_store::find_run_by_content(const std::string& content_hash) const {
  sqlite_statement s = m_db->prepare("SELECT id FROM runs WHERE content_hash = ?1");
  s.bind(1, content_hash);
  if (!s.step())
    return std::nullopt;
  return find_run(s.integer(0));
}

run_values history_store::load_values(std::int64_t run_id) const {
  const std::optional<run_record> run = find_run(run_id);
  if (!run)
    throw input_error({m_path}, "", "no run " + std::to_string(run_id),
                      "`counterguard history list` shows them");
  run_values values;
  values.metadata = run->metadata;
  std::map<std::int64_t, std::size_t> index;  // case id -> position in values.cases
  sqlite_statement cases =
      m_db->prepare("SELECT id, instance, suite, status FROM cases WHERE run_id = ?1 ORDER BY id");
  cases.bind(1, run_id);
  while (cases.step()) {
    case_values c;
    c.instance = cases.text(1);
    c.suite = cases.text(2);
    c.status = parse_case_status(cases.text(3), m_path, run_id);
    index.emplace(cases.integer(0), values.cases.size());
    values.cases.push_back(std::move(c));
  }
  sqlite_statement metrics = m_db->prepare(
      "SELECT m.case_id, m.kernel_key, m.metric, m.value, m.class FROM metrics m JOIN cases c ON m.case_id = "
      "c.id "
      "WHERE c.run_id = ?1");
  metrics.bind(1, run_id);
  while (metrics.step()) {
    const auto found = index.find(metrics.integer(0));
    if (found == index.end()) {
      throw input_error({m_path}, "metrics",
                        "the history database is damaged: a metric of run " + std::to_string(run_id) +
                            " belongs to no case of it",
                        "restore it from a backup or start a new file");
    }
    case_values& c = values.cases[found->second];
    c.kernels[metrics.text(1)][metrics.text(2)] =
        metric_reading{metrics.number(3), parse_class(metrics.text(4))};
  }
  return values;
}

metric_history history_store::series(const std::string& gpu_key, const std::string& instance,
                                     const std::string& kernel, const std::string& metric,
                                     std::size_t last_n) const {
  std::vector<metric_history> found =
      query_series(*m_db, gpu_key, " AND c.instance = ?3 AND m.kernel_key = ?4 AND m.metric = ?5",
                   {instance, kernel, metric}, last_n);
  if (!found.empty())
    return std::move(found.front());
  metric_history empty;
  empty.gpu_key = gpu_key;
  empty.instance = instance;
  empty.kernel = kernel;
  empty.metric = metric;
  return empty;
}

std::vector<metric_history> history_store::all_series(const std::string& gpu_key, std::size_t last_n) const {
  return query_series(*m_db, gpu_key, "", {}, last_n);
}

std::vector<double> history_store::recent_values(const std::string& gpu_key, const std::string& instance,
                                                 const std::string& kernel, const std::string& metric,
                                                 std::size_t last_n) const {
  value_window window;
  window.last_n = last_n;
  return recent_values(gpu_key, instance, kernel, metric, window);
}

std::vector<double> history_store::recent_values(const std::string& gpu_key, const std::string& instance,
                                                 const std::string& kernel, const std::string& metric,
                                                 const value_window& window) const {
  std::string excluded;
  for (const auto id : window.excluded_runs)
    excluded += (excluded.empty() ? "" : ", ") + std::to_string(id);
  sqlite_statement s = m_db->prepare(
      "SELECT m.value FROM runs r JOIN cases c ON c.run_id = r.id JOIN metrics m ON m.case_id = c.id "
      "WHERE r.gpu_key = ?1 AND c.instance = ?2 AND m.kernel_key = ?3 AND m.metric = ?4 AND m.value IS NOT "
      "NULL "
      "AND (?5 = '' OR r.started_at < ?5)" +
      (excluded.empty() ? std::string() : " AND r.id NOT IN (" + excluded + ")") +
      " ORDER BY r.started_at DESC, r.id DESC LIMIT ?6");
  s.bind(1, gpu_key).bind(2, instance).bind(3, kernel).bind(4, metric).bind(5, window.started_before);
  s.bind(6, limit_of(window.last_n));
  std::vector<double> values;
  while (s.step())
    values.push_back(s.number(0));
  std::reverse(values.begin(), values.end());
  return values;
}

}  // namespace counterguard
