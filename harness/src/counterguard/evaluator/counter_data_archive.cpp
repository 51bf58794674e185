// SPDX-License-Identifier: Apache-2.0
#include "counterguard/evaluator/counter_data_archive.hpp"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <system_error>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* k_manifest = "manifest.json";

std::string image_file_name(std::size_t index) {
  std::string number = std::to_string(index);
  if (number.size() < 3)
    number.insert(0, 3 - number.size(), '0');
  return number + ".counterdata.gz";
}

std::uint32_t crc32_of(const std::vector<std::uint8_t>& bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  std::size_t offset = 0;
  while (offset < bytes.size()) {  // zlib takes uInt lengths
    const auto chunk = static_cast<uInt>(std::min<std::size_t>(bytes.size() - offset, 1u << 30));
    crc = crc32(crc, bytes.data() + offset, chunk);
    offset += chunk;
  }
  return static_cast<std::uint32_t>(crc);
}

// Level 9: images of one or two ranges are mostly zeros and small, so compression time does not matter
// and the committed fixtures shrink by a third against level 1 (29 kB -> 19 kB for a 4-metric image).
// Level 9 for archives that are kept (fixtures, CI artifacts). A scratch archive is written inside a profiled
// program's launch: there level 9 was most of the 31 ms per launch the H200 run spent recording; on that 187
// KB image level 1 is 28x faster (2.1 ms against 58.6 ms, zlib on the CPU machine) for 8% more bytes.
std::string gzip_bytes(const fs::path& target, const std::vector<std::uint8_t>& bytes,
                       file_durability durability) {
  z_stream stream{};
  const int level = durability == file_durability::scratch ? 1 : 9;
  if (deflateInit2(&stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw internal_error("zlib cannot initialise a gzip stream for " + target.string());
  std::string packed(deflateBound(&stream, static_cast<uLong>(bytes.size())), '\0');
  stream.next_in = const_cast<Bytef*>(bytes.data());
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(packed.data());
  stream.avail_out = static_cast<uInt>(packed.size());
  const int status = deflate(&stream, Z_FINISH);
  packed.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END)
    throw internal_error("zlib could not compress the counter-data image for " + target.string());
  return packed;
}

json launch_to_json(const profiled_launch& launch) {
  json item{{"range_index", launch.range_index},
            {"range_name", launch.range_name},
            {"mangled", launch.mangled},
            {"function", launch.function},
            {"grid", launch.grid},
            {"block", launch.block},
            {"cluster", launch.cluster},
            {"dynamic_shared_bytes", launch.dynamic_shared_bytes},
            {"registers_per_thread", launch.registers_per_thread},
            {"local_bytes_per_thread", launch.local_bytes_per_thread},
            {"static_shared_bytes", launch.static_shared_bytes},
            {"constant_bytes", launch.constant_bytes},
            {"theoretical_occupancy_pct", launch.theoretical_occupancy_pct}};
  if (!launch.code.empty())
    item["code"] = launch.code;
  if (launch.blocks_per_sm > 0)
    item["blocks_per_sm"] = launch.blocks_per_sm;
  if (launch.device_attributes)
    item["device_attributes"] = *launch.device_attributes;
  // Absent when not known (and in archives written before they were kept): never a 0 that was not measured.
  const auto optional = [&item](const char* key, const auto& value) {
    if (value)
      item[key] = *value;
  };
  optional("stream_id", launch.stream_id);
  optional("context_id", launch.context_id);
  optional("preferred_carveout_pct", launch.preferred_carveout_pct);
  optional("stack_size_bytes", launch.stack_size_bytes);
  optional("persisting_l2_bytes", launch.persisting_l2_bytes);
  optional("max_active_clusters", launch.max_active_clusters);
  optional("max_potential_cluster_size", launch.max_potential_cluster_size);
  return item;
}

template <typename T>
T typed(const json_reader& reader, const json& object, const std::string& field, const char* key) {
  const json& value = reader.member(object, field, key);
  try {
    return value.get<T>();
  } catch (const json::exception&) {
    reader.fail(field_at(field, key), "has the wrong type (" + describe_json(value) + ")");
  }
}

profiled_launch launch_from_json(const json_reader& reader, const json& range, const std::string& field) {
  reader.require_object(range, field);
  profiled_launch launch;
  launch.range_index = typed<int>(reader, range, field, "range_index");
  launch.range_name = reader.string(range, field, "range_name");
  launch.mangled = reader.string(range, field, "mangled");
  launch.function = reader.string(range, field, "function");
  launch.grid = typed<std::array<unsigned, 3>>(reader, range, field, "grid");
  launch.block = typed<std::array<unsigned, 3>>(reader, range, field, "block");
  launch.cluster = typed<std::array<unsigned, 3>>(reader, range, field, "cluster");
  launch.dynamic_shared_bytes = typed<std::size_t>(reader, range, field, "dynamic_shared_bytes");
  launch.registers_per_thread = typed<int>(reader, range, field, "registers_per_thread");
  launch.local_bytes_per_thread = typed<std::size_t>(reader, range, field, "local_bytes_per_thread");
  launch.static_shared_bytes = typed<std::size_t>(reader, range, field, "static_shared_bytes");
  launch.constant_bytes = typed<std::size_t>(reader, range, field, "constant_bytes");
  launch.theoretical_occupancy_pct = typed<double>(reader, range, field, "theoretical_occupancy_pct");
  if (reader.optional_member(range, field, "code") != nullptr)
    launch.code = reader.string(range, field, "code");
  if (reader.optional_member(range, field, "blocks_per_sm") != nullptr)
    launch.blocks_per_sm = static_cast<int>(reader.integer(range, field, "blocks_per_sm", 0, 1 << 20));
  if (reader.optional_member(range, field, "device_attributes") != nullptr)
    launch.device_attributes = std::make_shared<const std::map<std::string, double>>(
        typed<std::map<std::string, double>>(reader, range, field, "device_attributes"));
  const auto whole = [&](const char* key, std::int64_t lowest,
                         std::int64_t highest) -> std::optional<std::int64_t> {
    if (reader.optional_member(range, field, key) == nullptr)
      return std::nullopt;
    return reader.integer(range, field, key, lowest, highest);
  };
  if (const auto id = whole("stream_id", 0, UINT32_MAX))
    launch.stream_id = static_cast<std::uint32_t>(*id);
  if (const auto id = whole("context_id", 0, UINT32_MAX))
    launch.context_id = static_cast<std::uint32_t>(*id);
  if (const auto pct = whole("preferred_carveout_pct", -1, 100))
    launch.preferred_carveout_pct = static_cast<int>(*pct);
  if (const auto bytes = whole("stack_size_bytes", 0, INT64_MAX))
    launch.stack_size_bytes = static_cast<std::uint64_t>(*bytes);
  if (const auto bytes = whole("persisting_l2_bytes", 0, INT64_MAX))
    launch.persisting_l2_bytes = static_cast<std::uint64_t>(*bytes);
  if (const auto clusters = whole("max_active_clusters", 0, INT32_MAX))
    launch.max_active_clusters = static_cast<int>(*clusters);
  if (const auto size = whole("max_potential_cluster_size", 0, INT32_MAX))
    launch.max_potential_cluster_size = static_cast<int>(*size);
  return launch;
}

std::vector<std::uint8_t> read_file(const fs::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw input_error(source_location{path.string()}, "", "cannot open the " + what,
                      "the counter-data archive is incomplete; save it again");
  }
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    throw input_error(source_location{path.string()}, "", "cannot read the " + what);
  return bytes;
}

std::vector<std::uint8_t> gunzip(const fs::path& path, const std::vector<std::uint8_t>& packed,
                                 std::size_t expected_size) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    throw internal_error("zlib cannot initialise a gzip stream for " + path.string());
  std::vector<std::uint8_t> bytes(std::max<std::size_t>(expected_size, 1));
  stream.next_in = const_cast<Bytef*>(packed.data());
  stream.avail_in = static_cast<uInt>(packed.size());
  int status = Z_OK;
  std::size_t produced = 0;
  while (status == Z_OK) {
    if (produced == bytes.size())
      bytes.resize(bytes.size() * 2);
    stream.next_out = bytes.data() + produced;
    stream.avail_out = static_cast<uInt>(std::min<std::size_t>(bytes.size() - produced, 1u << 30));
    const uInt before = stream.avail_out;
    status = inflate(&stream, Z_NO_FLUSH);
    produced += before - stream.avail_out;
    if (status == Z_BUF_ERROR && stream.avail_in > 0)
      status = Z_OK;  // only needed more output room
  }
  const std::string message = stream.msg != nullptr ? stream.msg : "truncated data";
  inflateEnd(&stream);
  if (status != Z_STREAM_END) {
    throw input_error(source_location{path.string()}, "", "corrupt gzip data (" + message + ")",
                      "the counter-data archive is damaged; save it again");
  }
  bytes.resize(produced);
  return bytes;
}

}  // namespace

void save_counter_data_archive(const std::filesystem::path& directory, const counter_data_archive& archive,
                               file_durability durability) {
  const auto write = [durability](const fs::path& path, const std::string& content) {
    if (durability == file_durability::scratch)
      write_scratch_file_atomically(path.string(), content);
    else
      write_file_atomically(path.string(), content);
  };
  json cases = json::array();
  for (std::size_t index = 0; index < archive.cases.size(); ++index) {
    const archived_case& entry = archive.cases[index];
    const std::string image = image_file_name(index);
    write(directory / image, gzip_bytes(directory / image, entry.image.bytes, durability));
    json ranges = json::array();
    for (const auto& launch : entry.launches)
      ranges.push_back(launch_to_json(launch));
    cases.push_back(json{{"name", entry.name},
                         {"image", image},
                         {"image_bytes", entry.image.bytes.size()},
                         {"image_crc32", crc32_of(entry.image.bytes)},
                         {"raw_metrics", entry.raw_metrics},
                         {"passes", entry.passes},
                         {"dropped_ranges", entry.dropped_ranges},
                         {"ranges", std::move(ranges)}});
  }
  const json manifest{{"schema_version", counter_data_archive::schema_version},
                      {"chip", archive.chip},
                      {"metadata", archive.metadata},
                      {"cases", std::move(cases)}};
  // Last: the manifest makes the archive visible.
  write(directory / k_manifest, manifest.dump(2) + "\n");
}

counter_data_archive load_counter_data_archive(const std::filesystem::path& directory) {
  const fs::path manifest_path = directory / k_manifest;
  const std::vector<std::uint8_t> raw = read_file(manifest_path, "counter-data archive manifest");
  const json_reader reader(manifest_path.string());
  const json manifest = reader.parse(std::string(raw.begin(), raw.end()));
  reader.require_object(manifest, "");
  const std::int64_t version = reader.integer(manifest, "", "schema_version", 0, 1000000);
  if (version != counter_data_archive::schema_version) {
    reader.fail("schema_version", "is " + std::to_string(version),
                "this counterguard reads version " + std::to_string(counter_data_archive::schema_version));
  }
  counter_data_archive archive;
  archive.chip = reader.string(manifest, "", "chip");
  if (archive.chip.empty())
    reader.fail("chip", "is empty", "the chip that recorded the images, e.g. GH100");
  archive.metadata = reader.object(manifest, "", "metadata");
  const json& cases = reader.array(manifest, "", "cases");
  for (std::size_t index = 0; index < cases.size(); ++index) {
    const std::string field = index_at("cases", index);
    const json& item = cases[index];
    reader.require_object(item, field);
    archived_case entry;
    entry.name = reader.string(item, field, "name");
    entry.raw_metrics = reader.strings(item, field, "raw_metrics");
    entry.passes = static_cast<int>(reader.integer(item, field, "passes", 0, 1000000));
    entry.dropped_ranges = static_cast<int>(reader.integer(item, field, "dropped_ranges", 0, 1000000000));
    const json& ranges = reader.array(item, field, "ranges");
    for (std::size_t r = 0; r < ranges.size(); ++r)
      entry.launches.push_back(launch_from_json(reader, ranges[r], index_at(field + ".ranges", r)));
    const std::string image_name = reader.string(item, field, "image");
    if (image_name.empty() || image_name.find('/') != std::string::npos ||
        image_name.find("..") != std::string::npos) {
      reader.fail(field + ".image", "'" + image_name + "' is not a file name inside the archive directory");
    }
    const auto expected_size =
        static_cast<std::size_t>(reader.integer(item, field, "image_bytes", 0, INT64_MAX));
    const auto expected_crc =
        static_cast<std::uint32_t>(reader.integer(item, field, "image_crc32", 0, UINT32_MAX));
    const fs::path image_path = directory / image_name;
    std::vector<std::uint8_t> bytes = read_file(image_path, "counter-data image");
    const bool gzipped = bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
    if (gzipped)
      bytes = gunzip(image_path, bytes, expected_size);
    if (bytes.size() != expected_size || crc32_of(bytes) != expected_crc) {
      throw input_error(source_location{image_path.string()}, "",
                        "the counter-data image does not match the manifest (" +
                            std::to_string(bytes.size()) + " bytes, expected " +
                            std::to_string(expected_size) + " with CRC-32 " + std::to_string(expected_crc) +
                            ")",
                        "the counter-data archive is damaged; save it again");
    }
    entry.image.chip = archive.chip;
    entry.image.bytes = std::move(bytes);
    archive.cases.push_back(std::move(entry));
  }
  return archive;
}

}  // namespace counterguard
