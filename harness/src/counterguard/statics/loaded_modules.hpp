// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// What the driver states of one function (cuFuncGetAttribute NUM_REGS, LOCAL_SIZE_BYTES, SHARED_SIZE_BYTES,
// CONST_SIZE_BYTES): all a launch can know of code whose module's image it never saw.
struct driver_function_attributes {
  int registers = 0;
  std::size_t local_bytes = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t constant_bytes = 0;
};

// The modules a process loaded as CUPTI's module-loaded callback handed them over (each with its id and the
// kernels of its cubin), and which driver module (CUmodule, as an opaque handle) each became: what gives a
// launch the static resources of the very function it ran when several modules hold a function of its name
// (Triton's autotuned configs, CuPy RawModules, several NVRTC programs, two versions of a library).
//
// A module-loaded callback arrives inside the API call that loads the module (cuModuleLoadData,
// cuLibraryLoadData, or a launch that loads a module lazily: validation/launch_code_checks.sh probe); the
// caller collects the ids loaded during a call on its thread and binds them when the call returns with the
// module's handle. Not thread-safe: the caller holds its lock.
class loaded_modules {
 public:
  // A module-loaded callback: `kernels` read from its image; `note` says why there are none (PTX, ...).
  void loaded(std::uint32_t id, std::vector<kernel_resources> kernels, std::string note);
  // A module-unload callback: its handle may be reused by a later module.
  void unloading(std::uint32_t id);
  // A call returned `handle` (cuModuleLoadData's module, the module of cuLibraryLoadData's library in the
  // current context, the module of a function a launch loaded lazily) after loading the modules `ids` on the
  // calling thread: the last of them not yet bound (holding a function `mangled`, when given) is the
  // handle's.
  void bind(std::uintptr_t handle, const std::vector<std::uint32_t>& ids, const std::string& mangled = {});

  // The static resources of function `mangled` of module `handle`, as launched: from the image bound to the
  // handle; else from a module loaded during the launch call (`loaded_during_call`, lazy loading) or the one
  // unbound module holding a function of that name with the driver's attributes (bound from then on); else
  // what the driver states of the function (`driver`), its spill bytes and barriers unknown and
  // unknown_because saying why. Never another module's function: an image whose function disagrees with the
  // driver about it is not taken. The result's `module` is the launch's key.
  [[nodiscard]] kernel_resources function_code(std::uintptr_t handle, const std::string& mangled,
                                               const std::string& function,
                                               const driver_function_attributes& driver,
                                               const std::vector<std::uint32_t>& loaded_during_call);

  [[nodiscard]] static std::string module_key(std::uint32_t id);

 private:
  struct module {
    std::vector<kernel_resources> kernels;
    std::string note;
    bool bound = false;
  };
  [[nodiscard]] const kernel_resources* kernel_of(std::uint32_t id, const std::string& mangled) const;

  std::map<std::uint32_t, module> m_modules;
  std::map<std::uintptr_t, std::uint32_t> m_handles;
};

// Whether the image's function agrees with what the driver states of the launched one (the same registers
// and static shared bytes, a stack frame the driver's local bytes hold): the same code.
[[nodiscard]] bool describes_same_function(const kernel_resources& image,
                                           const driver_function_attributes& driver);

}  // namespace counterguard
