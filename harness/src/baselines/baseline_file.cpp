#include "counterguard/baselines/baseline_file.hpp"

#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "counterguard/baselines/atomic_file.hpp"
#include "counterguard/checker/value_format.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {

bool operator==(const baseline_entry& a, const baseline_entry& b) {
  return a.value == b.value && a.cls == b.cls && a.min == b.min && a.max == b.max && a.n == b.n &&
         a.direction == b.direction && a.tolerance == b.tolerance && a.absolute_floor == b.absolute_floor &&
         a.mean == b.mean && a.sd == b.sd && a.noise == b.noise && a.false_alarm_rate == b.false_alarm_rate;
}

std::string kernel_key(const std::string& function, int occurrence) {
  return occurrence == 0 ? function : function + "#" + std::to_string(occurrence);
}

std::string baseline_path(const std::string& directory, const std::string& gpu_key,
                          const std::string& suite) {
  std::string path = directory;
  if (!path.empty() && path.back() != '/')
    path += '/';
  return path + gpu_key + "/" + suite + ".yaml";
}

namespace {

// "total" first, then kernels in key order.
std::vector<const std::pair<const std::string, baseline_metrics>*> ordered_kernels(
    const baseline_case& kernels) {
  std::vector<const std::pair<const std::string, baseline_metrics>*> order;
  const auto total = kernels.find(baseline_total_key);
  if (total != kernels.end())
    order.push_back(&*total);
  for (const auto& item : kernels) {
    if (item.first != baseline_total_key)
      order.push_back(&item);
  }
  return order;
}

void emit_entry(YAML::Emitter& out, const baseline_entry& e) {
  out << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "value" << YAML::Value << format_value(e.value);
  out << YAML::Key << "class" << YAML::Value << to_string(e.cls);
  out << YAML::Key << "min" << YAML::Value << format_value(e.min);
  out << YAML::Key << "max" << YAML::Value << format_value(e.max);
  out << YAML::Key << "n" << YAML::Value << std::to_string(e.n);
  out << YAML::Key << "direction" << YAML::Value << to_string(e.direction);
  if (e.tolerance)
    out << YAML::Key << "tolerance" << YAML::Value << format_value(*e.tolerance);
  if (e.absolute_floor)
    out << YAML::Key << "absolute_floor" << YAML::Value << format_value(*e.absolute_floor);
  if (e.mean)
    out << YAML::Key << "mean" << YAML::Value << format_value(*e.mean);
  if (e.sd)
    out << YAML::Key << "sd" << YAML::Value << format_value(*e.sd);
  if (e.noise)
    out << YAML::Key << "noise" << YAML::Value << to_string(*e.noise);
  if (e.false_alarm_rate)
    out << YAML::Key << "false_alarm_rate" << YAML::Value << format_value(*e.false_alarm_rate);
  out << YAML::EndMap;
}

// ---- parsing ----

class parser {
 public:
  explicit parser(std::string path) : m_path(std::move(path)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& field, const std::string& problem,
                         const std::string& valid = {}) const {
    const YAML::Mark mark = node.Mark();
    const bool known = mark.line >= 0;
    throw input_error(source_location{m_path, known ? mark.line + 1 : 0, known ? mark.column + 1 : 0}, field,
                      problem, valid);
  }

  void require_map(const YAML::Node& node, const std::string& field) const {
    if (!node.IsMap())
      fail(node, field, "expected a mapping");
  }

  // Rejects keys other than `allowed` and returns the scalar key text of every entry.
  void check_keys(const YAML::Node& map, const std::string& field,
                  const std::set<std::string>& allowed) const {
    for (const auto& item : map) {
      const std::string key = key_text(item.first, field);
      if (allowed.count(key) == 0) {
        std::string valid = "valid fields:";
        for (const auto& name : allowed)
          valid += " " + name;
        fail(item.first, join(field, key), "unknown field", valid);
      }
    }
  }

  std::string key_text(const YAML::Node& key, const std::string& field) const {
    if (!key.IsScalar())
      fail(key, field, "keys must be plain names");
    return key.Scalar();
  }

  const YAML::Node required(const YAML::Node& map, const char* key, const std::string& field) const {
    const YAML::Node value = map[key];
    if (!value)
      fail(map, join(field, key), "missing");
    return value;
  }

  std::string text(const YAML::Node& node, const std::string& field) const {
    if (!node.IsScalar())
      fail(node, field, "expected a scalar");
    return node.Scalar();
  }

  double number(const YAML::Node& node, const std::string& field) const {
    const std::string value = text(node, field);
    errno = 0;
    char* end = nullptr;
    const double parsed = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || errno == ERANGE || !std::isfinite(parsed)) {
      fail(node, field, "'" + value + "' is not a finite number");
    }
    return parsed;
  }

  long integer(const YAML::Node& node, const std::string& field) const {
    const std::string value = text(node, field);
    errno = 0;
    char* end = nullptr;
    const long parsed = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || end != value.c_str() + value.size() || errno == ERANGE) {
      fail(node, field, "'" + value + "' is not an integer");
    }
    return parsed;
  }

  static std::string join(const std::string& field, const std::string& key) {
    return field.empty() ? key : field + "." + key;
  }

  baseline_entry entry(const YAML::Node& node, const std::string& field, int schema_version) const {
    require_map(node, field);
    if (schema_version < 2) {
      check_keys(node, field,
                 {"value", "class", "min", "max", "n", "direction", "tolerance", "absolute_floor"});
    } else {
      check_keys(node, field,
                 {"value", "class", "min", "max", "n", "direction", "tolerance", "absolute_floor", "mean",
                  "sd", "noise", "false_alarm_rate"});
    }
    baseline_entry e;
    e.value = number(required(node, "value", field), join(field, "value"));
    const YAML::Node cls_node = required(node, "class", field);
    const auto cls = parse_metric_class(text(cls_node, join(field, "class")));
    if (!cls)
      fail(cls_node, join(field, "class"), "unknown class '" + cls_node.Scalar() + "'",
           "valid: static, exact, noisy");
    e.cls = *cls;
    e.min = number(required(node, "min", field), join(field, "min"));
    e.max = number(required(node, "max", field), join(field, "max"));
    const YAML::Node n_node = required(node, "n", field);
    const long n = integer(n_node, join(field, "n"));
    if (n < 1 || n > 1000000)
      fail(n_node, join(field, "n"), "must be a count of runs >= 1");
    e.n = static_cast<int>(n);
    const YAML::Node direction_node = required(node, "direction", field);
    const auto direction = parse_metric_direction(text(direction_node, join(field, "direction")));
    if (!direction) {
      fail(direction_node, join(field, "direction"), "unknown direction '" + direction_node.Scalar() + "'",
           "valid: lower_is_better, higher_is_better, exact");
    }
    e.direction = *direction;
    if (!(e.min <= e.value && e.value <= e.max)) {
      fail(node, field,
           "value " + format_value(e.value) + " is outside [min, max] = [" + format_value(e.min) + ", " +
               format_value(e.max) + "]",
           "min <= value <= max");
    }
    if (const YAML::Node t = node["tolerance"]) {
      e.tolerance = number(t, join(field, "tolerance"));
      if (*e.tolerance < 0)
        fail(t, join(field, "tolerance"), "must not be negative", "a relative tolerance such as 0.05");
    }
    if (const YAML::Node f = node["absolute_floor"]) {
      e.absolute_floor = number(f, join(field, "absolute_floor"));
      if (*e.absolute_floor < 0)
        fail(f, join(field, "absolute_floor"), "must not be negative", "a count such as 32");
    }
    statistics(node, field, e);
    return e;
  }

  // The version 2 fields of an entry (docs/baselines.md, "Noise model").
  void statistics(const YAML::Node& node, const std::string& field, baseline_entry& e) const {
    const YAML::Node mean = node["mean"];
    const YAML::Node sd = node["sd"];
    if (static_cast<bool>(mean) != static_cast<bool>(sd))
      fail(node, join(field, mean ? "sd" : "mean"), "missing", "'mean' and 'sd' come together");
    if (mean) {
      e.mean = number(mean, join(field, "mean"));
      if (!(e.min <= *e.mean && *e.mean <= e.max)) {
        fail(mean, join(field, "mean"),
             "mean " + format_value(*e.mean) + " is outside [min, max] = [" + format_value(e.min) + ", " +
                 format_value(e.max) + "]",
             "min <= mean <= max");
      }
      e.sd = number(sd, join(field, "sd"));
      if (*e.sd < 0)
        fail(sd, join(field, "sd"), "must not be negative", "the samples' standard deviation");
    }
    if (const YAML::Node kind = node["noise"]) {
      const auto parsed = parse_noise_kind(text(kind, join(field, "noise")));
      if (!parsed)
        fail(kind, join(field, "noise"), "unknown noise kind '" + kind.Scalar() + "'",
             "valid: counts, bytes, percent, duration, relative");
      e.noise = *parsed;
    }
    if (const YAML::Node rate = node["false_alarm_rate"]) {
      e.false_alarm_rate = number(rate, join(field, "false_alarm_rate"));
      if (!(*e.false_alarm_rate > 0 && *e.false_alarm_rate < 0.5))
        fail(rate, join(field, "false_alarm_rate"), "must be a probability in (0, 0.5)",
             "e.g. 1e-5 (the default is 6.7e-6)");
    }
  }

  baseline_file file(const YAML::Node& root) const {
    if (!root || root.IsNull())
      fail(root, "", "the file is empty", "a baseline file written by 'counterguard baseline update'");
    require_map(root, "");
    check_keys(root, "", {"schema_version", "gpu_key", "suite", "metadata", "cases"});
    baseline_file result;
    const YAML::Node version = required(root, "schema_version", "");
    const long v = integer(version, "schema_version");
    if (v < 1 || v > baseline_schema_version) {
      fail(version, "schema_version", "unsupported version " + std::to_string(v),
           "this counterguard reads versions 1 to " + std::to_string(baseline_schema_version));
    }
    result.schema_version = static_cast<int>(v);
    result.gpu_key = text(required(root, "gpu_key", ""), "gpu_key");
    if (result.gpu_key.empty())
      fail(root["gpu_key"], "gpu_key", "must not be empty", "e.g. GH100-132sm-cuda13");
    result.suite = text(required(root, "suite", ""), "suite");

    const YAML::Node metadata = required(root, "metadata", "");
    require_map(metadata, "metadata");
    check_keys(metadata, "metadata",
               {"gpu_name", "driver", "cuda", "cupti", "date", "git_commit", "counterguard_version"});
    auto optional_text = [&](const char* key) {
      const YAML::Node node = metadata[key];
      return node ? text(node, join("metadata", key)) : std::string();
    };
    result.metadata.gpu_name = optional_text("gpu_name");
    result.metadata.driver = optional_text("driver");
    result.metadata.cuda = optional_text("cuda");
    result.metadata.cupti = optional_text("cupti");
    result.metadata.date = optional_text("date");
    result.metadata.git_commit = optional_text("git_commit");
    result.metadata.counterguard_version = optional_text("counterguard_version");

    const YAML::Node cases = required(root, "cases", "");
    require_map(cases, "cases");
    for (const auto& case_item : cases) {
      const std::string instance = key_text(case_item.first, "cases");
      const std::string case_field = "cases." + instance;
      require_map(case_item.second, case_field);
      baseline_case& kernels = result.cases[instance];
      for (const auto& kernel_item : case_item.second) {
        const std::string kernel = key_text(kernel_item.first, case_field);
        const std::string kernel_field = case_field + "." + kernel;
        require_map(kernel_item.second, kernel_field);
        baseline_metrics& metrics = kernels[kernel];
        for (const auto& metric_item : kernel_item.second) {
          const std::string metric = key_text(metric_item.first, kernel_field);
          metrics[metric] = entry(metric_item.second, kernel_field + "." + metric, result.schema_version);
        }
      }
    }
    return result;
  }

 private:
  std::string m_path;
};

}  // namespace

std::string render_baseline_yaml(const baseline_file& file) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "schema_version" << YAML::Value << std::to_string(file.schema_version);
  out << YAML::Key << "gpu_key" << YAML::Value << file.gpu_key;
  out << YAML::Key << "suite" << YAML::Value << file.suite;
  out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "gpu_name" << YAML::Value << file.metadata.gpu_name;
  out << YAML::Key << "driver" << YAML::Value << file.metadata.driver;
  out << YAML::Key << "cuda" << YAML::Value << file.metadata.cuda;
  out << YAML::Key << "cupti" << YAML::Value << file.metadata.cupti;
  out << YAML::Key << "date" << YAML::Value << file.metadata.date;
  out << YAML::Key << "git_commit" << YAML::Value << file.metadata.git_commit;
  out << YAML::Key << "counterguard_version" << YAML::Value << file.metadata.counterguard_version;
  out << YAML::EndMap;
  out << YAML::Key << "cases" << YAML::Value;
  if (file.cases.empty()) {
    out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
  } else {
    out << YAML::BeginMap;
    for (const auto& [instance, kernels] : file.cases) {
      out << YAML::Key << instance << YAML::Value;
      if (kernels.empty()) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        continue;
      }
      out << YAML::BeginMap;
      for (const auto* kernel : ordered_kernels(kernels)) {
        out << YAML::Key << kernel->first << YAML::Value << YAML::BeginMap;
        for (const auto& [metric, entry] : kernel->second) {
          out << YAML::Key << metric << YAML::Value;
          emit_entry(out, entry);
        }
        out << YAML::EndMap;
      }
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  if (!out.good())
    throw std::logic_error("baseline YAML emitter: " + out.GetLastError());

  std::string text;
  text += "# counterguard baselines: suite '" + file.suite + "' on GPU key '" + file.gpu_key + "'.\n";
  text +=
      "# Written by 'counterguard baseline update'; by hand, edit only 'tolerance', 'absolute_floor', "
      "'noise'\n"
      "# and 'false_alarm_rate'.\n";
  text += "# Format and comparison rules: docs/baselines.md\n";
  text += out.c_str();
  text += "\n";
  return text;
}

baseline_file parse_baseline_yaml(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw input_error(source_location{path, e.mark.line + 1, e.mark.column + 1}, {}, "invalid YAML: " + e.msg,
                      "restore the file from version control or rerun 'counterguard baseline update'");
  }
  return parser(path).file(root);
}

std::optional<baseline_file> load_baseline_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 && errno == ENOENT)
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw input_error(source_location{path, 0, 0}, {}, "cannot read the baseline file",
                      "check its permissions");
  }
  std::ostringstream content;
  content << in.rdbuf();
  return parse_baseline_yaml(content.str(), path);
}

void save_baseline_file(const std::string& path, const baseline_file& file) {
  write_file_atomically(path, render_baseline_yaml(file));
}

}  // namespace counterguard
