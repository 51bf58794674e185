// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

namespace counterguard {

// Turns the paths a run recorded (a blamed line's file as the compiler recorded it, a suite file as it was
// given) into paths relative to the repository root, the form a pull request's diff, a Code Quality report
// and SARIF place findings by.
class repository_paths {
 public:
  // `root`: the repository's top-level folder (made absolute).
  explicit repository_paths(const std::string& root);

  [[nodiscard]] const std::string& root() const { return m_root; }

  // "kernels/transpose/transpose.cu" for a file below the root; for one outside it (built in another
  // checkout: a GPU machine's workspace, a container's /src), the longest tail of its path that names a file
  // below the root. nullopt when no file of the repository matches.
  [[nodiscard]] std::optional<std::string> relative(const std::string& file) const;

 private:
  std::string m_root;
};

// Links to lines of the repository at the commit under test, for the Markdown report's blamed lines.
struct source_links {
  // The folder URL at the commit: "https://github.com/OWNER/REPO/blob/SHA" (GitHub),
  // "https://gitlab.example.com/group/project/-/blob/SHA" (GitLab); empty: no links.
  std::string url_base;
  std::string source_root;  // the repository root the paths are relative to (find_source_root)
};

// url_base + "/" + path + "#L" + line.
[[nodiscard]] std::string line_url(const std::string& url_base, const std::string& path, int line);

// The repository root reports place findings under: `given` (--source-root) when not empty, else
// $GITHUB_WORKSPACE, else $CI_PROJECT_DIR (the checkouts of GitHub Actions and GitLab CI), else the nearest
// folder above the working directory holding .git (git's top level), else the working directory.
[[nodiscard]] std::string find_source_root(const std::string& given);

}  // namespace counterguard
