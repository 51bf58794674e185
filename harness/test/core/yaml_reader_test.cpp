// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/yaml_reader.hpp"

#include <gtest/gtest.h>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

template <typename Action>
input_error error_of(Action action) {
  try {
    action();
  } catch (const input_error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an input_error";
  return input_error({}, "", "");
}

TEST(yaml_reader, a_duplicate_key_names_both_lines) {
  const yaml_reader reader("b.yaml");
  const YAML::Node root = YAML::Load("a: 1\nb: 2\na: 3\n");
  const input_error e = error_of([&] { (void)reader.map_entries(root, ""); });
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.field(), "a");
  EXPECT_NE(e.valid().find("line 1"), std::string::npos) << e.valid();
}

TEST(yaml_reader, types_scalars_by_the_core_schema) {
  const yaml_reader reader("f.yaml");
  const YAML::Node root = YAML::Load("[2048, 0x20, 0.5, .inf, row_major, \"7\"]");
  EXPECT_EQ(std::get<std::int64_t>(reader.typed_scalar(root[0], "x", "v")), 2048);
  EXPECT_EQ(std::get<std::int64_t>(reader.typed_scalar(root[1], "x", "v")), 32);
  EXPECT_EQ(std::get<double>(reader.typed_scalar(root[2], "x", "v")), 0.5);
  EXPECT_TRUE(std::isinf(std::get<double>(reader.typed_scalar(root[3], "x", "v"))));
  EXPECT_EQ(std::get<std::string>(reader.typed_scalar(root[4], "x", "v")), "row_major");
  EXPECT_EQ(std::get<std::string>(reader.typed_scalar(root[5], "x", "v")), "7");
}

TEST(yaml_reader, numbers_and_integers_are_checked) {
  const yaml_reader reader("f.yaml");
  const YAML::Node root = YAML::Load("{a: .nan, b: x, c: 5, d: 1.5}");
  EXPECT_NE(error_of([&] { (void)reader.number(root["a"], "a"); }).problem().find("finite"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)reader.number(root["b"], "b"); }).problem().find("expected a number"),
            std::string::npos);
  EXPECT_EQ(reader.integer(root["c"], "c", 1, 5), 5);
  EXPECT_EQ(error_of([&] { (void)reader.integer(root["c"], "c", 1, 4); }).problem(), "'5' is out of range");
  EXPECT_NE(
      error_of([&] { (void)reader.integer(root["d"], "d", 1, 4); }).problem().find("expected an integer"),
      std::string::npos);
}

TEST(yaml_reader, a_missing_required_key_points_at_the_map) {
  const yaml_reader reader("f.yaml");
  const YAML::Node root = YAML::Load("\n\nvalue: 1\n");
  const auto entries = reader.map_entries(root, "cases.x");
  const input_error e = error_of([&] { (void)reader.required(root, entries, "cases.x", "class", "exact"); });
  EXPECT_EQ(e.field(), "cases.x.class");
  EXPECT_EQ(e.where().line, 3);
}

}  // namespace
}  // namespace counterguard
