// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

namespace counterguard {

// The per-check false-alarm probability of a noisy baseline check unless the command line
// (--false-alarm-rate) or the entry (false_alarm_rate) says otherwise: 1 - 0.99^(1/1500) = 6.7002e-6,
// rounded down, so that a run of 1,500 noisy checks flakes with probability 1 - (1 - 6.7e-6)^1500 = 0.99%,
// less than once in 100 runs on average (docs/baselines.md, "Noise model").
inline constexpr double default_false_alarm_rate = 6.7e-6;

// What kind of quantity a noisy metric is; it decides the noise model's scale (model_noise_sd).
enum class noise_kind {
  counts,    // events (hardware bank conflicts, instructions under contention): Poisson-like
  bytes,     // DRAM / cache bytes, moved in 32-byte sectors: Poisson-like in sectors
  percent,   // hit rates, achieved occupancy: percentage points
  duration,  // gpu__time_duration (ns): relative
  relative,  // anything else (ratios): relative
};

[[nodiscard]] const char* to_string(noise_kind kind);  // "counts", "bytes", "percent", "duration", "relative"
[[nodiscard]] std::optional<noise_kind> parse_noise_kind(const std::string& text);

// The kind of a metric: from the metric catalog's unit for an alias ("%" -> percent, "bytes" -> bytes,
// "ns" -> duration), from the name for a raw CUPTI metric (".pct" -> percent, "bytes" -> bytes,
// "time_duration" -> duration, ".ratio" -> relative), counts otherwise.
[[nodiscard]] noise_kind noise_kind_of_metric(const std::string& metric);

// The noise model: the standard deviation a noisy metric of this kind and magnitude is assumed to have at
// most, run to run on one GPU. It is the floor of every noisy band (a band from identical samples is not
// zero wide) and the prior the samples' own spread is pooled with (prediction_band.hpp):
//   counts:   sqrt(3.5^2 * max(|v|, 1) + (0.005 * v)^2)
//   bytes:    sqrt(3.5^2 * 32 * max(|v|, 32) + (0.015 * v)^2)
//   percent:  0.5 percentage points
//   duration: sqrt((0.03 * v)^2 + (100 ns)^2)
//   relative: sqrt((0.01 * v)^2 + 1e-6)
// The constants and the H200 measurements behind them are in docs/baselines.md.
[[nodiscard]] double model_noise_sd(noise_kind kind, double magnitude);

// How many degrees of freedom the noise model counts for when it is pooled with the samples' variance.
inline constexpr int noise_model_degrees_of_freedom = 8;

}  // namespace counterguard
