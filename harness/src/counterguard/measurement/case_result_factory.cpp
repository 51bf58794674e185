// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/case_result_factory.hpp"

namespace counterguard {

case_result make_case_result(const case_instance& instance) {
  case_result result;
  result.instance = instance.name;
  result.suite = instance.suite;
  result.case_name = instance.case_name;
  result.kernel = instance.kernel;
  for (const auto& [name, value] : instance.parameters)
    result.parameters[name] = value.to_string();
  result.status = case_status::passed;
  if (!instance.where.file.empty())
    result.source = instance.where;
  return result;
}

}  // namespace counterguard
