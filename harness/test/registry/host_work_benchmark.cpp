// SPDX-License-Identifier: Apache-2.0
// Micro-benchmark of the host side of the built-in cases (not a test): input generation, CPU references and
// output comparison at the sizes the built-ins use, the old single loop against the parallel code the
// variants use now. Checks that both give the same values and exits 1 if not.
//   build/harness/test/registry/host_work_benchmark   (on a GPU host: validation/gpu_checks.sh floor)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "counterguard/registry/input_fill.hpp"
#include "counterguard/registry/linear_congruential.hpp"
#include "counterguard/registry/parallel_for.hpp"
#include "counterguard/registry/splitmix64.hpp"
#include "counterguard/registry/verify.hpp"

namespace {

using counterguard::parallel_for;

// Median wall time of `repeats` runs, in milliseconds.
double median_ms(const std::function<void()>& work, int repeats = 5) {
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

bool all_same = true;

template <typename T>
void row(const char* what, const std::vector<T>& serial_result, const std::vector<T>& parallel_result,
         double serial, double parallel) {
  const bool same =
      serial_result.size() == parallel_result.size() &&
      std::memcmp(serial_result.data(), parallel_result.data(), sizeof(T) * serial_result.size()) == 0;
  all_same = all_same && same;
  std::printf("%-52s %10.2f %10.2f %7.1fx  %s\n", what, serial, parallel, serial / parallel,
              same ? "same values" : "DIFFERENT VALUES");
}

// coalescing/test_data.cuh make_inputs before and after.
std::vector<float> lcg_inputs_serial(std::size_t count, std::uint32_t seed) {
  std::vector<float> values(count);
  std::uint32_t state = seed * 2654435761u + 1u;
  for (auto& value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(static_cast<int>(state >> 22) - 512);
  }
  return values;
}
std::vector<float> lcg_inputs_parallel(std::size_t count, std::uint32_t seed) {
  std::vector<float> values(count);
  parallel_for(count, [&](std::size_t begin, std::size_t end) {
    std::uint32_t state = counterguard::lcg_advance(seed * 2654435761u + 1u, begin, 1664525u, 1013904223u);
    for (std::size_t i = begin; i < end; ++i) {
      state = state * 1664525u + 1013904223u;
      values[i] = static_cast<float>(static_cast<int>(state >> 22) - 512);
    }
  });
  return values;
}

// The comparison loop of compare_with_reference before it was split into chunks.
// Returns {mismatches, first mismatching index}.
std::vector<std::size_t> mismatches_serial(const std::vector<float>& actual,
                                           const std::vector<float>& expected, double tolerance) {
  std::size_t mismatches = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double a = static_cast<double>(actual[i]);
    const double e = static_cast<double>(expected[i]);
    const double allowed = tolerance * std::fmax(1.0, std::fabs(e));
    const bool ok = tolerance == 0.0 ? a == e : std::fabs(a - e) <= allowed;
    if (!ok) {
      if (mismatches == 0)
        first = i;
      ++mismatches;
    }
  }
  return {mismatches, first};
}

}  // namespace

int main() {
  std::printf("host_work_benchmark: %u hardware threads; median of 5 runs, ms\n",
              std::max(1U, std::thread::hardware_concurrency()));
  std::printf("%-52s %10s %10s %8s\n", "work", "one loop", "parallel", "speedup");

  const std::size_t vec_n = (std::size_t{1} << 22) + 32;  // coalescing: n = 2^22 plus the offset padding
  std::vector<float> s1;
  std::vector<float> p1;
  const double lcg_serial = median_ms([&] { s1 = lcg_inputs_serial(vec_n, 1); });
  const double lcg_parallel = median_ms([&] { p1 = lcg_inputs_parallel(vec_n, 1); });
  row("coalescing inputs: LCG floats, 2^22 (one array)", s1, p1, lcg_serial, lcg_parallel);

  const counterguard::input_fill fill = counterguard::uniform(-1, 1);
  std::vector<float> s2(std::size_t{1} << 22);
  std::vector<float> p2(s2.size());
  const double fill_serial = median_ms([&] {
    for (std::size_t i = 0; i < s2.size(); ++i)
      s2[i] = static_cast<float>(fill.value_at(i, 99));
  });
  const double fill_parallel = median_ms([&] {
    parallel_for(p2.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        p2[i] = static_cast<float>(fill.value_at(i, 99));
    });
  });
  row("input_fill uniform reals -> float, 2^22", s2, p2, fill_serial, fill_parallel);

  std::vector<unsigned> s3(std::size_t{1} << 21);
  std::vector<unsigned> p3(s3.size());
  const double mix_serial = median_ms([&] {
    std::uint64_t state = 0x0CC0ULL;
    for (auto& value : s3)
      value = static_cast<unsigned>(counterguard::splitmix64(state));
  });
  const double mix_parallel = median_ms([&] {
    parallel_for(p3.size(), [&](std::size_t begin, std::size_t end) {
      std::uint64_t state = 0x0CC0ULL + 0x9E3779B97F4A7C15ULL * begin;
      for (std::size_t i = begin; i < end; ++i)
        p3[i] = static_cast<unsigned>(counterguard::splitmix64(state));
    });
  });
  row("occupancy inputs: SplitMix64 words, 2^21", s3, p3, mix_serial, mix_parallel);

  const std::size_t n = 2048;
  std::vector<float> in = lcg_inputs_parallel(n * n, 9);
  std::vector<float> s4(n * n);
  std::vector<float> p4(n * n);
  const double transpose_serial = median_ms([&] {
    for (std::size_t r = 0; r < n; ++r) {
      for (std::size_t c = 0; c < n; ++c)
        s4[c * n + r] = in[r * n + c];
    }
  });
  const double transpose_parallel = median_ms([&] {
    parallel_for(
        n,
        [&](std::size_t first, std::size_t end) {
          for (std::size_t c = first; c < end; ++c) {
            for (std::size_t r = 0; r < n; ++r)
              p4[c * n + r] = in[r * n + c];
          }
        },
        32);
  });
  row("transpose reference, n = 2048", s4, p4, transpose_serial, transpose_parallel);

  std::vector<std::size_t> s5;
  std::vector<std::size_t> p5;
  std::vector<float> wrong = s1;
  wrong[vec_n / 2] += 1.0F;
  const double compare_serial = median_ms([&] { s5 = mismatches_serial(wrong, s1, 0.0); });
  std::string message;
  const double compare_parallel =
      median_ms([&] { message = counterguard::compare_with_reference("c", wrong, s1).message; });
  // The same count and first index, read back from the message.
  const std::string lead = "c[" + std::to_string(s5[1]) + "] = ";
  const std::string tail = "(" + std::to_string(s5[0]) + " of " + std::to_string(vec_n) + " elements differ)";
  p5 = message.rfind(lead, 0) == 0 && message.find(tail) != std::string::npos ? s5
                                                                              : std::vector<std::size_t>{};
  row("compare_with_reference, 2^22 floats, one wrong", s5, p5, compare_serial, compare_parallel);
  std::printf("  message: %s\n", message.c_str());

  const std::size_t m = 512;
  const std::vector<float> a = lcg_inputs_parallel(m * m, 11);
  const std::vector<float> b = lcg_inputs_parallel(m * m, 12);
  const auto matmul_rows = [&](std::vector<double>& expected, std::size_t first, std::size_t end) {
    std::vector<double> r(m);
    for (std::size_t i = first; i < end; ++i) {
      std::fill(r.begin(), r.end(), 0.0);
      for (std::size_t k = 0; k < m; ++k) {
        const double a_ik = a[i * m + k];
        for (std::size_t j = 0; j < m; ++j)
          r[j] += a_ik * static_cast<double>(b[k * m + j]);
      }
      std::copy(r.begin(), r.end(), expected.begin() + static_cast<std::ptrdiff_t>(i * m));
    }
  };
  std::vector<double> s6(m * m);
  std::vector<double> p6(m * m);
  const double matmul_serial = median_ms([&] { matmul_rows(s6, 0, m); });
  const double matmul_parallel = median_ms([&] {
    parallel_for(
        m, [&](std::size_t first, std::size_t end) { matmul_rows(p6, first, end); }, 1);
  });
  row("matmul reference (double), n = 512", s6, p6, matmul_serial, matmul_parallel);

  std::printf("%s\n", all_same ? "all results identical to the single loop" : "MISMATCH");
  return all_same ? EXIT_SUCCESS : EXIT_FAILURE;
}
