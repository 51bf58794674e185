// SPDX-License-Identifier: Apache-2.0
#include "counterguard/evaluator/counter_data_archive.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "fixture_image.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

class counter_data_archive_test : public ::testing::Test {
 protected:
  void SetUp() override {
    m_directory =
        fs::temp_directory_path() / ("counterguard_archive_test_" + std::to_string(::getpid()) + "_" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_directory);
  }
  void TearDown() override { fs::remove_all(m_directory); }

  static counter_data_archive sample() {
    counter_data_archive archive;
    archive.chip = "GH100";
    archive.metadata = {{"gpu_key", "GH100-132sm-cuda13.0"}, {"driver", "580.159"}};
    archived_case entry;
    entry.name = "smoke/five_kernels?n=8192";
    entry.raw_metrics = {"smsp__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
    entry.passes = 6;
    entry.image = test::h200_five_kernels_image();
    for (int i = 0; i < 5; ++i) {
      profiled_launch launch;
      launch.range_index = i;
      launch.range_name = std::to_string(i);
      launch.mangled = "_ZN2ns6kernelEPfi";
      launch.function = "ns::kernel";
      launch.grid = {256, 2, 1};
      launch.block = {128, 1, 1};
      launch.cluster = {2, 1, 1};
      launch.dynamic_shared_bytes = 4096;
      launch.registers_per_thread = 16 + i;
      launch.local_bytes_per_thread = 256;
      launch.static_shared_bytes = 4224;
      launch.constant_bytes = 8;
      launch.theoretical_occupancy_pct = 93.75;
      launch.stream_id = 13 + i;
      launch.context_id = 1;
      launch.preferred_carveout_pct = i == 0 ? -1 : 25;
      launch.stack_size_bytes = 1024;
      launch.persisting_l2_bytes = 11796480;
      launch.max_active_clusters = i == 0 ? 0 : 33;
      launch.max_potential_cluster_size = i == 0 ? 0 : 8;
      entry.launches.push_back(launch);
    }
    archive.cases.push_back(entry);
    entry.name = "smoke/second";
    entry.launches.resize(1);
    archive.cases.push_back(entry);
    return archive;
  }

  fs::path m_directory;
};

void expect_same_launch(const profiled_launch& a, const profiled_launch& b) {
  EXPECT_EQ(a.range_index, b.range_index);
  EXPECT_EQ(a.range_name, b.range_name);
  EXPECT_EQ(a.mangled, b.mangled);
  EXPECT_EQ(a.function, b.function);
  EXPECT_EQ(a.grid, b.grid);
  EXPECT_EQ(a.block, b.block);
  EXPECT_EQ(a.cluster, b.cluster);
  EXPECT_EQ(a.dynamic_shared_bytes, b.dynamic_shared_bytes);
  EXPECT_EQ(a.registers_per_thread, b.registers_per_thread);
  EXPECT_EQ(a.local_bytes_per_thread, b.local_bytes_per_thread);
  EXPECT_EQ(a.static_shared_bytes, b.static_shared_bytes);
  EXPECT_EQ(a.constant_bytes, b.constant_bytes);
  EXPECT_EQ(a.theoretical_occupancy_pct, b.theoretical_occupancy_pct);
  EXPECT_EQ(a.stream_id, b.stream_id);
  EXPECT_EQ(a.context_id, b.context_id);
  EXPECT_EQ(a.preferred_carveout_pct, b.preferred_carveout_pct);
  EXPECT_EQ(a.stack_size_bytes, b.stack_size_bytes);
  EXPECT_EQ(a.persisting_l2_bytes, b.persisting_l2_bytes);
  EXPECT_EQ(a.max_active_clusters, b.max_active_clusters);
  EXPECT_EQ(a.max_potential_cluster_size, b.max_potential_cluster_size);
}

// The manifest as a counterguard that kept none of a launch's ids, limits and carve-out wrote it.
void drop_launch_context_fields(const fs::path& manifest_path) {
  std::ifstream in(manifest_path);
  nlohmann::json manifest = nlohmann::json::parse(in);
  for (auto& entry : manifest["cases"]) {
    for (auto& range : entry["ranges"]) {
      for (const char* key : {"stream_id", "context_id", "preferred_carveout_pct", "stack_size_bytes",
                              "persisting_l2_bytes", "max_active_clusters", "max_potential_cluster_size"})
        range.erase(key);
    }
  }
  std::ofstream(manifest_path, std::ios::trunc) << manifest.dump(2);
}

TEST_F(counter_data_archive_test, round_trip_keeps_every_field_and_image_byte) {
  const counter_data_archive saved = sample();
  save_counter_data_archive(m_directory, saved);
  const counter_data_archive loaded = load_counter_data_archive(m_directory);
  EXPECT_EQ(loaded.chip, "GH100");
  EXPECT_EQ(loaded.metadata, saved.metadata);
  ASSERT_EQ(loaded.cases.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(loaded.cases[c].name, saved.cases[c].name);
    EXPECT_EQ(loaded.cases[c].raw_metrics, saved.cases[c].raw_metrics);
    EXPECT_EQ(loaded.cases[c].passes, 6);
    EXPECT_EQ(loaded.cases[c].image.chip, "GH100");
    EXPECT_TRUE(loaded.cases[c].image.bytes == saved.cases[c].image.bytes);
    ASSERT_EQ(loaded.cases[c].launches.size(), saved.cases[c].launches.size());
    for (std::size_t r = 0; r < saved.cases[c].launches.size(); ++r) {
      expect_same_launch(loaded.cases[c].launches[r], saved.cases[c].launches[r]);
    }
  }
}

TEST_F(counter_data_archive_test, an_archive_written_before_launch_ids_were_kept_loads_them_as_unknown) {
  save_counter_data_archive(m_directory, sample());
  drop_launch_context_fields(m_directory / "manifest.json");
  const counter_data_archive loaded = load_counter_data_archive(m_directory);
  const profiled_launch& launch = loaded.cases.at(0).launches.at(1);
  EXPECT_EQ(launch.registers_per_thread, 17);
  EXPECT_FALSE(launch.stream_id.has_value());
  EXPECT_FALSE(launch.context_id.has_value());
  EXPECT_FALSE(launch.preferred_carveout_pct.has_value());
  EXPECT_FALSE(launch.stack_size_bytes.has_value());
  EXPECT_FALSE(launch.persisting_l2_bytes.has_value());
  EXPECT_FALSE(launch.max_active_clusters.has_value());
  EXPECT_FALSE(launch.max_potential_cluster_size.has_value());
}

TEST_F(counter_data_archive_test, a_carveout_outside_0_to_100_is_an_input_error_naming_the_field) {
  save_counter_data_archive(m_directory, sample());
  std::ifstream in(m_directory / "manifest.json");
  nlohmann::json manifest = nlohmann::json::parse(in);
  in.close();
  manifest["cases"][0]["ranges"][2]["preferred_carveout_pct"] = 150;
  std::ofstream(m_directory / "manifest.json", std::ios::trunc) << manifest.dump(2);
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.field(), "cases[0].ranges[2].preferred_carveout_pct");
  }
}

TEST_F(counter_data_archive_test, writes_a_manifest_and_numbered_gzip_images_without_temporaries) {
  save_counter_data_archive(m_directory, sample());
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(m_directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"000.counterdata.gz", "001.counterdata.gz", "manifest.json"}));
  std::ifstream image(m_directory / "000.counterdata.gz", std::ios::binary);
  EXPECT_EQ(image.get(), 0x1f);
  EXPECT_EQ(image.get(), 0x8b);
  EXPECT_LT(fs::file_size(m_directory / "000.counterdata.gz"), 3015236u / 2);
}

TEST_F(counter_data_archive_test, loaded_image_evaluates_like_the_original) {
  save_counter_data_archive(m_directory, sample());
  const auto loaded = load_counter_data_archive(m_directory);
  const auto ranges =
      evaluate_counter_data(loaded.cases[0].image, {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"});
  ASSERT_EQ(ranges.size(), 5u);
  EXPECT_EQ(ranges[4].values.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 65536);
}

TEST_F(counter_data_archive_test, loads_an_uncompressed_image_too) {
  const counter_data_archive saved = sample();
  save_counter_data_archive(m_directory, saved);
  const auto& bytes = saved.cases[0].image.bytes;
  std::ofstream(m_directory / "000.counterdata.gz", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  EXPECT_TRUE(load_counter_data_archive(m_directory).cases[0].image.bytes == bytes);
}

TEST_F(counter_data_archive_test, missing_manifest_is_an_input_error_naming_it) {
  fs::create_directories(m_directory);
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.where().file, (m_directory / "manifest.json").string());
  }
}

TEST_F(counter_data_archive_test, missing_image_is_an_input_error_naming_it) {
  save_counter_data_archive(m_directory, sample());
  fs::remove(m_directory / "001.counterdata.gz");
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.where().file, (m_directory / "001.counterdata.gz").string());
  }
}

TEST_F(counter_data_archive_test, truncated_gzip_image_is_an_input_error_naming_it) {
  save_counter_data_archive(m_directory, sample());
  const fs::path image = m_directory / "000.counterdata.gz";
  fs::resize_file(image, fs::file_size(image) / 2);
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.where().file, image.string());
    EXPECT_NE(error.problem().find("corrupt gzip"), std::string::npos) << error.what();
  }
}

TEST_F(counter_data_archive_test, altered_raw_image_fails_the_checksum) {
  const counter_data_archive saved = sample();
  save_counter_data_archive(m_directory, saved);
  auto bytes = saved.cases[0].image.bytes;
  bytes[bytes.size() / 2] ^= 0xff;
  std::ofstream(m_directory / "000.counterdata.gz", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.where().file, (m_directory / "000.counterdata.gz").string());
    EXPECT_NE(error.problem().find("does not match the manifest"), std::string::npos) << error.what();
  }
}

TEST_F(counter_data_archive_test, broken_manifest_json_is_an_input_error_with_its_line) {
  save_counter_data_archive(m_directory, sample());
  std::ofstream(m_directory / "manifest.json", std::ios::trunc)
      << "{\n  \"schema_version\": 1,\n  \"chip\": \n}\n";
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.where().file, (m_directory / "manifest.json").string());
    EXPECT_EQ(error.where().line, 4);
  }
}

TEST_F(counter_data_archive_test, other_schema_version_is_an_input_error_naming_the_field) {
  save_counter_data_archive(m_directory, sample());
  std::ofstream(m_directory / "manifest.json", std::ios::trunc)
      << R"({"schema_version": 7, "chip": "GH100", "metadata": {}, "cases": []})";
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.field(), "schema_version");
  }
}

TEST_F(counter_data_archive_test, image_name_outside_the_directory_is_refused) {
  fs::create_directories(m_directory);
  std::ofstream(m_directory / "manifest.json")
      << R"({"schema_version": 1, "chip": "GH100", "metadata": {}, "cases": [{"name": "x", "image": "../etc",
            "image_bytes": 1, "image_crc32": 0, "raw_metrics": [], "passes": 1, "dropped_ranges": 0,
            "ranges": []}]})";
  try {
    static_cast<void>(load_counter_data_archive(m_directory));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.field(), "cases[0].image");
  }
}

TEST_F(counter_data_archive_test, saving_again_replaces_the_archive) {
  save_counter_data_archive(m_directory, sample());
  counter_data_archive smaller = sample();
  smaller.cases.resize(1);
  smaller.metadata = {{"run", 2}};
  save_counter_data_archive(m_directory, smaller);
  const auto loaded = load_counter_data_archive(m_directory);
  EXPECT_EQ(loaded.cases.size(), 1u);
  EXPECT_EQ(loaded.metadata, smaller.metadata);
}

}  // namespace
}  // namespace counterguard
