#pragma once

#include <cupti_callbacks.h>
#include <cupti_runtime_cbid.h>

#include <array>

namespace counterguard::detail {

// The CUDA runtime's kernel-launch entry points whose CUPTI callbacks counterguard enables, in-process (the
// profiler's launch recorder) and in the injection library alike: the classic, Ex and cooperative launches,
// each with its per-thread default stream variant, and CUDA 13's __cudaLaunchKernel, through which <<<>>>
// launches (internal_launch_params.hpp). Any other callback is ignored.
inline constexpr std::array<CUpti_CallbackId, 8> runtime_launch_callback_ids = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};

}  // namespace counterguard::detail
