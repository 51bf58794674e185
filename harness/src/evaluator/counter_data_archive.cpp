#include "counterguard/evaluator/counter_data_archive.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>

#include "counterguard/core/error.hpp"

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

fs::path temporary_name(const fs::path& target) {
  return target.parent_path() / (target.filename().string() + ".tmp." + std::to_string(::getpid()));
}

[[noreturn]] void throw_io(const fs::path& path, const std::string& what) {
  throw api_error(path.string() + ": " + what, 0);
}

void replace_file(const fs::path& temporary, const fs::path& target) {
  std::error_code error;
  fs::rename(temporary, target, error);
  if (error) {
    fs::remove(temporary, error);
    throw_io(target, "cannot rename the temporary file into place");
  }
}

void write_gzip(const fs::path& target, const std::vector<std::uint8_t>& bytes) {
  const fs::path temporary = temporary_name(target);
  // Level 9: images of one or two ranges are mostly zeros and small, so compression time does not matter
  // and the committed fixtures shrink by a third against level 1 (29 kB -> 19 kB for a 4-metric image).
  gzFile file = gzopen(temporary.c_str(), "wb9");
  if (file == nullptr)
    throw_io(temporary, "cannot create");
  std::size_t offset = 0;
  bool ok = true;
  while (ok && offset < bytes.size()) {
    const auto chunk = static_cast<unsigned>(std::min<std::size_t>(bytes.size() - offset, 1u << 24));
    ok = gzwrite(file, bytes.data() + offset, chunk) == static_cast<int>(chunk);
    offset += chunk;
  }
  ok = (gzclose(file) == Z_OK) && ok;
  if (!ok) {
    std::error_code error;
    fs::remove(temporary, error);
    throw_io(temporary, "cannot write the compressed counter-data image");
  }
  replace_file(temporary, target);
}

void write_text(const fs::path& target, const std::string& text) {
  const fs::path temporary = temporary_name(target);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out)
      throw_io(temporary, "cannot write");
  }
  replace_file(temporary, target);
}

json launch_to_json(const profiled_launch& launch) {
  return json{{"range_index", launch.range_index},
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
}

// Reads the manifest's fields; every problem is an input_error naming the manifest and the field.
class manifest_reader {
 public:
  explicit manifest_reader(fs::path file) : m_file(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem,
                         const std::string& valid = {}) const {
    throw input_error(source_location{m_file.string()}, field, problem, valid);
  }

  template <typename T>
  T get(const json& object, const char* key, const std::string& field) const {
    const auto found = object.find(key);
    if (found == object.end())
      fail(field + key, "missing");
    try {
      return found->template get<T>();
    } catch (const json::exception& problem) {
      fail(field + key, std::string("has the wrong type (") + found->type_name() + ")", problem.what());
    }
  }

  const json& object_at(const json& object, const char* key, const std::string& field,
                        json::value_t type) const {
    const auto found = object.find(key);
    if (found == object.end())
      fail(field + key, "missing");
    if (found->type() != type)
      fail(field + key, std::string("has the wrong type (") + found->type_name() + ")");
    return *found;
  }

  [[nodiscard]] const fs::path& file() const { return m_file; }

 private:
  fs::path m_file;
};

profiled_launch launch_from_json(const manifest_reader& reader, const json& range, const std::string& field) {
  if (!range.is_object())
    reader.fail(field, "is not an object");
  profiled_launch launch;
  launch.range_index = reader.get<int>(range, "range_index", field + ".");
  launch.range_name = reader.get<std::string>(range, "range_name", field + ".");
  launch.mangled = reader.get<std::string>(range, "mangled", field + ".");
  launch.function = reader.get<std::string>(range, "function", field + ".");
  launch.grid = reader.get<std::array<unsigned, 3>>(range, "grid", field + ".");
  launch.block = reader.get<std::array<unsigned, 3>>(range, "block", field + ".");
  launch.cluster = reader.get<std::array<unsigned, 3>>(range, "cluster", field + ".");
  launch.dynamic_shared_bytes = reader.get<std::size_t>(range, "dynamic_shared_bytes", field + ".");
  launch.registers_per_thread = reader.get<int>(range, "registers_per_thread", field + ".");
  launch.local_bytes_per_thread = reader.get<std::size_t>(range, "local_bytes_per_thread", field + ".");
  launch.static_shared_bytes = reader.get<std::size_t>(range, "static_shared_bytes", field + ".");
  launch.constant_bytes = reader.get<std::size_t>(range, "constant_bytes", field + ".");
  launch.theoretical_occupancy_pct = reader.get<double>(range, "theoretical_occupancy_pct", field + ".");
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
    throw_io(path, "zlib cannot initialise");
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

std::size_t line_of_offset(const std::string& text, std::size_t offset, int* column) {
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  *column = static_cast<int>(offset - line_start);
  return line;
}

}  // namespace

void save_counter_data_archive(const std::filesystem::path& directory, const counter_data_archive& archive) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error)
    throw_io(directory, "cannot create the directory (" + error.message() + ")");

  json cases = json::array();
  for (std::size_t index = 0; index < archive.cases.size(); ++index) {
    const archived_case& entry = archive.cases[index];
    const std::string image = image_file_name(index);
    write_gzip(directory / image, entry.image.bytes);
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
  write_text(directory / k_manifest, manifest.dump(2) + "\n");  // last: it makes the archive visible
}

counter_data_archive load_counter_data_archive(const std::filesystem::path& directory) {
  const fs::path manifest_path = directory / k_manifest;
  const std::vector<std::uint8_t> raw = read_file(manifest_path, "counter-data archive manifest");
  const std::string text(raw.begin(), raw.end());
  json manifest;
  try {
    manifest = json::parse(text);
  } catch (const json::parse_error& problem) {
    int column = 0;
    const auto line = line_of_offset(text, problem.byte == 0 ? 0 : problem.byte - 1, &column);
    throw input_error(source_location{manifest_path.string(), static_cast<int>(line), column + 1}, "",
                      "not valid JSON", problem.what());
  }
  const manifest_reader reader(manifest_path);
  if (!manifest.is_object())
    reader.fail("", "is not a JSON object");
  const int version = reader.get<int>(manifest, "schema_version", "");
  if (version != counter_data_archive::schema_version) {
    reader.fail("schema_version", "is " + std::to_string(version),
                "this counterguard reads version " + std::to_string(counter_data_archive::schema_version));
  }
  counter_data_archive archive;
  archive.chip = reader.get<std::string>(manifest, "chip", "");
  if (archive.chip.empty())
    reader.fail("chip", "is empty", "the chip that recorded the images, e.g. GH100");
  archive.metadata = reader.object_at(manifest, "metadata", "", json::value_t::object);
  const json& cases = reader.object_at(manifest, "cases", "", json::value_t::array);
  for (std::size_t index = 0; index < cases.size(); ++index) {
    const std::string field = "cases[" + std::to_string(index) + "].";
    const json& item = cases[index];
    if (!item.is_object())
      reader.fail(field.substr(0, field.size() - 1), "is not an object");
    archived_case entry;
    entry.name = reader.get<std::string>(item, "name", field);
    entry.raw_metrics = reader.get<std::vector<std::string>>(item, "raw_metrics", field);
    entry.passes = reader.get<int>(item, "passes", field);
    entry.dropped_ranges = reader.get<int>(item, "dropped_ranges", field);
    const json& ranges = reader.object_at(item, "ranges", field, json::value_t::array);
    for (std::size_t r = 0; r < ranges.size(); ++r) {
      entry.launches.push_back(
          launch_from_json(reader, ranges[r], field + "ranges[" + std::to_string(r) + "]"));
    }
    const auto image_name = reader.get<std::string>(item, "image", field);
    if (image_name.empty() || image_name.find('/') != std::string::npos ||
        image_name.find("..") != std::string::npos) {
      reader.fail(field + "image", "'" + image_name + "' is not a file name inside the archive directory");
    }
    const auto expected_size = reader.get<std::size_t>(item, "image_bytes", field);
    const auto expected_crc = reader.get<std::uint32_t>(item, "image_crc32", field);
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
