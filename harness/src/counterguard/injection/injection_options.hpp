// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard::injection {

// How much of a profiled launch's set-up is reused from the launch before (COUNTERGUARD_INJECTION_SETUP).
enum class setup_reuse {
  none,   // "full": every launch sizes and initialises its counter-data image and calls SetConfig (the
          // sequence the CUPTI samples and profiler/device_profiler.cpp use, verified on an H200)
  image,  // "image" (default): the image is sized and initialised once per configuration and profiler
          // object; each launch starts from a copy of those pristine bytes, then SetConfig and Start
  config  // "config": as image, and SetConfig only when the profiler object, configuration or image buffer
          // changed; a launch only copies the pristine bytes back and calls Start (the same values as "full"
          // on the H200: validation/exec_checks.sh setups)
};

// The injection library's tuning switch, read once per process from its environment: for measuring exec's
// overhead and checking that the faster paths measure the same values.
struct injection_options {
  setup_reuse reuse = setup_reuse::image;
  // What was wrong with the variable (empty when nothing): the library says it once and uses the default.
  std::string problem;
};

// Reads the options through `lookup` (std::getenv in the library; a map in tests).
using environment_lookup = const char* (*)(const char* name, const void* context);
[[nodiscard]] injection_options read_injection_options(environment_lookup lookup, const void* context);
[[nodiscard]] const char* setup_reuse_name(setup_reuse reuse);

}  // namespace counterguard::injection
