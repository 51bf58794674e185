// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_file.hpp"

#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <vector>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/core/yaml_reader.hpp"

namespace counterguard {

bool operator==(const baseline_entry& a, const baseline_entry& b) {
  return a.value == b.value && a.cls == b.cls && a.min == b.min && a.max == b.max && a.n == b.n &&
         a.direction == b.direction && a.tolerance == b.tolerance && a.absolute_floor == b.absolute_floor &&
         a.mean == b.mean && a.sd == b.sd && a.noise == b.noise && a.false_alarm_rate == b.false_alarm_rate &&
         a.from_history == b.from_history;
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
  if (e.from_history)
    out << YAML::Key << "from_history" << YAML::Value << std::to_string(*e.from_history);
  if (e.noise)
    out << YAML::Key << "noise" << YAML::Value << to_string(*e.noise);
  if (e.false_alarm_rate)
    out << YAML::Key << "false_alarm_rate" << YAML::Value << format_value(*e.false_alarm_rate);
  out << YAML::EndMap;
}

// ---- parsing ----

// Reads a baseline file with the same typed reader as suites: unknown and duplicate keys are errors.
class parser {
 public:
  explicit parser(const std::string& path) : m_reader(path) {}

  baseline_entry entry(const YAML::Node& node, const std::string& field, int schema_version) const {
    const std::vector<yaml_entry> fields =
        schema_version < 2
            ? m_reader.map_entries(
                  node, field,
                  {"value", "class", "min", "max", "n", "direction", "tolerance", "absolute_floor"})
            : m_reader.map_entries(
                  node, field,
                  {"value", "class", "min", "max", "n", "direction", "tolerance", "absolute_floor", "mean",
                   "sd", "noise", "false_alarm_rate", "from_history"});
    baseline_entry e;
    e.value =
        m_reader.number(m_reader.required(node, fields, field, "value").value, field_at(field, "value"));
    const yaml_entry& cls_entry = m_reader.required(node, fields, field, "class");
    const std::string cls_text = m_reader.scalar(cls_entry.value, field_at(field, "class"), "a metric class");
    const auto cls = parse_metric_class(cls_text);
    if (!cls) {
      m_reader.fail(cls_entry.value, field_at(field, "class"), "unknown class '" + cls_text + "'",
                    "valid: static, exact, noisy");
    }
    e.cls = *cls;
    e.min = m_reader.number(m_reader.required(node, fields, field, "min").value, field_at(field, "min"));
    e.max = m_reader.number(m_reader.required(node, fields, field, "max").value, field_at(field, "max"));
    e.n = static_cast<int>(m_reader.integer(m_reader.required(node, fields, field, "n").value,
                                            field_at(field, "n"), 1, 1000000));
    const yaml_entry& direction_entry = m_reader.required(node, fields, field, "direction");
    const std::string direction_text =
        m_reader.scalar(direction_entry.value, field_at(field, "direction"), "a direction");
    const auto direction = parse_metric_direction(direction_text);
    if (!direction) {
      m_reader.fail(direction_entry.value, field_at(field, "direction"),
                    "unknown direction '" + direction_text + "'",
                    "valid: lower_is_better, higher_is_better, exact");
    }
    e.direction = *direction;
    if (!(e.min <= e.value && e.value <= e.max)) {
      m_reader.fail(node, field,
                    "value " + format_value(e.value) + " is outside [min, max] = [" + format_value(e.min) +
                        ", " + format_value(e.max) + "]",
                    "min <= value <= max");
    }
    if (const yaml_entry* t = find_entry(fields, "tolerance")) {
      e.tolerance = m_reader.number(t->value, field_at(field, "tolerance"));
      if (*e.tolerance < 0) {
        m_reader.fail(t->value, field_at(field, "tolerance"), "must not be negative",
                      "a relative tolerance such as 0.05");
      }
    }
    if (const yaml_entry* f = find_entry(fields, "absolute_floor")) {
      e.absolute_floor = m_reader.number(f->value, field_at(field, "absolute_floor"));
      if (*e.absolute_floor < 0)
        m_reader.fail(f->value, field_at(field, "absolute_floor"), "must not be negative",
                      "a count such as 32");
    }
    statistics(node, fields, field, e);
    return e;
  }

  // The version 2 fields of an entry (docs/baselines.md, "Noise model").
  void statistics(const YAML::Node& node, const std::vector<yaml_entry>& fields, const std::string& field,
                  baseline_entry& e) const {
    const yaml_entry* mean = find_entry(fields, "mean");
    const yaml_entry* sd = find_entry(fields, "sd");
    if ((mean == nullptr) != (sd == nullptr))
      m_reader.fail(node, field_at(field, mean != nullptr ? "sd" : "mean"), "missing",
                    "'mean' and 'sd' come together");
    if (mean != nullptr) {
      e.mean = m_reader.number(mean->value, field_at(field, "mean"));
      if (!(e.min <= *e.mean && *e.mean <= e.max)) {
        m_reader.fail(mean->value, field_at(field, "mean"),
                      "mean " + format_value(*e.mean) + " is outside [min, max] = [" + format_value(e.min) +
                          ", " + format_value(e.max) + "]",
                      "min <= mean <= max");
      }
      e.sd = m_reader.number(sd->value, field_at(field, "sd"));
      if (*e.sd < 0)
        m_reader.fail(sd->value, field_at(field, "sd"), "must not be negative",
                      "the samples' standard deviation");
    }
    if (const yaml_entry* kind = find_entry(fields, "noise")) {
      const std::string text = m_reader.scalar(kind->value, field_at(field, "noise"), "a noise kind");
      const auto parsed = parse_noise_kind(text);
      if (!parsed) {
        m_reader.fail(kind->value, field_at(field, "noise"), "unknown noise kind '" + text + "'",
                      "valid: counts, bytes, percent, duration, relative");
      }
      e.noise = *parsed;
    }
    if (const yaml_entry* history = find_entry(fields, "from_history")) {
      // Some of the n samples were this refresh's own: at most n - 1 came from the history.
      e.from_history = static_cast<int>(
          m_reader.integer(history->value, field_at(field, "from_history"), 0, std::max(e.n - 1, 0)));
    }
    if (const yaml_entry* rate = find_entry(fields, "false_alarm_rate")) {
      e.false_alarm_rate = m_reader.number(rate->value, field_at(field, "false_alarm_rate"));
      if (!(*e.false_alarm_rate > 0 && *e.false_alarm_rate < 0.5)) {
        m_reader.fail(rate->value, field_at(field, "false_alarm_rate"), "must be a probability in (0, 0.5)",
                      "e.g. 1e-5 (the default is 6.7e-6)");
      }
    }
  }

  baseline_file file(const YAML::Node& root) const {
    if (!root || root.IsNull()) {
      m_reader.fail(root, "", "the file is empty",
                    "a baseline file written by 'counterguard baseline update'");
    }
    const std::vector<yaml_entry> fields =
        m_reader.map_entries(root, "", {"schema_version", "gpu_key", "suite", "metadata", "cases"});
    baseline_file result;
    const yaml_entry& version = m_reader.required(root, fields, "", "schema_version");
    const std::int64_t v = m_reader.integer(version.value, "schema_version", 0, 1000000);
    if (v < 1 || v > baseline_schema_version) {
      m_reader.fail(version.value, "schema_version", "unsupported version " + std::to_string(v),
                    "this counterguard reads versions 1 to " + std::to_string(baseline_schema_version));
    }
    result.schema_version = static_cast<int>(v);
    const yaml_entry& gpu_key = m_reader.required(root, fields, "", "gpu_key");
    result.gpu_key = m_reader.scalar(gpu_key.value, "gpu_key", "a GPU key");
    if (result.gpu_key.empty())
      m_reader.fail(gpu_key.value, "gpu_key", "must not be empty", "e.g. GH100-132sm-cuda13");
    result.suite =
        m_reader.scalar(m_reader.required(root, fields, "", "suite").value, "suite", "a suite name");

    const yaml_entry& metadata = m_reader.required(root, fields, "", "metadata");
    const std::vector<yaml_entry> metadata_fields = m_reader.map_entries(
        metadata.value, "metadata",
        {"gpu_name", "driver", "cuda", "cupti", "date", "git_commit", "counterguard_version"});
    auto optional_text = [&](const char* key) {
      const yaml_entry* found = find_entry(metadata_fields, key);
      return found == nullptr ? std::string()
                              : m_reader.scalar(found->value, field_at("metadata", key), "text");
    };
    result.metadata.gpu_name = optional_text("gpu_name");
    result.metadata.driver = optional_text("driver");
    result.metadata.cuda = optional_text("cuda");
    result.metadata.cupti = optional_text("cupti");
    result.metadata.date = optional_text("date");
    result.metadata.git_commit = optional_text("git_commit");
    result.metadata.counterguard_version = optional_text("counterguard_version");

    const yaml_entry& cases = m_reader.required(root, fields, "", "cases");
    if (!cases.value.IsMap() && !cases.value.IsNull())
      m_reader.fail(cases.value, "cases",
                    "expected a map of case instances, got " + describe_node(cases.value));
    for (const yaml_entry& case_item : m_reader.map_entries(cases.value, "cases")) {
      const std::string case_field = field_at("cases", case_item.key);
      baseline_case& kernels = result.cases[case_item.key];
      for (const yaml_entry& kernel_item : m_reader.map_entries(case_item.value, case_field)) {
        const std::string kernel_field = field_at(case_field, kernel_item.key);
        baseline_metrics& metrics = kernels[kernel_item.key];
        for (const yaml_entry& metric_item : m_reader.map_entries(kernel_item.value, kernel_field))
          metrics[metric_item.key] =
              entry(metric_item.value, field_at(kernel_field, metric_item.key), result.schema_version);
      }
    }
    return result;
  }

 private:
  yaml_reader m_reader;
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
    throw internal_error("baseline YAML emitter: " + out.GetLastError());

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
  try {
    return parser(path).file(root);
  } catch (const YAML::Exception& e) {  // a node access the checks did not foresee
    throw input_error(source_location{path, e.mark.line + 1, e.mark.column + 1}, {},
                      "malformed baseline: " + e.msg,
                      "restore the file from version control or rerun 'counterguard baseline update'");
  }
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
