// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/host_memory_reuse.hpp"

#include <malloc.h>

namespace counterguard {

void reuse_host_memory() {
  // Large blocks from the heap rather than their own mappings (which free() unmaps at once), a heap that is
  // never trimmed, and room to grow by 256 MB at a time.
  static_cast<void>(mallopt(M_MMAP_MAX, 0));
  static_cast<void>(mallopt(M_TRIM_THRESHOLD, -1));
  static_cast<void>(mallopt(M_TOP_PAD, 256 << 20));
}

}  // namespace counterguard
