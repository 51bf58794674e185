# SPDX-License-Identifier: Apache-2.0
# Finds the NVIDIA Perfworks libraries that the CUPTI profiler host API and range profiler load.
# CMake's FindCUDAToolkit provides CUDA::cupti but not these.
#   CUPTI::nvperf_host    metric evaluation and configuration (works without a GPU)
#   CUPTI::nvperf_target  counter collection on a GPU
find_library(CUPTI_NVPERF_HOST_LIBRARY nvperf_host
             HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64)
find_library(CUPTI_NVPERF_TARGET_LIBRARY nvperf_target
             HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64)
find_path(CUPTI_PROFILER_HOST_INCLUDE_DIR cupti_profiler_host.h
          HINTS ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_CUPTI_INCLUDE_DIR})

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CUPTIProfilerHost
  REQUIRED_VARS CUPTI_NVPERF_HOST_LIBRARY CUPTI_NVPERF_TARGET_LIBRARY CUPTI_PROFILER_HOST_INCLUDE_DIR)

if(CUPTIProfilerHost_FOUND AND NOT TARGET CUPTI::nvperf_host)
  add_library(CUPTI::nvperf_host SHARED IMPORTED)
  set_target_properties(CUPTI::nvperf_host PROPERTIES
    IMPORTED_LOCATION "${CUPTI_NVPERF_HOST_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CUPTI_PROFILER_HOST_INCLUDE_DIR}")
  add_library(CUPTI::nvperf_target SHARED IMPORTED)
  set_target_properties(CUPTI::nvperf_target PROPERTIES
    IMPORTED_LOCATION "${CUPTI_NVPERF_TARGET_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CUPTI_PROFILER_HOST_INCLUDE_DIR}")
endif()
