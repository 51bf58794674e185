#include "counterguard/runner/worker_request.hpp"

#include <nlohmann/json.hpp>

namespace counterguard {

void to_json(nlohmann::json& out, const worker_request& request) {
  out = nlohmann::json{{"suite_paths", request.suite_paths},
                       {"instances", request.instances},
                       {"archive_indices", request.archive_indices},
                       {"extra_metrics", request.extra_metrics},
                       {"save_counter_data_dir", request.save_counter_data_dir},
                       {"device", request.device}};
}

void from_json(const nlohmann::json& in, worker_request& request) {
  in.at("suite_paths").get_to(request.suite_paths);
  in.at("instances").get_to(request.instances);
  in.at("archive_indices").get_to(request.archive_indices);
  in.at("extra_metrics").get_to(request.extra_metrics);
  in.at("save_counter_data_dir").get_to(request.save_counter_data_dir);
  in.at("device").get_to(request.device);
}

}  // namespace counterguard
