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

}  // namespace counterguard
