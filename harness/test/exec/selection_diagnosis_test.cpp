// SPDX-License-Identifier: Apache-2.0
// Why a selector that selected nothing came close, and the selector to write instead.
#include "counterguard/exec/selection_diagnosis.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

nvtx_context pushed(std::vector<std::string> ranges, std::string domain = "") {
  nvtx_context context;
  context.stacks.push_back({std::move(domain), std::move(ranges)});
  return context;
}

seen_kernel kernel(const std::string& mangled, std::vector<nvtx_context> contexts) {
  seen_kernel k;
  k.mangled = mangled;
  k.function = names_of_kernel(mangled).function;
  k.launches = 1;
  for (const auto& context : contexts)
    k.nvtx.push_back(context.describe());
  k.contexts = std::move(contexts);
  return k;
}

nvtx_selector path(std::vector<std::string> elements, std::string domain = "") {
  nvtx_selector selector;
  selector.domain = std::move(domain);
  for (auto& element : elements)
    selector.path.push_back(name_pattern::glob(std::move(element)));
  return selector;
}

launch_selector selecting(std::optional<name_pattern> kernel_pattern, std::optional<nvtx_selector> nvtx) {
  launch_selector selector;
  selector.kernel = std::move(kernel_pattern);
  selector.nvtx = std::move(nvtx);
  return selector;
}

const std::string add_kernel = "add_kernel";  // a Triton kernel: a C name

TEST(selection_diagnosis, a_range_name_holding_a_slash_is_one_range_not_two) {
  const std::vector<seen_kernel> kernels{kernel(add_kernel, {pushed({"step/triton_add"})})};
  const auto diagnosis =
      diagnose_near_miss(selecting(name_pattern::glob("add_kernel"), path({"step", "triton_add"})), kernels);
  ASSERT_TRUE(diagnosis.has_value());
  EXPECT_EQ(
      *diagnosis,
      "the program's NVTX range 'step/triton_add' is one range whose name holds '/', and `nvtx: "
      "\"step/triton_add\"` asks for 2 ranges nested one in another; write `nvtx: [\"step/triton_add\"]`");
}

TEST(selection_diagnosis, nested_ranges_asked_for_as_one_name_holding_a_slash) {
  const std::vector<seen_kernel> kernels{kernel(add_kernel, {pushed({"step", "forward"})})};
  nvtx_selector one;
  one.path.push_back(name_pattern::glob("step/forward"));
  const auto diagnosis = diagnose_near_miss(selecting(std::nullopt, one), kernels);
  ASSERT_TRUE(diagnosis.has_value());
  EXPECT_EQ(
      *diagnosis,
      "`nvtx: [\"step/forward\"]` asks for one range whose name holds '/', and the program pushed the parts "
      "as nested ranges; write `nvtx: \"step/forward\"`");
}

TEST(selection_diagnosis, a_range_in_another_domain_names_that_domain) {
  const std::vector<seen_kernel> kernels{
      kernel("_Z9transformPf", {pushed({"cub::DeviceTransform::Transform"}, "CCCL")})};
  const auto diagnosis = diagnose_near_miss(
      selecting(name_pattern::regex("transform"), path({"cub::DeviceTransform::Transform"})), kernels);
  ASSERT_TRUE(diagnosis.has_value());
  EXPECT_EQ(*diagnosis,
            "the ranges it names were pushed in domain 'CCCL', and the selector looks in the default domain; "
            "write `nvtx: \"CCCL@cub::DeviceTransform::Transform\"`");
}

TEST(selection_diagnosis, a_slashed_range_in_another_domain_gets_both_corrections) {
  const std::vector<seen_kernel> kernels{kernel(add_kernel, {pushed({"step/a"}, "MyLib")})};
  const auto diagnosis = diagnose_near_miss(selecting(std::nullopt, path({"step", "a"})), kernels);
  ASSERT_TRUE(diagnosis.has_value());
  EXPECT_NE(diagnosis->find(
                "(and it is in domain 'MyLib'); write `nvtx: {range: [\"step/a\"], domain: \"MyLib\"}`"),
            std::string::npos)
      << *diagnosis;
}

TEST(selection_diagnosis, a_start_end_range_asked_for_as_push_pop) {
  seen_kernel k = kernel(add_kernel, {});
  nvtx_context context;
  context.start_end.push_back({"", "epoch 3"});
  k.contexts.push_back(context);
  const auto diagnosis = diagnose_near_miss(selecting(std::nullopt, path({"epoch*"})), {k});
  ASSERT_TRUE(diagnosis.has_value());
  EXPECT_EQ(*diagnosis,
            "'epoch*' is a start/end range, and the selector asks for a push/pop range; write `nvtx: {range: "
            "\"epoch*\", kind: start_end}`");
}

TEST(selection_diagnosis, a_kernel_pattern_that_matches_only_without_template_arguments) {
  // ns::reduce<256>(float const*, float*, int)
  const std::vector<seen_kernel> kernels{kernel("_ZN2ns6reduceILi256EEEvPKfPfi", {pushed({"step"})})};
  const auto diagnosis =
      diagnose_near_miss(selecting(name_pattern::glob("ns::reduce"), std::nullopt), kernels);
  ASSERT_TRUE(diagnosis.has_value());
  EXPECT_EQ(
      *diagnosis,
      "the kernel pattern 'ns::reduce' matches 'ns::reduce' only without its template arguments, and names "
      "are matched with them ('ns::reduce<256>') but for the bare name; write `kernel: \"reduce\"` (or "
      "\"ns::reduce<*>\")");
}

TEST(selection_diagnosis, nothing_to_say_when_nothing_comes_close) {
  const std::vector<seen_kernel> kernels{kernel(add_kernel, {pushed({"step/triton_add"})})};
  EXPECT_FALSE(diagnose_near_miss(selecting(name_pattern::glob("matmul*"), std::nullopt), kernels));
  EXPECT_FALSE(diagnose_near_miss(selecting(name_pattern::glob("add_kernel"), path({"backward"})), kernels));
}

TEST(selection_diagnosis, records_without_contexts_give_no_false_diagnosis) {
  seen_kernel old = kernel(add_kernel, {});
  old.nvtx = {"step/triton_add"};  // written before contexts were kept
  EXPECT_FALSE(diagnose_near_miss(selecting(std::nullopt, path({"step", "triton_add"})), {old}));
}

TEST(selection_diagnosis, writes_each_selector_form_as_a_suite_does) {
  EXPECT_EQ(nvtx_selector_yaml(path({"step", "forward"})), "\"step/forward\"");
  EXPECT_EQ(nvtx_selector_yaml(path({"step/forward"})), "[\"step/forward\"]");
  EXPECT_EQ(nvtx_selector_yaml(path({"a", "b"}, "CCCL")), "\"CCCL@a/b\"");
  nvtx_selector start_end = path({"epoch*"});
  start_end.start_end = true;
  EXPECT_EQ(nvtx_selector_yaml(start_end), "{range: \"epoch*\", kind: start_end}");
}

}  // namespace
}  // namespace counterguard
