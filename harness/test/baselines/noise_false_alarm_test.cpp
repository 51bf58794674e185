// SPDX-License-Identifier: Apache-2.0
// Simulated gates: how often the noise model's band fails an unchanged kernel (the false-alarm rate), and how
// often it catches a planted change (the power). Each gate refreshes a baseline from n samples, exactly as
// `baseline update` does (make_baseline_entry), and judges one later measurement with the band the comparison
// uses (acceptance_band). The noise is what the H200 showed (docs/baselines.md, "Noise model"):
// normal, and Tukey's contaminated normal (90% N(0, s1), 10% N(0, 3 s1)) for heavier tails.
//
// Two estimates of the false-alarm rate per configuration:
//   direct:     the fraction of simulated later measurements outside the band (what a user sees);
//   conditional: the mean over refreshes of P(later measurement outside the band | that refresh), computed
//               from the noise distribution's tail. Same expectation, far smaller variance: it resolves rates
//               of 1e-6 with 200,000 refreshes, where the direct count sees about one event.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/baselines/sample_statistics.hpp"

namespace counterguard {
namespace {

enum class tails { normal, tukey };

// One metric's noise, as the H200 showed it (or as assumed where noted).
struct noise_source {
  std::string metric;
  metric_direction direction = metric_direction::lower_is_better;
  double mean = 0.0;
  double sd = 0.0;
};

// Tukey's contaminated normal with overall standard deviation `sd`: 0.9 N(0, s1) + 0.1 N(0, 3 s1),
// s1 = sd / sqrt(0.9 + 0.1 * 9). Kurtosis 8.3 (normal: 3).
constexpr double contamination = 0.1;
constexpr double contamination_scale = 3.0;

double core_sd(double sd, tails shape) {
  return shape == tails::normal ? sd
                                : sd / std::sqrt(1.0 - contamination +
                                                 contamination * contamination_scale * contamination_scale);
}

double upper_tail(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

// P(X > mean + distance) for the noise of the given shape (symmetric, so also P(X < mean - distance)).
double tail_beyond(double distance, double sd, tails shape) {
  const double s1 = core_sd(sd, shape);
  if (shape == tails::normal)
    return upper_tail(distance / s1);
  return (1.0 - contamination) * upper_tail(distance / s1) +
         contamination * upper_tail(distance / (contamination_scale * s1));
}

class noise_generator {
 public:
  explicit noise_generator(std::uint64_t seed) : m_random(seed) {}

  double draw(double mean, double sd, tails shape) {
    double scale = core_sd(sd, shape);
    if (shape == tails::tukey && m_uniform(m_random) < contamination)
      scale *= contamination_scale;
    return mean + scale * m_normal(m_random);
  }

 private:
  std::mt19937_64 m_random;
  std::normal_distribution<double> m_normal{0.0, 1.0};
  std::uniform_real_distribution<double> m_uniform{0.0, 1.0};
};

struct gate_statistics {
  long gates = 0;
  long direct_alarms = 0;
  double conditional_mean = 0.0;  // mean of P(alarm | refresh)
  double conditional_se = 0.0;    // its standard error
  double mean_high = 0.0;         // mean upper edge of the band (for the report)
};

// Refreshes a baseline from n samples of `source` and judges one later measurement, `gates` times.
// `later` is the distribution of the later measurement: the source itself (false alarms) or a planted change.
gate_statistics simulate_gates(const noise_source& source, int n, tails shape, long gates,
                               const baseline_comparison_options& options, std::uint64_t seed,
                               const noise_source* later = nullptr) {
  const noise_source& judged = later != nullptr ? *later : source;
  noise_generator noise(seed);
  const noise_kind kind = noise_kind_of_metric(source.metric);
  gate_statistics result;
  result.gates = gates;
  double sum = 0.0;
  double sum_squares = 0.0;
  std::vector<double> samples(static_cast<std::size_t>(n));
  for (long g = 0; g < gates; ++g) {
    for (auto& sample : samples)
      sample = noise.draw(source.mean, source.sd, shape);
    const baseline_entry entry = make_baseline_entry(samples, metric_class::noisy, source.direction, kind);
    const baseline_band band = acceptance_band(entry, options, source.metric);
    const double measured = noise.draw(judged.mean, judged.sd, shape);
    // Which side is a regression (docs/baselines.md, "Direction").
    const bool high_alarms = source.direction != metric_direction::higher_is_better;
    const bool low_alarms = source.direction != metric_direction::lower_is_better;
    const bool alarm = (high_alarms && measured > band.high) || (low_alarms && measured < band.low);
    result.direct_alarms += alarm ? 1 : 0;
    double probability = 0.0;
    if (high_alarms)
      probability += tail_beyond(band.high - judged.mean, judged.sd, shape);
    if (low_alarms)
      probability += tail_beyond(judged.mean - band.low, judged.sd, shape);
    sum += probability;
    sum_squares += probability * probability;
    result.mean_high += band.high;
    // The comparison itself agrees with the band (every 997th gate, to stay fast).
    if (g % 997 == 0) {
      const check_outcome outcome =
          compare_with_baseline("noise/sim", "total", source.metric, entry, measured, options);
      EXPECT_EQ(outcome.verdict == check_verdict::regression, alarm) << outcome.message;
    }
  }
  const double count = static_cast<double>(gates);
  result.conditional_mean = sum / count;
  result.conditional_se = std::sqrt(
      std::max(0.0, sum_squares / count - result.conditional_mean * result.conditional_mean) / count);
  result.mean_high /= count;
  return result;
}

const char* shape_name(tails shape) {
  return shape == tails::normal ? "normal" : "tukey";
}

void report(const std::string& what, const noise_source& source, int n, tails shape,
            const gate_statistics& s) {
  std::printf("%-34s n=%d %-6s direct %ld/%ld  conditional %.3g (se %.2g)  mean high %.6g\n", what.c_str(), n,
              shape_name(shape), s.direct_alarms, s.gates, s.conditional_mean, s.conditional_se, s.mean_high);
  (void)source;
}

// The noise the H200 showed (validation/h200.md, the committed baselines, and a gate that flaked on it under
// the version 1 rule).
noise_source small_bank_conflicts(double relative_sd) {
  // A conflict-free kernel's hardware bank-conflict counter: ~1157 +- 5-8% run to run.
  return {"shared_store_bank_conflicts_hw", metric_direction::lower_is_better, 1157.0, relative_sd * 1157.0};
}

// The rest of the noise sources (the small count at 8% is the headline, below).
std::vector<noise_source> other_measured_sources() {
  return {
      small_bank_conflicts(0.05),
      // Unpadded 32x32 transpose, 4096 blocks: 4097502 / 4097309 / 4098035 (sd 376); the committed baseline's
      // 5 runs spanned 4083720-4084687 (sd ~415 from the range). sd 400.
      {"shared_store_bank_conflicts_hw", metric_direction::lower_is_better, 4097615.0, 400.0},
      // Shared atomics under contention, declared noisy, direction exact (two-sided): the committed baseline
      // spanned 9342659-9408166 in 5 runs (sd ~28,000 from the range).
      {"shared_atomic_instructions", metric_direction::exact, 9375828.0, 28000.0},
      // Achieved occupancy (percent, higher is better): 62.05-62.46 in 5 runs (sd ~0.18 points).
      {"achieved_occupancy", metric_direction::higher_is_better, 62.08, 0.18},
      // Not yet measured on the H200 (validation/noise measures them); assumed:
      // DRAM bytes read by vec_add over 2 x 64 MiB, 1% sd; an L2 hit rate, 0.3 points sd;
      // kernel duration, 2% sd (docs/metrics.md: 1-3% run to run).
      {"dram_read_bytes", metric_direction::lower_is_better, 134217728.0, 0.01 * 134217728.0},
      {"l2_hit_rate", metric_direction::higher_is_better, 50.0, 0.3},
      {"duration_ns", metric_direction::lower_is_better, 10000.0, 200.0},
  };
}

constexpr long refreshes = 200000;

// The check both false-alarm tests make: the conditional estimate plus 3 standard errors is at most alpha,
// and the direct count is within what alpha allows (Poisson with mean alpha * gates, 1.3 for 200,000).
void expect_at_most_the_default_alpha(const noise_source& source, long gates, std::uint64_t seed) {
  const baseline_comparison_options options;
  ASSERT_DOUBLE_EQ(options.false_alarm_rate, default_false_alarm_rate);
  const double alpha = default_false_alarm_rate;
  const double expected = alpha * static_cast<double>(gates);
  for (const int n : {3, 5}) {
    for (const tails shape : {tails::normal, tails::tukey}) {
      const gate_statistics s = simulate_gates(source, n, shape, gates, options, seed++);
      report(source.metric + " sd " + std::to_string(source.sd), source, n, shape, s);
      EXPECT_LE(s.conditional_mean + 3.0 * s.conditional_se, alpha)
          << source.metric << " sd " << source.sd << " n=" << n << " " << shape_name(shape);
      EXPECT_LE(static_cast<double>(s.direct_alarms), expected + 5.0 * std::sqrt(expected) + 3.0)
          << source.metric << " sd " << source.sd << " n=" << n << " " << shape_name(shape);
    }
  }
}

// The case that flaked: a conflict-free kernel's hardware bank-conflict counter at ~1157 +- 8% (the upper end
// of the 5-8% the H200 showed), refreshed from 3 and from 5 samples, normal and heavier-tailed: 200,000
// simulated gates each.
TEST(noise_false_alarm_rate, stays_below_the_default_alpha_for_the_small_bank_conflict_count) {
  expect_at_most_the_default_alpha(small_bank_conflicts(0.08), refreshes, 1);
}

// Every other noise source measured on the H200 (or assumed, where noted), 25,000 gates each: their margins
// are wide, and the conditional estimate resolves them with far fewer gates.
TEST(noise_false_alarm_rate, stays_below_the_default_alpha_for_every_other_noise_source) {
  std::uint64_t seed = 10;
  for (const noise_source& source : other_measured_sources()) {
    expect_at_most_the_default_alpha(source, refreshes / 8, seed);
    seed += 4;
  }
}

// For contrast, what the version 1 band alone ([min, max] widened by 10%, at least 32: the band a version 1
// entry is still never narrower than) does with the same noise.
TEST(noise_false_alarm_rate, the_version_1_band_alone_fails_the_small_count_often) {
  noise_generator noise(3);
  const noise_source source = small_bank_conflicts(0.08);
  const baseline_comparison_options options;
  long alarms = 0;
  const long gates = 20000;
  for (long g = 0; g < gates; ++g) {
    std::vector<double> samples(3);
    for (auto& sample : samples)
      sample = noise.draw(source.mean, source.sd, tails::normal);
    baseline_entry entry =
        make_baseline_entry(samples, metric_class::noisy, source.direction, noise_kind::counts);
    entry.mean.reset();  // as version 1 recorded it
    entry.sd.reset();
    const double version_1_high = version_1_noisy_band(entry, options).high;
    alarms += noise.draw(source.mean, source.sd, tails::normal) > version_1_high ? 1 : 0;
  }
  const double rate = static_cast<double>(alarms) / gates;
  std::printf("version 1 rule, small count sd 8%%, n=3: false-alarm rate %.4f\n", rate);
  EXPECT_GT(rate, 0.01);  // one in tens of runs: the flake the version 1 rule gave
}

// Where the false-alarm rate is large enough to count directly, the band is a calibrated prediction band:
// history-sized samples (n = 30) of normal noise as large as the model allows, alpha = 1e-2 and 1e-3. The
// measured rate is at most alpha (plus 4 standard errors) and not far below it (a band made twice as wide,
// or the t quantile replaced by a normal one, fails one side or the other).
TEST(noise_false_alarm_rate, is_calibrated_where_it_can_be_counted) {
  const noise_source source{"shared_store_bank_conflicts_hw", metric_direction::lower_is_better, 5000.0,
                            model_noise_sd(noise_kind::counts, 5000.0)};
  std::uint64_t seed = 100;
  for (const double alpha : {1e-2, 1e-3}) {
    baseline_comparison_options options;
    options.false_alarm_rate = alpha;
    const long gates = refreshes / 4;
    const gate_statistics s = simulate_gates(source, 30, tails::normal, gates, options, seed++);
    report("calibration alpha=" + std::to_string(alpha), source, 30, tails::normal, s);
    const double rate = static_cast<double>(s.direct_alarms) / static_cast<double>(gates);
    const double se = std::sqrt(alpha * (1.0 - alpha) / static_cast<double>(gates));
    EXPECT_LE(rate, alpha + 4.0 * se);
    EXPECT_LE(s.conditional_mean, alpha);
    EXPECT_GE(s.conditional_mean, 0.5 * alpha);
  }
}

// A per-entry false_alarm_rate replaces the options' rate.
TEST(noise_false_alarm_rate, a_per_entry_rate_overrides_the_command_line) {
  const noise_source source{"shared_store_bank_conflicts_hw", metric_direction::lower_is_better, 5000.0,
                            model_noise_sd(noise_kind::counts, 5000.0)};
  baseline_comparison_options options;  // default alpha: too small to count in 20,000 gates
  noise_generator noise(7);
  long alarms = 0;
  const long gates = 20000;
  for (long g = 0; g < gates; ++g) {
    std::vector<double> samples(30);
    for (auto& sample : samples)
      sample = noise.draw(source.mean, source.sd, tails::normal);
    baseline_entry entry =
        make_baseline_entry(samples, metric_class::noisy, source.direction, noise_kind::counts);
    entry.false_alarm_rate = 0.05;
    alarms += acceptance_band(entry, options, source.metric).high <
                      noise.draw(source.mean, source.sd, tails::normal)
                  ? 1
                  : 0;
  }
  const double rate = static_cast<double>(alarms) / gates;
  EXPECT_GT(rate, 0.03);
  EXPECT_LT(rate, 0.06);
}

// Planted changes are caught: a doubled small conflict count (same relative noise), +30% DRAM bytes.
TEST(noise_detection_power, catches_a_doubled_small_conflict_count_and_thirty_percent_more_dram_bytes) {
  const baseline_comparison_options options;
  struct plant {
    noise_source before;
    noise_source after;
    int n;
    double minimum_power;
  };
  const noise_source dram{"dram_read_bytes", metric_direction::lower_is_better, 134217728.0,
                          0.01 * 134217728.0};
  noise_source dram_after = dram;
  dram_after.mean *= 1.3;
  dram_after.sd *= 1.3;
  std::vector<plant> plants;
  for (const double relative_sd : {0.05, 0.08}) {
    const noise_source before = small_bank_conflicts(relative_sd);
    noise_source doubled = before;
    doubled.mean *= 2.0;
    doubled.sd *= 2.0;
    // The measured power (docs/baselines.md) with a little room for the seed.
    plants.push_back({before, doubled, 3, relative_sd < 0.06 ? 0.88 : 0.70});
    plants.push_back({before, doubled, 5, relative_sd < 0.06 ? 0.99 : 0.92});
  }
  plants.push_back({dram, dram_after, 3, 0.999});
  plants.push_back({dram, dram_after, 5, 0.999});
  std::uint64_t seed = 1000;
  for (const auto& p : plants) {
    for (const tails shape : {tails::normal, tails::tukey}) {
      const gate_statistics s =
          simulate_gates(p.before, p.n, shape, refreshes / 10, options, seed++, &p.after);
      // The conditional estimate of the power (the direct fraction agrees within a percent).
      const double power = s.conditional_mean;
      report("power " + p.before.metric + " sd " + std::to_string(p.before.sd), p.before, p.n, shape, s);
      EXPECT_NEAR(static_cast<double>(s.direct_alarms) / static_cast<double>(s.gates), power, 0.02);
      EXPECT_GE(power, shape == tails::normal ? p.minimum_power : p.minimum_power - 0.05)
          << p.before.metric << " sd " << p.before.sd << " n=" << p.n << " " << shape_name(shape);
    }
  }
}

}  // namespace
}  // namespace counterguard
