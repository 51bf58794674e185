// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "counterguard/registry/input_fill.hpp"

namespace counterguard {

// The element types the GPU fill writes: every arithmetic type but long double (which the GPU lacks) and the
// character types other than char, signed char and unsigned char.
template <typename T>
inline constexpr bool has_device_fill =
    std::is_same_v<T, bool> || std::is_same_v<T, char> || std::is_same_v<T, signed char> ||
    std::is_same_v<T, unsigned char> || std::is_same_v<T, short> || std::is_same_v<T, unsigned short> ||
    std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> ||
    std::is_same_v<T, unsigned long long> || std::is_same_v<T, float> || std::is_same_v<T, double>;

// Writes static_cast<T>(fill.value_at(i, seed)) to target[i] for i < count, computed on the GPU: the same
// bits as the host computes for every value T can hold (the double arithmetic is rounded operation by
// operation, never contracted into fused multiply-adds). Enqueued on `stream`; the caller synchronises before
// reading.
template <typename T>
void fill_on_device(const input_fill& fill, std::uint64_t seed, std::size_t count, T* target,
                    cudaStream_t stream);

}  // namespace counterguard
