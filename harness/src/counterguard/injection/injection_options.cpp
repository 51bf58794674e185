// SPDX-License-Identifier: Apache-2.0
#include "injection_options.hpp"

#include <cstring>

namespace counterguard::injection {

const char* setup_reuse_name(setup_reuse reuse) {
  switch (reuse) {
    case setup_reuse::none:
      return "full";
    case setup_reuse::image:
      return "image";
    case setup_reuse::config:
      return "config";
  }
  return "image";
}

injection_options read_injection_options(environment_lookup lookup, const void* context) {
  injection_options options;
  const char* reuse = lookup("COUNTERGUARD_INJECTION_SETUP", context);
  if (reuse != nullptr && *reuse != '\0') {
    if (std::strcmp(reuse, "full") == 0) {
      options.reuse = setup_reuse::none;
    } else if (std::strcmp(reuse, "image") == 0) {
      options.reuse = setup_reuse::image;
    } else if (std::strcmp(reuse, "config") == 0) {
      options.reuse = setup_reuse::config;
    } else {
      options.problem = std::string("COUNTERGUARD_INJECTION_SETUP='") + reuse +
                        "' is not one of full, image, config; using image";
    }
  }
  return options;
}

}  // namespace counterguard::injection
