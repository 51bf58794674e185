// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/results_merge.hpp"

#include <algorithm>
#include <map>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

[[noreturn]] void refuse(const std::string& file, const std::string& problem, const std::string& valid) {
  throw input_error(source_location{file, 0, 0}, "", problem, valid);
}

void check_gpu_keys(const std::vector<named_results>& inputs) {
  const named_results* reference = nullptr;
  for (const auto& input : inputs) {
    if (input.results.cases.empty())
      continue;  // an empty shard ran nothing, on no device
    if (reference == nullptr) {
      reference = &input;
    } else if (input.results.metadata.gpu_key != reference->results.metadata.gpu_key) {
      refuse(input.file,
             "GPU key '" + input.results.metadata.gpu_key + "' differs from '" +
                 reference->results.metadata.gpu_key + "' of " + reference->file,
             "merge results of one GPU key (identical GPUs share baselines)");
    }
  }
}

void check_no_overlap(const std::vector<named_results>& inputs) {
  std::map<std::string, const std::string*> owner;
  for (const auto& input : inputs) {
    for (const auto& c : input.results.cases) {
      const auto [found, inserted] = owner.emplace(c.instance, &input.file);
      if (!inserted) {
        refuse(
            input.file, "case instance '" + c.instance + "' is also in " + *found->second,
            "merge results of disjoint case instances (the shards of one run, or runs of different suites)");
      }
    }
  }
}

// "2/4, 3/4": the shards of `count` that `shards` (in index order) lack.
std::string missing_shards(const std::vector<named_results*>& shards, int count) {
  std::string missing;
  std::size_t next = 0;
  for (int index = 1; index <= count; ++index) {
    if (next < shards.size() && shards[next]->results.metadata.shard->index == index) {
      ++next;
      continue;
    }
    missing += (missing.empty() ? "" : ", ") + std::to_string(index) + "/" + std::to_string(count);
  }
  return missing;
}

// Every input is shard I of `expected`, as the job array of `expected` tasks writes them.
void check_expected_count(const std::vector<named_results>& inputs, int expected) {
  for (const auto& input : inputs) {
    if (!input.results.metadata.shard) {
      refuse(input.file, "not a shard, while --expect-shards " + std::to_string(expected) + " was given",
             "the results files of `--shard I/" + std::to_string(expected) + "`");
    }
    const shard_record& shard = *input.results.metadata.shard;
    if (shard.count != expected) {
      refuse(input.file,
             "shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) +
                 " is not one of --expect-shards " + std::to_string(expected),
             "the results files of `--shard I/" + std::to_string(expected) +
                 "` (the same count in every task and in the merge)");
    }
  }
}

// The shards in index order, checked to be the N shards of one plan.
std::vector<named_results*> ordered_shards(std::vector<named_results>& inputs) {
  std::vector<named_results*> shards;
  shards.reserve(inputs.size());
  for (auto& input : inputs)
    shards.push_back(&input);
  std::stable_sort(shards.begin(), shards.end(), [](const named_results* a, const named_results* b) {
    return a->results.metadata.shard->index < b->results.metadata.shard->index;
  });
  const shard_record& first = *shards.front()->results.metadata.shard;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const shard_record& shard = *shards[i]->results.metadata.shard;
    if (shard.count != first.count || shard.plan != first.plan ||
        shard.total_instances != first.total_instances) {
      refuse(shards[i]->file,
             "shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) + " (plan " +
                 shard.plan + ") is not from the same plan as " + shards.front()->file + " (" +
                 std::to_string(first.index) + "/" + std::to_string(first.count) + ", plan " + first.plan +
                 ")",
             "shards of one run: the same cases, --shard count and --cost-from files in every job");
    }
    if (shard.positions.size() != shards[i]->results.cases.size()) {
      refuse(shards[i]->file,
             "metadata.shard.positions has " + std::to_string(shard.positions.size()) + " entries for " +
                 std::to_string(shards[i]->results.cases.size()) + " cases",
             "one position per case, as `run --shard` writes");
    }
    if (i > 0 && shards[i - 1]->results.metadata.shard->index == shard.index) {
      refuse(shards[i]->file, "shard " + std::to_string(shard.index) + " is also " + shards[i - 1]->file,
             "each shard once");
    }
  }
  const std::string missing = missing_shards(shards, first.count);
  if (!missing.empty()) {
    refuse(shards.front()->file, "missing shards: " + missing,
           "every shard's results file (a job that failed before writing one must be rerun)");
  }
  return shards;
}

}  // namespace

run_results merge_results(std::vector<named_results> inputs, std::optional<int> expected_shards) {
  if (expected_shards) {
    if (*expected_shards < 1) {
      throw input_error({}, "--expect-shards", std::to_string(*expected_shards) + " shards",
                        "a count of 1 or more (the N of --shard I/N)");
    }
    if (inputs.empty()) {
      throw input_error(
          {}, "inputs",
          "missing shards: " + missing_shards({}, *expected_shards) + " (no results file was given)",
          "every shard's results file (a job that failed before writing one must be rerun)");
    }
    check_expected_count(inputs, *expected_shards);
  }
  if (inputs.empty())
    throw input_error({}, "inputs", "no results files to merge", "one or more results JSON files");
  const std::size_t sharded =
      static_cast<std::size_t>(std::count_if(inputs.begin(), inputs.end(), [](const named_results& input) {
        return input.results.metadata.shard.has_value();
      }));
  if (sharded != 0 && sharded != inputs.size()) {
    const auto plain = std::find_if(inputs.begin(), inputs.end(),
                                    [](const named_results& input) { return !input.results.metadata.shard; });
    refuse(plain->file, "not a shard, while other inputs are (written with --shard)",
           "merge the shards of one run, or whole runs, not both");
  }
  check_gpu_keys(inputs);
  check_no_overlap(inputs);

  run_results merged;
  if (sharded == 0) {
    merged.metadata = inputs.front().results.metadata;
    for (auto& input : inputs) {
      merged.cases.insert(merged.cases.end(), std::make_move_iterator(input.results.cases.begin()),
                          std::make_move_iterator(input.results.cases.end()));
    }
  } else {
    const std::vector<named_results*> shards = ordered_shards(inputs);
    // The first shard's metadata; that of the first shard that ran cases when it is empty (no device).
    merged.metadata = shards.front()->results.metadata;
    for (const auto* shard : shards) {
      if (!shard->results.cases.empty()) {
        merged.metadata = shard->results.metadata;
        break;
      }
    }
    // Every position 0..total-1 is filled exactly once: the shards are complete and disjoint.
    const std::size_t total = shards.front()->results.metadata.shard->total_instances;
    std::vector<case_result*> slots(total, nullptr);
    for (auto* shard : shards) {
      const auto& positions = shard->results.metadata.shard->positions;
      for (std::size_t i = 0; i < positions.size(); ++i) {
        if (slots[positions[i]] != nullptr)
          refuse(shard->file, "position " + std::to_string(positions[i]) + " is in two shards",
                 "shards of one plan (`run --shard`)");
        slots[positions[i]] = &shard->results.cases[i];
      }
    }
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i] == nullptr)
        refuse(shards.front()->file, "no shard holds the case at position " + std::to_string(i),
               "every shard's complete results file");
    }
    merged.cases.reserve(total);
    for (auto* slot : slots)
      merged.cases.push_back(std::move(*slot));
  }
  merged.metadata.shard.reset();
  for (const auto& input : inputs) {
    if (!input.results.metadata.started_at.empty() &&
        (merged.metadata.started_at.empty() ||
         input.results.metadata.started_at < merged.metadata.started_at))
      merged.metadata.started_at = input.results.metadata.started_at;  // ISO 8601 UTC sorts as text
  }
  return merged;
}

}  // namespace counterguard
