// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "counterguard/baselines/baseline_file.hpp"

namespace counterguard::test {

inline baseline_entry entry(double value, metric_class cls = metric_class::exact,
                            metric_direction direction = metric_direction::lower_is_better) {
  baseline_entry e;
  e.value = value;
  e.min = value;
  e.max = value;
  e.n = 5;
  e.cls = cls;
  e.direction = direction;
  return e;
}

inline baseline_entry noisy(double value, double min, double max) {
  baseline_entry e = entry(value, metric_class::noisy);
  e.min = min;
  e.max = max;
  return e;
}

inline baseline_file sample_file() {
  baseline_file file;
  file.gpu_key = "GH100-132sm-cuda13";
  file.suite = "transpose";
  file.metadata = {"NVIDIA H200", "580.65", "13.0", "13.0.48", "2025-01-02T03:04:05Z", "abc123", "0.1.0"};
  file.cases["transpose/smem?pad=1,n=2048"]["total"]["shared_store_bank_conflicts"] = entry(0);
  file.cases["transpose/smem?pad=1,n=2048"]["total"]["duration_ns"] = noisy(10000, 9800, 10400);
  file.cases["transpose/naive?n=2048"]["counterguard::kernels::transpose::naive"]["global_store_sectors"] =
      entry(4194304);
  baseline_entry with_tolerance = entry(4.5);
  with_tolerance.tolerance = 0.1;
  file.cases["transpose/naive?n=2048"]["total"]["global_load_sectors_per_request"] = with_tolerance;
  return file;
}

// A fresh empty directory under the build tree's temporary area.
inline std::string make_temporary_directory() {
  std::string pattern = "/tmp/counterguard-test-XXXXXX";
  const char* made = ::mkdtemp(pattern.data());
  return made == nullptr ? std::string() : std::string(made);
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace counterguard::test
