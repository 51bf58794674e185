// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>

namespace counterguard {

// Replaces `path` with `content` (text or bytes) so that readers see the old file or the new one, never a
// mix: create the directory if it is missing, write <path>.tmp.<pid> beside it, fsync it, rename it over
// <path>, fsync the directory. On any failure the temporary file is removed, the old file is left as it
// was, and an environment_error (file_system) naming the path and the system's reason is thrown.
// `before_rename` runs after the temporary file is complete and synced and before the rename (tests use it to
// fail at the last moment).
void write_file_atomically(const std::string& path, const std::string& content,
                           const std::function<void(const std::string& temporary_path)>& before_rename = {});

// The same without the fsyncs: readers still see the old file or the new one (a killed writer leaves no torn
// file), but a crash of the machine may lose the write. For files that live only as long as the run writing
// them, where the syncs were the cost: `counterguard exec` writes three files per profiled launch.
void write_scratch_file_atomically(const std::string& path, const std::string& content);

// Which of the two a writer that serves both uses.
enum class file_durability { synced, scratch };

}  // namespace counterguard
