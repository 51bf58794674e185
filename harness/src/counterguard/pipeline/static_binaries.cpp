// SPDX-License-Identifier: Apache-2.0
// `counterguard static --binary PATH...`: the resources of every kernel in compiled programs or libraries,
// read from their fat binaries (no GPU, no cuobjdump).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "counterguard/build_info.hpp"
#include "counterguard/pipeline/static_checks.hpp"
#include "counterguard/reporters/report_output.hpp"
#include "counterguard/statics/binary_resources.hpp"
#include "detail/static_binary_checks.hpp"

namespace counterguard {
namespace {

struct timed_read {
  binary_resources resources;
  double seconds = 0.0;
};

std::string spill_text(const kernel_resources& k, std::size_t bytes) {
  return k.spill_bytes_known ? std::to_string(bytes) : "?";
}

void print_binary(const timed_read& read) {
  const binary_resources& r = read.resources;
  std::fputs(fmt::format("{}: {} kernels in {} cubins ({}), read in {:.1f} ms\n", r.path, r.kernels.size(),
                         r.cubins, r.device_code_section, read.seconds * 1e3)
                 .c_str(),
             stdout);
  std::size_t width = std::string("function").size();
  for (const auto& k : r.kernels)
    width = std::max(width, k.function.size());
  const std::string row = "{:<" + std::to_string(width) + "} {:<8} {:>4} {:>6} {:>6} {:>6} {:>7} {:>5}  {}\n";
  std::fputs(
      fmt::format(row, "function", "arch", "regs", "spill>", "spill<", "stack", "smem", "cmem", "flags")
          .c_str(),
      stdout);
  bool unknown = false;
  for (const auto& k : r.kernels) {
    std::string flags;
    for (const auto& flag : k.flags)
      flags += (flags.empty() ? "" : " ") + flag;
    std::fputs(fmt::format(row, k.function, k.architecture, k.registers, spill_text(k, k.spill_store_bytes),
                           spill_text(k, k.spill_load_bytes), k.stack_frame_bytes, k.static_shared_bytes,
                           k.constant_bytes, flags)
                   .c_str(),
               stdout);
    unknown = unknown || !k.spill_bytes_known;
  }
  if (unknown) {
    std::fputs("? = spills not recorded: a cubin from before CUDA 13.0 whose kernel uses local memory\n",
               stdout);
  }
  for (const auto& architecture : r.uncompiled_architectures) {
    std::fputs(fmt::format("{} only as PTX/LTO IR: compiled by the driver when the program loads, no "
                           "resources in the file\n",
                           architecture)
                   .c_str(),
               stdout);
  }
  std::fputs("\n", stdout);
}

nlohmann::json spill_json(const kernel_resources& k, std::size_t bytes) {
  return k.spill_bytes_known ? nlohmann::json(bytes) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const timed_read& read) {
  const binary_resources& r = read.resources;
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : r.kernels) {
    kernels.push_back({{"function", k.function},
                       {"mangled", k.mangled},
                       {"architecture", k.architecture},
                       {"cubin", k.translation_unit},
                       {"registers", k.registers},
                       {"barriers", k.barriers},
                       {"stack_frame_bytes", k.stack_frame_bytes},
                       {"spill_store_bytes", spill_json(k, k.spill_store_bytes)},
                       {"spill_load_bytes", spill_json(k, k.spill_load_bytes)},
                       {"static_shared_bytes", k.static_shared_bytes},
                       {"constant_bytes", k.constant_bytes},
                       {"flags", k.flags}});
  }
  return {{"path", r.path},
          {"device_code_section", r.device_code_section},
          {"cubins", r.cubins},
          {"uncompiled_architectures", r.uncompiled_architectures},
          {"read_seconds", read.seconds},
          {"kernels", kernels}};
}

}  // namespace

int check_static_binaries(const static_binary_options& options) {
  std::vector<timed_read> reads;
  for (const auto& path : options.binaries) {
    const auto start = std::chrono::steady_clock::now();
    timed_read read{read_binary_resources(path), 0.0};
    // Rows by function, then architecture: the multi-architecture rows of a kernel stand together.
    std::stable_sort(read.resources.kernels.begin(), read.resources.kernels.end(),
                     [](const kernel_resources& a, const kernel_resources& b) {
                       return std::tie(a.function, a.architecture) < std::tie(b.function, b.architecture);
                     });
    read.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    reads.push_back(std::move(read));
  }
  const bool checking = !options.cases.paths.empty();
  for (const auto& read : reads) {
    if (options.quiet || checking) {
      std::fputs(fmt::format("{}: {} kernels in {} cubins\n", read.resources.path,
                             read.resources.kernels.size(), read.resources.cubins)
                     .c_str(),
                 stdout);
    } else {
      print_binary(read);
    }
  }
  if (!options.json.empty()) {
    nlohmann::json binaries = nlohmann::json::array();
    for (const auto& read : reads)
      binaries.push_back(to_json(read));
    const nlohmann::json document = {{"counterguard_version", COUNTERGUARD_VERSION},
                                     {"command_line", options.command_line},
                                     {"binaries", binaries}};
    write_report_text(options.json, document.dump(2) + "\n");
  }
  if (!checking)
    return 0;
  selection_options selection = options.cases;
  selection.allow_program_cases = true;
  std::vector<binary_resources> binaries;
  binaries.reserve(reads.size());
  for (const auto& read : reads)
    binaries.push_back(read.resources);
  run_results results = static_binary_results(binaries, select_instances(selection), options.command_line);
  report_options reports = options.reports;
  reports.files.json.clear();  // --json is the binaries' resources
  reports.no_baselines = true;
  reports.quiet = options.quiet;
  print_selection_failures(results);
  return judge_and_report(results, reports);
}

}  // namespace counterguard
