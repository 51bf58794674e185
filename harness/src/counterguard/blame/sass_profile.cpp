// SPDX-License-Identifier: Apache-2.0
#include "counterguard/blame/sass_profile.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/symbol_names.hpp"

namespace counterguard {
namespace {

constexpr int format_version = 1;

}  // namespace

sass_profile make_sass_profile(const sass_metrics_capture& capture, const device_description& device,
                               const std::string& case_name, const std::string& binary) {
  sass_profile profile;
  profile.gpu = device.name;
  profile.chip = device.chip;
  profile.compute_capability = device.compute_capability;
  profile.case_name = case_name;
  profile.binary = binary;
  profile.metrics = capture.metrics;
  profile.dropped_records = capture.dropped_records;
  for (const auto& record : capture.records) {
    auto function =
        std::find_if(profile.functions.begin(), profile.functions.end(), [&](const sass_function_profile& f) {
          return f.mangled == record.function && f.cubin_crc == record.cubin_crc;
        });
    if (function == profile.functions.end()) {
      profile.functions.push_back(
          {record.function, strip_signature(demangle(record.function)), record.cubin_crc, {}});
      function = profile.functions.end() - 1;
    }
    auto& values = function->values_by_pc[record.pc_offset];
    for (const auto& [metric, value] : record.values)
      values[metric] += value;
  }
  return profile;
}

nlohmann::json to_json(const sass_profile& profile) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& metric : profile.metrics)
    metrics.push_back({{"name", metric.friendly}, {"cupti", metric.cupti}});
  nlohmann::json functions = nlohmann::json::array();
  for (const auto& function : profile.functions) {
    nlohmann::json pcs = nlohmann::json::array();
    for (const auto& [pc, values] : function.values_by_pc)
      pcs.push_back({{"pc_offset", pc}, {"values", values}});
    functions.push_back({{"mangled", function.mangled},
                         {"function", function.function},
                         {"cubin_crc", function.cubin_crc},
                         {"instructions", pcs}});
  }
  return {{"format", "counterguard-sass-profile"},
          {"version", format_version},
          {"gpu", profile.gpu},
          {"chip", profile.chip},
          {"compute_capability", profile.compute_capability},
          {"case", profile.case_name},
          {"binary", profile.binary},
          {"metrics", metrics},
          {"dropped_records", profile.dropped_records},
          {"functions", functions}};
}

sass_profile sass_profile_from_json(const nlohmann::json& json, const std::string& source) {
  std::string field = "format";
  try {
    if (json.at("format").get<std::string>() != "counterguard-sass-profile") {
      throw input_error(source_location{source}, "format", "is not 'counterguard-sass-profile'",
                        "a file written by `counterguard blame --record`");
    }
    field = "version";
    const int version = json.at("version").get<int>();
    if (version != format_version) {
      throw input_error(source_location{source}, "version", "is " + std::to_string(version),
                        "version " + std::to_string(format_version) + " (re-record with this counterguard)");
    }
    sass_profile profile;
    field = "gpu";
    profile.gpu = json.at("gpu").get<std::string>();
    field = "chip";
    profile.chip = json.at("chip").get<std::string>();
    field = "compute_capability";
    profile.compute_capability = json.at("compute_capability").get<int>();
    field = "case";
    profile.case_name = json.at("case").get<std::string>();
    field = "binary";
    profile.binary = json.at("binary").get<std::string>();
    field = "dropped_records";
    profile.dropped_records = json.at("dropped_records").get<std::size_t>();
    field = "metrics";
    for (const auto& metric : json.at("metrics"))
      profile.metrics.push_back(
          {metric.at("name").get<std::string>(), metric.at("cupti").get<std::string>()});
    field = "functions";
    for (const auto& function : json.at("functions")) {
      sass_function_profile f;
      f.mangled = function.at("mangled").get<std::string>();
      f.function = function.at("function").get<std::string>();
      f.cubin_crc = function.at("cubin_crc").get<std::uint32_t>();
      for (const auto& pc : function.at("instructions")) {
        f.values_by_pc[pc.at("pc_offset").get<std::uint64_t>()] =
            pc.at("values").get<std::map<std::string, std::uint64_t>>();
      }
      profile.functions.push_back(std::move(f));
    }
    return profile;
  } catch (const nlohmann::json::exception& e) {
    throw input_error(source_location{source}, field, std::string("is missing or malformed: ") + e.what(),
                      "a file written by `counterguard blame --record`");
  }
}

void write_sass_profile(const std::string& path, const sass_profile& profile) {
  write_file_atomically(path, to_json(profile).dump(1) + "\n");
}

sass_profile read_sass_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw input_error(source_location{path}, "", "cannot be read",
                      "a file written by `counterguard blame --record`");
  nlohmann::json json;
  try {
    in >> json;
  } catch (const nlohmann::json::exception& e) {
    throw input_error(source_location{path}, "", std::string("is not JSON: ") + e.what(),
                      "a file written by `counterguard blame --record`");
  }
  return sass_profile_from_json(json, path);
}

}  // namespace counterguard
