// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace counterguard::detail {

// Makes `device_ordinal` current and creates its primary context (CUPTI profiles the current context), for
// the range profiler and the SASS metrics collector alike. Throws environment_error (no GPU) when CUDA finds
// none, input_error for an ordinal the machine lacks, and cuda errors as api_error.
void open_primary_context(int device_ordinal);

}  // namespace counterguard::detail
