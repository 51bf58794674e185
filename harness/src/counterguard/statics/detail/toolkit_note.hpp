// SPDX-License-Identifier: Apache-2.0
#pragma once
// The producer of a cubin: its .note.nv.tkinfo section (note type 2000, owner "NVIDIA Corp").
// The descriptor is six u32 fields, then a string area: field 0 is the note version (2), fields 1-5 are
// offsets into the string area (object name, tool, tool version, build, tool options), e.g.
// "ptxas", "Cuda compilation tools, release 13.0, V13.0.88", "-v -maxrregcount 32 -arch sm_90 -m 64".

#include <optional>
#include <string>
#include <vector>

#include "counterguard/statics/binary_view.hpp"

namespace counterguard::detail {

struct toolkit_note {
  std::string tool;     // "ptxas" or "nvlink"
  std::string version;  // "Cuda compilation tools, release 13.0, V13.0.88"
  std::string options;  // the tool's command-line options
  int release_major = 0;
  int release_minor = 0;

  [[nodiscard]] bool at_least(int major, int minor) const;
  // The options that change code generation, in nvcc's spelling ("-maxrregcount=32"); empty unless ptxas.
  [[nodiscard]] std::vector<std::string> code_generation_flags() const;
};

// The note, or nullopt when the section is missing or not in the layout above (the note is informative:
// a cubin without one is still read).
[[nodiscard]] std::optional<toolkit_note> read_toolkit_note(const binary_view& section);

}  // namespace counterguard::detail
