// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/loaded_modules.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace counterguard {
namespace {

kernel_resources stated_by_driver(std::uintptr_t handle, const std::string& mangled,
                                  const std::string& function, const driver_function_attributes& driver,
                                  std::string why) {
  kernel_resources code;
  code.mangled = mangled;
  code.function = function;
  code.registers = driver.registers;
  code.stack_frame_bytes = driver.local_bytes;
  code.static_shared_bytes = driver.static_shared_bytes;
  code.constant_bytes = driver.constant_bytes;
  code.spill_bytes_known = false;
  code.barriers_known = false;
  code.module = fmt::format("function of module {:#x}", handle);
  code.unknown_because =
      std::move(why) +
      ": registers, stack, shared and constant bytes are what the driver states of the function "
      "(cuFuncGetAttribute); spill bytes and barriers are in the cubin alone";
  return code;
}

bool same_values(const kernel_resources& a, const kernel_resources& b) {
  return a.registers == b.registers && a.barriers == b.barriers &&
         a.stack_frame_bytes == b.stack_frame_bytes && a.spill_store_bytes == b.spill_store_bytes &&
         a.spill_load_bytes == b.spill_load_bytes && a.spill_bytes_known == b.spill_bytes_known &&
         a.static_shared_bytes == b.static_shared_bytes && a.constant_bytes == b.constant_bytes;
}

}  // namespace

bool describes_same_function(const kernel_resources& image, const driver_function_attributes& driver) {
  // The driver's local bytes are at least the function's own stack frame (they may hold its callees' too).
  return image.registers == driver.registers && image.stack_frame_bytes <= driver.local_bytes &&
         image.static_shared_bytes == driver.static_shared_bytes;
}

std::string loaded_modules::module_key(std::uint32_t id) {
  return "module " + std::to_string(id);
}

void loaded_modules::loaded(std::uint32_t id, std::vector<kernel_resources> kernels, std::string note) {
  for (auto& kernel : kernels)
    kernel.module = module_key(id);
  m_modules[id] = module{std::move(kernels), std::move(note), false};
}

void loaded_modules::unloading(std::uint32_t id) {
  m_modules.erase(id);
  for (auto it = m_handles.begin(); it != m_handles.end();) {
    it = it->second == id ? m_handles.erase(it) : std::next(it);
  }
}

void loaded_modules::bind(std::uintptr_t handle, const std::vector<std::uint32_t>& ids,
                          const std::string& mangled) {
  if (handle == 0 || m_handles.count(handle) != 0)
    return;
  // One load call loads one module into the calling thread's context; the last one it loaded is the handle's.
  for (auto id = ids.rbegin(); id != ids.rend(); ++id) {
    const auto found = m_modules.find(*id);
    if (found != m_modules.end() && !found->second.bound && (mangled.empty() || kernel_of(*id, mangled))) {
      found->second.bound = true;
      m_handles[handle] = *id;
      return;
    }
  }
}

const kernel_resources* loaded_modules::kernel_of(std::uint32_t id, const std::string& mangled) const {
  const auto found = m_modules.find(id);
  if (found == m_modules.end())
    return nullptr;
  const auto& kernels = found->second.kernels;
  const auto kernel = std::find_if(kernels.begin(), kernels.end(),
                                   [&](const kernel_resources& k) { return k.mangled == mangled; });
  return kernel == kernels.end() ? nullptr : &*kernel;
}

kernel_resources loaded_modules::function_code(std::uintptr_t handle, const std::string& mangled,
                                               const std::string& function,
                                               const driver_function_attributes& driver,
                                               const std::vector<std::uint32_t>& loaded_during_call) {
  if (const auto bound = m_handles.find(handle); bound != m_handles.end()) {
    const module& image = m_modules.at(bound->second);
    const kernel_resources* kernel = kernel_of(bound->second, mangled);
    if (kernel != nullptr && describes_same_function(*kernel, driver))
      return *kernel;
    const std::string why =
        kernel != nullptr ? fmt::format(
                                "the image of {} describes another '{}' than the driver ran ({} "
                                "registers, the driver states {})",
                                module_key(bound->second), function, kernel->registers, driver.registers)
        : !image.note.empty()
            ? fmt::format("{} holds no cubin of '{}' ({})", module_key(bound->second), function, image.note)
            : fmt::format("{} holds no function '{}'", module_key(bound->second), function);
    return stated_by_driver(handle, mangled, function, driver, why);
  }
  // Lazy loading: the launch call itself loaded the function's module.
  for (auto id = loaded_during_call.rbegin(); id != loaded_during_call.rend(); ++id) {
    const auto found = m_modules.find(*id);
    const kernel_resources* kernel = kernel_of(*id, mangled);
    if (found != m_modules.end() && !found->second.bound && kernel != nullptr &&
        describes_same_function(*kernel, driver)) {
      found->second.bound = true;
      m_handles[handle] = *id;
      return *kernel;
    }
  }
  // A module loaded by a call this table was not told of (cuKernelGetFunction loading lazily, another
  // entry point): the unbound modules with a function of this name that agrees with the driver. Taken when
  // they all describe it alike (the same values, whichever is its own), bound when there is one.
  std::vector<std::uint32_t> candidates;
  for (const auto& [id, image] : m_modules) {
    const kernel_resources* kernel = kernel_of(id, mangled);
    if (!image.bound && kernel != nullptr && describes_same_function(*kernel, driver))
      candidates.push_back(id);
  }
  if (candidates.size() == 1) {
    m_modules.at(candidates.front()).bound = true;
    m_handles[handle] = candidates.front();
    return *kernel_of(candidates.front(), mangled);
  }
  if (!candidates.empty()) {
    const kernel_resources& first = *kernel_of(candidates.front(), mangled);
    const bool alike = std::all_of(candidates.begin(), candidates.end(), [&](std::uint32_t id) {
      return same_values(*kernel_of(id, mangled), first);
    });
    if (alike) {
      kernel_resources code = first;
      code.module = fmt::format("function of module {:#x}", handle);
      return code;
    }
    return stated_by_driver(
        handle, mangled, function, driver,
        fmt::format("{} loaded modules hold a '{}' with the driver's registers, stack and shared bytes but "
                    "differ in the rest, and no load call said which one this is",
                    candidates.size(), function));
  }
  for (const std::uint32_t id : loaded_during_call) {
    const auto found = m_modules.find(id);
    if (found != m_modules.end() && found->second.kernels.empty() && !found->second.note.empty())
      return stated_by_driver(handle, mangled, function, driver,
                              fmt::format("{} was loaded as {}", module_key(id), found->second.note));
  }
  return stated_by_driver(handle, mangled, function, driver,
                          "its module was loaded before counterguard watched the process (CUPTI hands a "
                          "module's cubin over only as it loads), or as PTX the driver compiled");
}

}  // namespace counterguard
