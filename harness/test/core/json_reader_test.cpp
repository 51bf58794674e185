// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/json_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

using nlohmann::json;

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

TEST(json_reader, a_syntax_error_names_file_line_and_column) {
  const json_reader reader("run.json");
  const input_error e = error_of([&] { (void)reader.parse("{\n  \"a\": 1,\n  oops\n}"); });
  EXPECT_EQ(e.where().file, "run.json");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_GT(e.where().column, 0);
}

TEST(json_reader, a_number_beyond_double_range_names_file_line_column_and_field) {
  const json_reader reader("run.json");
  const input_error e =
      error_of([&] { (void)reader.parse("{\"cases\": [{\"seconds\": 1},\n {\"seconds\": -1e309}]}"); });
  EXPECT_EQ(e.where().file, "run.json");
  EXPECT_EQ(e.where().line, 2);
  EXPECT_EQ(e.where().column, 14);
  EXPECT_EQ(e.field(), "cases[1].seconds");
  EXPECT_NE(e.problem().find("-1e309 is beyond the range of a double"), std::string::npos) << e.what();
  EXPECT_EQ(e.code(), exit_code::invalid_input);
}

TEST(json_reader, a_syntax_error_names_the_field_being_read) {
  const json_reader reader("run.json");
  const input_error e = error_of([&] { (void)reader.parse(R"({"metadata": {"gpu_key": "k", "mode": }})"); });
  EXPECT_EQ(e.field(), "metadata.mode");
}

TEST(json_reader, parsing_keeps_every_value_as_nlohmann_reads_it) {
  const std::string text =
      R"({"a": [1, -2, 3.5, "x", true, null, {"b": []}], "c": {}, "d": 18446744073709551615})";
  EXPECT_EQ(json_reader("x.json").parse(text), json::parse(text));
}

TEST(json_reader, a_document_that_is_a_number_is_an_input_error_not_a_crash) {
  const json_reader reader("run.json");
  const json document = reader.parse("42");
  const input_error e = error_of([&] { (void)reader.string(document, "", "results"); });
  EXPECT_EQ(e.where().file, "run.json");
  EXPECT_NE(std::string(e.what()).find("expected an object, got a number"), std::string::npos) << e.what();
}

TEST(json_reader, a_missing_member_names_its_path) {
  const json_reader reader("r.json");
  const json document = json::parse(R"({"cases": [{"totals": {}}]})");
  const input_error e = error_of([&] { (void)reader.string(document["cases"][0], "cases[0]", "instance"); });
  EXPECT_EQ(e.field(), "cases[0].instance");
  EXPECT_EQ(e.problem(), "missing");
}

TEST(json_reader, wrong_types_say_what_was_found) {
  const json_reader reader("r.json");
  const json document = json::parse(R"({"paths": "cases", "n": 1.5, "flag": 1, "names": ["a", 2]})");
  EXPECT_NE(std::string(error_of([&] { (void)reader.array(document, "", "paths"); }).what())
                .find("expected an array, got a string"),
            std::string::npos);
  EXPECT_NE(std::string(error_of([&] { (void)reader.integer(document, "", "n", 0, 10); }).what())
                .find("expected an integer"),
            std::string::npos);
  EXPECT_NE(std::string(error_of([&] { (void)reader.boolean(document, "", "flag"); }).what())
                .find("expected true or false"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { (void)reader.strings(document, "", "names"); }).field(), "names[1]");
}

TEST(json_reader, integers_outside_their_range_are_rejected) {
  const json_reader reader("r.json");
  const json document = json::parse(R"({"a": 11, "b": 18446744073709551615})");
  EXPECT_EQ(error_of([&] { (void)reader.integer(document, "", "a", 0, 10); }).problem(), "is out of range");
  EXPECT_EQ(error_of([&] { (void)reader.integer(document, "", "b", 0, 10); }).problem(), "is out of range");
  EXPECT_EQ(reader.integer(document, "", "a", 0, 11), 11);
}

TEST(json_reader, null_reads_as_nan_for_numbers) {
  const json_reader reader("r.json");
  EXPECT_TRUE(std::isnan(reader.number_or_nan(json(nullptr), "x")));
  EXPECT_EQ(reader.number_or_nan(json(2.5), "x"), 2.5);
  EXPECT_EQ(error_of([&] { (void)reader.number_or_nan(json("2"), "x"); }).field(), "x");
}

}  // namespace
}  // namespace counterguard
