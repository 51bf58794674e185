// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/blamed_launches.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"
#include "detail/versioned_json_file.hpp"

namespace counterguard {

namespace fs = std::filesystem;

void save_exec_blame_request(const std::string& path, const exec_blame_request& request) {
  const nlohmann::json document{{"schema_version", exec_blame_request::schema_version},
                                {"metrics", request.metrics}};
  write_file_atomically(path, document.dump(2) + "\n");
}

exec_blame_request load_exec_blame_request(const std::string& path) {
  const auto file = detail::read_versioned_json_file(
      path,
      {"the exec blame request", "it is written by `counterguard exec --blame`; run the program through it",
       exec_blame_request::schema_version,
       " (the injection library and the counterguard that wrote the file differ)"});
  const json_reader& reader = file.reader;
  const nlohmann::json& document = file.document;
  exec_blame_request request;
  request.metrics = reader.strings(document, "", "metrics");
  return request;
}

fs::path blamed_launch_profile_path(const fs::path& process_folder, int index) {
  return process_folder / fmt::format("blamed_launch_{:04}.json", index);
}

fs::path blamed_launch_cubin_path(const fs::path& process_folder, int index) {
  return process_folder / fmt::format("blamed_launch_{:04}.cubin", index);
}

std::map<std::string, sass_profile> load_blamed_launches(const std::vector<recorded_process>& processes) {
  std::map<std::string, sass_profile> by_case;
  for (const auto& process : processes) {
    std::vector<fs::path> files;
    std::error_code status;
    for (const auto& entry : fs::directory_iterator(process.folder, status)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("blamed_launch_", 0) == 0 && entry.path().extension() == ".json")
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      sass_profile profile = read_sass_profile(file.string());
      profile.binary = (process.folder / profile.binary).string();
      by_case.emplace(profile.case_name, std::move(profile));  // the first process's stays
    }
  }
  return by_case;
}

}  // namespace counterguard
