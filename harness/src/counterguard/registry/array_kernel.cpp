// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/array_kernel.hpp"

#include <cmath>
#include <utility>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/model/formula.hpp"
#include "counterguard/registry/device_memory_reuse.hpp"

namespace counterguard {
namespace detail {

struct array_declaration {
  std::string name;
  formula count;
  std::size_t element_bytes = 0;
  std::type_index type = typeid(void);
  array_kernel::role what = array_kernel::role::input;
  input_fill fill;
  array_kernel::fill_function convert = nullptr;
  // Null: the element type is filled on the host and uploaded.
  array_kernel::device_fill_function device_convert = nullptr;
};

// One device array of a prepared case, with the host copy of what was uploaded.
struct device_array {
  const array_declaration* declaration = nullptr;
  std::size_t count = 0;
  void* device = nullptr;
  std::uint64_t seed = 0;  // inputs: the seed of the fill
  // Inputs: the bytes the kernel got. Filled on the GPU: made by host_copy() on first use.
  std::vector<unsigned char> uploaded;
  bool host_copy_made = false;

  device_array() = default;
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  device_array(device_array&& other) noexcept
      : declaration(other.declaration),
        count(other.count),
        device(other.device),
        seed(other.seed),
        uploaded(std::move(other.uploaded)),
        host_copy_made(other.host_copy_made) {
    other.device = nullptr;
  }
  device_array& operator=(device_array&&) = delete;
  ~device_array() {
    if (device != nullptr)
      free_device_memory(device, bytes());
  }

  [[nodiscard]] std::size_t bytes() const { return count * declaration->element_bytes; }

  // The host copy of an input's values, generated on the host from the same fill the GPU used (the two are
  // bit-identical: device_fill_test), only when a verification asks for it.
  const std::vector<unsigned char>& host_copy() {
    if (!host_copy_made) {
      uploaded.resize(bytes());
      declaration->convert(declaration->fill, seed, count, uploaded.data());
      host_copy_made = true;
    }
    return uploaded;
  }
};

}  // namespace detail

// What array_kernel.hpp declares: a kernel's arrays and functions, and the arrays of one prepared case.
struct array_kernel_spec {
  std::string kernel;
  std::vector<detail::array_declaration> arrays;
  array_launch_function launch;
  array_verify_function verify;
};

struct array_storage {
  std::string kernel;
  std::vector<detail::device_array> arrays;

  detail::device_array& find(const std::string& name, std::type_index type) {
    for (auto& array : arrays) {
      if (array.declaration->name != name)
        continue;
      if (array.declaration->type != type) {
        throw registration_error("kernel '" + kernel + "' uses array '" + name +
                                 "' with another element type than it declared");
      }
      return array;
    }
    throw registration_error("kernel '" + kernel + "' uses array '" + name + "', which it does not declare");
  }
  detail::device_array& find(const std::string& name) {
    for (auto& array : arrays) {
      if (array.declaration->name == name)
        return array;
    }
    throw registration_error("kernel '" + kernel + "' uses array '" + name + "', which it does not declare");
  }
};

namespace {

// The element count of an array for one case instance: a whole number >= 0, or why not.
bool whole_count(const formula& count, const parameter_list& parameters, double& value) {
  try {
    value = count.evaluate(parameters);
  } catch (const input_error&) {
    return false;
  }
  return std::isfinite(value) && value >= 0 && value == std::floor(value);
}

class array_kernel_run final : public kernel_run {
 public:
  array_kernel_run(std::shared_ptr<const array_kernel_spec> spec, const kernel_arguments& arguments)
      : m_spec(std::move(spec)), m_arguments(arguments) {
    m_storage.kernel = m_spec->kernel;
    m_storage.arrays.reserve(m_spec->arrays.size());
    bool filled_on_device = false;
    for (const auto& declaration : m_spec->arrays) {
      detail::device_array array;
      array.declaration = &declaration;
      double count = 0;
      if (!whole_count(declaration.count, arguments.parameters(), count)) {
        throw input_error({}, "arrays." + declaration.name,
                          "the size '" + declaration.count.text() + "' is not a whole number of elements");
      }
      array.count = static_cast<std::size_t>(count);
      if (array.bytes() > 0)
        array.device = allocate_device_memory(array.bytes());
      if (declaration.what == array_kernel::role::output) {
        if (array.bytes() > 0)
          COUNTERGUARD_CUDA_CHECK(cudaMemset(array.device, 0xFF, array.bytes()));
      } else {
        array.seed = declaration.fill.seed != 0 ? declaration.fill.seed
                                                : seed_of_name(m_spec->kernel + "/" + declaration.name);
        if (declaration.device_convert != nullptr) {
          // Generated where it is used: no host generation and no upload; the host copy waits for verify.
          declaration.device_convert(declaration.fill, array.seed, array.count, array.device);
          filled_on_device = true;
        } else {
          array.host_copy();
          if (array.bytes() > 0) {
            COUNTERGUARD_CUDA_CHECK(
                cudaMemcpy(array.device, array.uploaded.data(), array.bytes(), cudaMemcpyHostToDevice));
          }
        }
      }
      m_storage.arrays.push_back(std::move(array));
    }
    // The fills ran on the legacy default stream; the case's stream may not wait for it.
    if (filled_on_device)
      COUNTERGUARD_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  void launch(cudaStream_t stream) override {
    m_spec->launch(array_launch(m_arguments, stream, m_storage));
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    if (!m_spec->verify)
      return verification::unverified();
    return m_spec->verify(array_check(m_arguments, m_storage));
  }

 private:
  std::shared_ptr<const array_kernel_spec> m_spec;
  kernel_arguments m_arguments;
  array_storage m_storage;
};

}  // namespace

array_launch::array_launch(const kernel_arguments& arguments, cudaStream_t stream, array_storage& arrays)
    : m_arguments(arguments), m_stream(stream), m_arrays(arrays) {}

void* array_launch::device(const std::string& name, std::type_index type) const {
  return m_arrays.find(name, type).device;
}

std::size_t array_launch::size(const std::string& name) const {
  return m_arrays.find(name).count;
}

array_check::array_check(const kernel_arguments& arguments, array_storage& arrays)
    : m_arguments(arguments), m_arrays(arrays) {}

std::size_t array_check::size(const std::string& name) const {
  return m_arrays.find(name).count;
}

void array_check::copy_input(const std::string& name, std::type_index type, void* target) const {
  detail::device_array& array = m_arrays.find(name, type);
  if (array.declaration->what == array_kernel::role::output) {
    throw registration_error("kernel '" + m_arrays.kernel + "' reads array '" + name +
                             "' as an input, but it is declared as an output");
  }
  const std::vector<unsigned char>& values = array.host_copy();
  std::copy(values.begin(), values.end(), static_cast<unsigned char*>(target));
}

void array_check::copy_output(const std::string& name, std::type_index type, void* target) const {
  const detail::device_array& array = m_arrays.find(name, type);
  if (array.bytes() > 0)
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(target, array.device, array.bytes(), cudaMemcpyDeviceToHost));
}

array_kernel::array_kernel(kernel_definition& definition)
    : m_definition(definition), m_spec(std::make_shared<array_kernel_spec>()) {
  m_spec->kernel = definition.name();
  install_factory();
}

array_kernel& array_kernel::describe(std::string description) {
  m_definition.describe(std::move(description));
  return *this;
}

array_kernel& array_kernel::launches(std::string device_function) {
  m_definition.launches(std::move(device_function));
  return *this;
}

array_kernel& array_kernel::parameter(std::string name, parameter_value default_value,
                                      std::string description, value_range allowed) {
  m_definition.parameter(std::move(name), std::move(default_value), std::move(description),
                         std::move(allowed));
  return *this;
}

array_kernel& array_kernel::block_size(value_range allowed) {
  m_definition.block_size(std::move(allowed));
  return *this;
}

array_kernel& array_kernel::require(std::string description,
                                    std::function<bool(const kernel_arguments&)> holds) {
  m_definition.require(std::move(description), std::move(holds));
  return *this;
}

array_kernel& array_kernel::min_compute_capability(int capability) {
  m_definition.min_compute_capability(capability);
  return *this;
}

array_kernel& array_kernel::add_array(std::string name, std::string count, std::size_t element_bytes,
                                      std::type_index type, role what, input_fill fill, fill_function convert,
                                      device_fill_function device_convert) {
  for (const auto& existing : m_spec->arrays) {
    if (existing.name == name)
      throw registration_error("kernel '" + m_spec->kernel + "' declares array '" + name + "' twice");
  }
  const source_location where{"kernel '" + m_spec->kernel + "'", 0, 0};
  detail::array_declaration declaration{
      name,          formula::parse(count, where, "arrays." + name), element_bytes, type, what, fill, convert,
      device_convert};
  // Checked when a suite is loaded: each instance's parameters give every array a whole number of elements.
  m_definition.require("the size of array '" + name + "' (" + count + ") is a whole number of elements",
                       [size = declaration.count](const kernel_arguments& a) {
                         double value = 0;
                         return whole_count(size, a.parameters(), value);
                       });
  m_spec->arrays.push_back(std::move(declaration));
  return *this;
}

array_kernel& array_kernel::run(array_launch_function launch) {
  m_spec->launch = std::move(launch);
  return *this;
}

array_kernel& array_kernel::verify(array_verify_function check) {
  m_spec->verify = std::move(check);
  return *this;
}

void array_kernel::install_factory() {
  m_definition.factory([spec = std::shared_ptr<const array_kernel_spec>(m_spec)](const kernel_arguments& a) {
    if (!spec->launch)
      throw registration_error("kernel '" + spec->kernel +
                               "' has no run(...): counterguard cannot launch it");
    return std::unique_ptr<kernel_run>(std::make_unique<array_kernel_run>(spec, a));
  });
}

}  // namespace counterguard
