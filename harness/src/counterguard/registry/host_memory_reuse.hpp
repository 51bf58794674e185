// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace counterguard {

// Tells the C library to keep host memory it has handed out and got back, instead of returning it to the
// system: one case's input and output vectors (tens of MB) then reuse pages an earlier case already touched,
// rather than faulting in fresh ones. On the H200 host this took the built-in suite's input creation from
// 0.54 to 0.38 s and its verification from 0.89 to 0.77 s (validation/h200.md, "Per case"). The process keeps
// the high-water mark of its cases (flat in their number). Call once, before the first case; for processes
// that run cases (`run` workers, `launch`), not for a program under `exec`.
void reuse_host_memory();

}  // namespace counterguard
