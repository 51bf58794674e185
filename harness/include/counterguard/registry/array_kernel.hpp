// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <typeindex>
#include <vector>

#include "counterguard/registry/device_fill.hpp"
#include "counterguard/registry/input_fill.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/registry/parallel_for.hpp"

namespace counterguard {

struct array_kernel_spec;  // a kernel's declared arrays, launch and verification (registry's own)
struct array_storage;      // the device arrays of one prepared case (registry's own)

// What a launch function sees: the case's parameters, its stream and the device arrays by name.
class array_launch {
 public:
  array_launch(const kernel_arguments& arguments, cudaStream_t stream, array_storage& arrays);

  [[nodiscard]] std::int64_t integer(const std::string& name) const { return m_arguments.integer(name); }
  [[nodiscard]] double number(const std::string& name) const { return m_arguments.number(name); }
  [[nodiscard]] const std::string& text(const std::string& name) const { return m_arguments.text(name); }
  // The case's block size (launch.block x) when it sets one, else `fallback`.
  [[nodiscard]] unsigned block_x(unsigned fallback) const { return m_arguments.block_x(fallback); }
  [[nodiscard]] const kernel_arguments& arguments() const { return m_arguments; }
  [[nodiscard]] cudaStream_t stream() const { return m_stream; }

  // The device array `name` (declared with input/output/inout of element type T).
  template <typename T>
  [[nodiscard]] const T* in(const std::string& name) const {
    return static_cast<const T*>(device(name, typeid(T)));
  }
  template <typename T>
  [[nodiscard]] T* out(const std::string& name) const {
    return static_cast<T*>(device(name, typeid(T)));
  }
  // Its element count.
  [[nodiscard]] std::size_t size(const std::string& name) const;

 private:
  [[nodiscard]] void* device(const std::string& name, std::type_index type) const;
  const kernel_arguments& m_arguments;
  cudaStream_t m_stream;
  array_storage& m_arrays;
};

// What a verify function sees: the parameters, the generated inputs as the kernel got them, the outputs.
class array_check {
 public:
  array_check(const kernel_arguments& arguments, array_storage& arrays);

  [[nodiscard]] std::int64_t integer(const std::string& name) const { return m_arguments.integer(name); }
  [[nodiscard]] double number(const std::string& name) const { return m_arguments.number(name); }
  [[nodiscard]] const std::string& text(const std::string& name) const { return m_arguments.text(name); }
  [[nodiscard]] unsigned block_x(unsigned fallback) const { return m_arguments.block_x(fallback); }

  // The values an input (or inout) array held before the launch.
  template <typename T>
  [[nodiscard]] std::vector<T> input(const std::string& name) const {
    std::vector<T> values(size(name));
    copy_input(name, typeid(T), values.data());
    return values;
  }
  // What an output (or inout) array holds after the launch.
  template <typename T>
  [[nodiscard]] std::vector<T> output(const std::string& name) const {
    std::vector<T> values(size(name));
    copy_output(name, typeid(T), values.data());
    return values;
  }
  [[nodiscard]] std::size_t size(const std::string& name) const;

 private:
  void copy_input(const std::string& name, std::type_index type, void* target) const;
  void copy_output(const std::string& name, std::type_index type, void* target) const;
  const kernel_arguments& m_arguments;
  array_storage& m_arrays;
};

using array_launch_function = std::function<void(const array_launch&)>;
using array_verify_function = std::function<verification(const array_check&)>;

// The short registration for kernels over plain device arrays: declare the parameters, the arrays (sizes are
// formulas of the parameters; inputs are filled deterministically), how to launch and, optionally, how to
// check the output. counterguard allocates and fills the arrays outside the profiled region, poisons outputs
// (all bits set: NaN for floats) so unwritten elements show, and reports a variant without `verify` as
// unverified.
//   COUNTERGUARD_KERNEL("reduce/shared_tree")
//       .launches("example::reduce_shared_tree")
//       .parameter("n", std::int64_t{1} << 20, "elements", range(256, 1 << 26).multiple_of(256))
//       .input<float>("in", "n", uniform(-1, 1))
//       .output<float>("partial", "n / 256")
//       .run([](const array_launch& l) {
//         example::reduce_shared_tree<<<l.integer("n") / 256, 256, 0, l.stream()>>>(
//             l.in<float>("in"), l.out<float>("partial"));
//       })
//       .verify([](const array_check& c) { return compare_with_reference(...); });
class array_kernel {
 public:
  explicit array_kernel(kernel_definition& definition);

  array_kernel& describe(std::string description);
  array_kernel& launches(std::string device_function);
  array_kernel& parameter(std::string name, parameter_value default_value, std::string description = {},
                          value_range allowed = {});
  array_kernel& block_size(value_range allowed);
  array_kernel& require(std::string description, std::function<bool(const kernel_arguments&)> holds);
  array_kernel& min_compute_capability(int capability);

  // An array the kernel reads: `count` elements (a formula of the parameters, e.g. "n / 256"), filled by
  // `fill`.
  template <typename T>
  array_kernel& input(std::string name, std::string count, input_fill fill) {
    static_assert(std::is_arithmetic_v<T>, "generated inputs are numbers; use a kernel_run for other types");
    return add_array(std::move(name), std::move(count), sizeof(T), typeid(T), role::input, fill,
                     &convert_fill<T>, device_fill_of<T>());
  }
  // An array the kernel writes, poisoned before the launch.
  template <typename T>
  array_kernel& output(std::string name, std::string count) {
    static_assert(std::is_trivially_copyable_v<T>, "device arrays hold trivially copyable elements");
    return add_array(std::move(name), std::move(count), sizeof(T), typeid(T), role::output, {}, nullptr,
                     nullptr);
  }
  // An array the kernel reads and writes in place.
  template <typename T>
  array_kernel& inout(std::string name, std::string count, input_fill fill) {
    static_assert(std::is_arithmetic_v<T>, "generated inputs are numbers; use a kernel_run for other types");
    return add_array(std::move(name), std::move(count), sizeof(T), typeid(T), role::inout, fill,
                     &convert_fill<T>, device_fill_of<T>());
  }

  array_kernel& run(array_launch_function launch);
  array_kernel& verify(array_verify_function check);

  [[nodiscard]] kernel_definition& definition() const { return m_definition; }

  enum class role { input, output, inout };
  // Writes `count` elements of type T filled by `fill` (seeded with `seed`) into `target`.
  using fill_function = void (*)(const input_fill& fill, std::uint64_t seed, std::size_t count, void* target);
  // The same on the GPU: `target` is device memory (device_fill.hpp).
  using device_fill_function = void (*)(const input_fill& fill, std::uint64_t seed, std::size_t count,
                                        void* target);

 private:
  template <typename T>
  static void convert_fill(const input_fill& fill, std::uint64_t seed, std::size_t count, void* target) {
    T* values = static_cast<T*>(target);
    parallel_for(count, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        values[i] = static_cast<T>(fill.value_at(i, seed));
    });
  }
  template <typename T>
  static device_fill_function device_fill_of() {
    if constexpr (has_device_fill<T>) {
      return [](const input_fill& fill, std::uint64_t seed, std::size_t count, void* target) {
        fill_on_device<T>(fill, seed, count, static_cast<T*>(target), nullptr);
      };
    } else {
      return nullptr;
    }
  }
  array_kernel& add_array(std::string name, std::string count, std::size_t element_bytes,
                          std::type_index type, role what, input_fill fill, fill_function convert,
                          device_fill_function device_convert);
  void install_factory();

  kernel_definition& m_definition;
  std::shared_ptr<array_kernel_spec> m_spec;
};

}  // namespace counterguard

// Registers a kernel over device arrays at static initialisation; chain array_kernel setters after it.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define COUNTERGUARD_KERNEL(name)                                                  \
  [[maybe_unused]] static ::counterguard::array_kernel COUNTERGUARD_DETAIL_CONCAT( \
      counterguard_array_kernel_, __LINE__) =                                      \
      ::counterguard::array_kernel(::counterguard::kernel_registry::global().add(name))
// NOLINTEND(bugprone-macro-parentheses)
