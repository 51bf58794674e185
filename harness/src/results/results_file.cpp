#include "counterguard/results/results_file.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "counterguard/core/error.hpp"

namespace counterguard {

run_results read_results_file(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw input_error({path}, "", "cannot read the results file", "give a file written by `--json`");
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw input_error({path}, "", std::string("not valid JSON: ") + e.what());
  }
  try {
    return document.get<run_results>();
  } catch (const input_error& e) {
    throw input_error({path}, e.field(), e.problem(), e.valid());
  } catch (const nlohmann::json::exception& e) {
    throw input_error({path}, "", std::string("not a results file: ") + e.what());
  }
}

}  // namespace counterguard
