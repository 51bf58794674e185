// SPDX-License-Identifier: Apache-2.0
// The built-in metric aliases (docs/metrics.md is their reference; keep the two in step).
#include <utility>

#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {
namespace {

metric_definition cupti_alias(std::string name, metric_class cls, metric_direction direction,
                              std::string formula, std::vector<std::string> inputs, std::string unit,
                              std::string description) {
  metric_definition definition;
  definition.name = std::move(name);
  definition.cls = cls;
  definition.direction = direction;
  definition.source = metric_source::cupti;
  definition.formula = std::move(formula);
  definition.raw_inputs = std::move(inputs);
  definition.unit = std::move(unit);
  definition.description = std::move(description);
  definition.summable = true;
  for (const auto& input : definition.raw_inputs) {
    if (input.size() < 4 || input.compare(input.size() - 4, 4, ".sum") != 0)
      definition.summable = false;
  }
  return definition;
}

// A raw counter under a friendlier name.
metric_definition counter(std::string name, metric_class cls, metric_direction direction,
                          const std::string& raw, std::string unit, std::string description) {
  return cupti_alias(std::move(name), cls, direction, raw, {raw}, std::move(unit), std::move(description));
}

metric_definition ratio(std::string name, metric_direction direction, const std::string& numerator,
                        const std::string& denominator, std::string unit, std::string description) {
  return cupti_alias(std::move(name), metric_class::exact, direction, numerator + " / " + denominator,
                     {numerator, denominator}, std::move(unit), std::move(description));
}

metric_definition difference(std::string name, const std::string& minuend, const std::string& subtrahend,
                             std::string description) {
  return cupti_alias(std::move(name), metric_class::exact, metric_direction::lower_is_better,
                     minuend + " - " + subtrahend, {minuend, subtrahend}, "count", std::move(description));
}

metric_definition resource(std::string name, metric_source source, std::string field,
                           metric_direction direction, std::string unit, std::string description) {
  metric_definition definition;
  definition.name = std::move(name);
  definition.cls = source == metric_source::compiler ? metric_class::static_resource : metric_class::exact;
  definition.direction = direction;
  definition.source = source;
  definition.formula = std::move(field);
  definition.unit = std::move(unit);
  definition.description = std::move(description);
  return definition;
}

void add_static_metrics(metric_catalog& c) {
  constexpr auto lower = metric_direction::lower_is_better;
  c.add(resource("registers_per_thread", metric_source::compiler, "registers", lower, "registers",
                 "registers ptxas allocated per thread"));
  c.add(resource("spill_store_bytes", metric_source::compiler, "spill_store_bytes", lower, "bytes",
                 "register spill stores per thread"));
  c.add(resource("spill_load_bytes", metric_source::compiler, "spill_load_bytes", lower, "bytes",
                 "register spill loads per thread"));
  c.add(resource("stack_frame_bytes", metric_source::compiler, "stack_frame_bytes", lower, "bytes",
                 "stack frame (local memory) per thread"));
  c.add(resource("static_shared_bytes", metric_source::compiler, "static_shared_bytes", lower, "bytes",
                 "statically declared shared memory per block"));
  c.add(resource("constant_bytes", metric_source::compiler, "constant_bytes", lower, "bytes",
                 "user constant memory named by the compiler report"));
  c.add(resource("barriers", metric_source::compiler, "barriers", lower, "barriers", "named barriers used"));
  c.add(resource("launch_registers_per_thread", metric_source::launch, "registers", lower, "registers",
                 "registers per thread the launch holds, as ncu's launch__registers_per_thread: the "
                 "function's count (cuFuncGetAttribute NUM_REGS), at least 16"));
  c.add(resource("launch_local_bytes_per_thread", metric_source::launch, "local_bytes_per_thread", lower,
                 "bytes", "cudaFuncGetAttributes localSizeBytes at launch"));
  c.add(resource("theoretical_occupancy", metric_source::launch, "theoretical_occupancy_pct",
                 metric_direction::higher_is_better, "%", "warp slots the occupancy calculator allows"));
}

void add_memory_metrics(metric_catalog& c) {
  constexpr auto lower = metric_direction::lower_is_better;
  constexpr auto exact = metric_class::exact;
  const std::string sass_wave = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_";
  const std::string sass_inst = "smsp__sass_inst_executed_op_shared_";
  for (const std::string op : {"ld", "st"}) {
    const std::string verb = op == "ld" ? "load" : "store";
    c.add(difference(
        "shared_" + verb + "_bank_conflicts", sass_wave + op + ".sum", sass_inst + op + ".sum",
        "extra shared-memory " + verb + " wavefronts caused by bank conflicts (instrumented, exact)"));
    c.add(counter("shared_" + verb + "_wavefronts", exact, lower, sass_wave + op + ".sum", "wavefronts",
                  "shared-memory " + verb + " wavefronts (instrumented)"));
    c.add(counter("shared_" + verb + "_instructions", exact, metric_direction::exact, sass_inst + op + ".sum",
                  "instructions", "shared-memory " + verb + " instructions (instrumented)"));
    c.add(ratio("shared_" + verb + "_wavefronts_per_instruction", lower, sass_wave + op + ".sum",
                sass_inst + op + ".sum", "wavefronts", "1 = conflict-free, 32 = 32-way conflict"));
    c.add(counter("shared_" + verb + "_bank_conflicts_hw", metric_class::noisy, lower,
                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum", "count",
                  "hardware bank-conflict counter (includes arbitration noise in full grids)"));
    // Instrumented (SASS-patched) counters give the same exact numbers as the hardware counters for
    // sectors and requests (checked on the H200 against ncu: validation/gpu_checks.sh crosscheck) at a
    // fraction of the cost: a launch profiled with hardware counters took about 50 ms on the H200, one with
    // only instrumented counters under 1 ms. The hardware versions stay available as *_hw.
    const std::string sectors = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_" + op + ".sum";
    const std::string instructions = "smsp__sass_inst_executed_op_global_" + op + ".sum";
    const std::string hw_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum";
    const std::string hw_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum";
    c.add(counter("global_" + verb + "_sectors", exact, lower, sectors, "sectors",
                  "32-byte global " + verb + " sectors (instrumented)"));
    c.add(counter("global_" + verb + "_requests", exact, metric_direction::exact, instructions, "requests",
                  "global " + verb + " requests: one per warp-level instruction (instrumented)"));
    c.add(ratio("global_" + verb + "_sectors_per_request", lower, sectors, instructions, "sectors",
                "4 = coalesced 4-byte words, 32 = every lane in its own sector"));
    c.add(counter("global_" + verb + "_sectors_hw", exact, lower, hw_sectors, "sectors",
                  "32-byte global " + verb + " sectors (hardware counter)"));
    c.add(counter("global_" + verb + "_requests_hw", exact, metric_direction::exact, hw_requests, "requests",
                  "global " + verb + " requests (hardware counter)"));
    // Bytes of whole 32-byte sectors through L1. For straight-line spill code every thread's slot is touched
    // once, so this is threads x the compiler's spill bytes. Read from the instrumented sector count: on the
    // H200, 32 x it equalled the hardware l1tex__t_bytes counter in all 198 kernel values of the built-in
    // suite and the example project, runtime-indexed stack arrays included
    // (validation/compare_local_bytes.py), and a launch costs about 0.3 ms instead of 23 ms.
    // (smsp__sass_data_bytes_mem_local_* counts 4 bytes per warp instruction, 1/32 of it.) Recordings made
    // with the hardware counter are still read with it.
    const std::string local_sectors = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_" + op + ".sum";
    const std::string hw_local_bytes = "l1tex__t_bytes_pipe_lsu_mem_local_op_" + op + ".sum";
    metric_definition local_bytes = cupti_alias(
        "local_" + verb + "_bytes", exact, lower, "32 * " + local_sectors, {local_sectors}, "bytes",
        "local-memory " + verb + " bytes (spills, stack arrays), whole sectors (instrumented)");
    local_bytes.formula_before = hw_local_bytes;
    local_bytes.raw_inputs_before = {hw_local_bytes};
    c.add(std::move(local_bytes));
    c.add(counter("local_" + verb + "_bytes_hw", exact, lower, hw_local_bytes, "bytes",
                  "local-memory " + verb + " bytes, whole sectors (hardware counter)"));
    c.add(counter("local_" + verb + "_instructions", exact, lower,
                  "smsp__sass_inst_executed_op_local_" + op + ".sum", "instructions",
                  "local-memory " + verb + " instructions (instrumented)"));
    c.add(counter("dshared_" + verb + "_instructions", exact, metric_direction::exact,
                  "sm__sass_inst_executed_op_dshared_" + op + ".sum", "instructions",
                  "distributed shared memory " + verb + " instructions (clusters)"));
  }
  c.add(counter("dshared_atomic_instructions", exact, metric_direction::exact,
                "sm__sass_inst_executed_op_dshared_atom.sum", "instructions",
                "distributed shared memory atomics (clusters)"));
  c.add(counter("global_atomic_requests", exact, lower, "smsp__sass_inst_executed_op_global_atom.sum",
                "requests", "global atomic requests (ATOM), one per warp-level instruction (instrumented)"));
  c.add(counter(
      "global_reduction_requests", exact, lower, "smsp__sass_inst_executed_op_global_red.sum", "requests",
      "global reductions (RED: atomics whose result is unused), one per warp instruction (instrumented)"));
  c.add(counter("global_atomic_requests_hw", exact, lower,
                "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "requests",
                "global atomic requests (hardware counter)"));
  c.add(counter("global_reduction_requests_hw", exact, lower,
                "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "requests",
                "global reduction requests (hardware counter)"));
  c.add(counter("shared_atomic_instructions", exact, metric_direction::exact,
                "smsp__sass_inst_executed_op_shared_atom.sum", "instructions",
                "shared-memory atomic instructions"));
  c.add(
      counter("constant_requests", exact, lower, "idc__requests.sum", "requests", "constant-cache requests"));
  c.add(counter("constant_load_instructions", exact, metric_direction::exact,
                "smsp__inst_executed_op_ldc.sum", "instructions", "LDC instructions"));
  c.add(ratio("constant_requests_per_instruction", lower, "idc__requests.sum",
              "smsp__inst_executed_op_ldc.sum", "requests", "1 = every lane reads one address (broadcast)"));
  c.add(counter("texture_requests", exact, metric_direction::exact,
                "l1tex__t_requests_pipe_tex_mem_texture.sum", "requests", "texture fetch requests"));
  c.add(counter("texture_sectors", exact, lower, "l1tex__t_sectors_pipe_tex_mem_texture.sum", "sectors",
                "texture fetch sectors"));
}

void add_execution_metrics(metric_catalog& c) {
  constexpr auto exact = metric_class::exact;
  constexpr auto noisy = metric_class::noisy;
  constexpr auto lower = metric_direction::lower_is_better;
  constexpr auto higher = metric_direction::higher_is_better;
  c.add(counter("instructions", exact, lower, "smsp__sass_inst_executed.sum", "instructions",
                "warp instructions executed (instrumented)"));
  c.add(counter("thread_instructions", exact, lower, "smsp__sass_thread_inst_executed.sum", "instructions",
                "thread instructions executed (instrumented)"));
  c.add(ratio("threads_per_instruction", higher, "smsp__sass_thread_inst_executed.sum",
              "smsp__sass_inst_executed.sum", "threads",
              "active threads per warp instruction (32 = no divergence)"));
  // Predicated-off lanes are active and issue the instruction but do nothing: threads_per_instruction counts
  // them, these do not (ncu: "not predicated off threads per warp").
  c.add(counter("predicated_on_thread_instructions", exact, lower,
                "smsp__sass_thread_inst_executed_pred_on.sum", "instructions",
                "thread instructions executed with the predicate on (instrumented)"));
  c.add(ratio("predicated_on_threads_per_instruction", higher, "smsp__sass_thread_inst_executed_pred_on.sum",
              "smsp__sass_inst_executed.sum", "threads",
              "threads per warp instruction that are active and not predicated off (32 = no lane wasted)"));
  c.add(counter("instructions_hw", exact, lower, "smsp__inst_executed.sum", "instructions",
                "warp instructions executed (hardware counter)"));
  c.add(counter("divergent_branch_targets", exact, lower, "smsp__sass_branch_targets_threads_divergent.sum",
                "count", "branch targets taken by a divergent subset of a warp"));
  c.add(counter("achieved_occupancy", noisy, higher, "sm__warps_active.avg.pct_of_peak_sustained_active", "%",
                "active warps over the SM's warp slots, while active"));
  c.add(counter("dram_read_bytes", noisy, lower, "dram__bytes_read.sum", "bytes", "DRAM bytes read"));
  c.add(counter("dram_write_bytes", noisy, lower, "dram__bytes_write.sum", "bytes", "DRAM bytes written"));
  c.add(counter("l1_hit_rate", noisy, higher, "l1tex__t_sector_hit_rate.pct", "%", "L1 sector hit rate"));
  c.add(counter("l2_hit_rate", noisy, higher, "lts__t_sector_hit_rate.pct", "%", "L2 sector hit rate"));
  c.add(counter("duration_ns", noisy, lower, "gpu__time_duration.sum", "ns", "kernel duration"));
}

}  // namespace

const metric_catalog& metric_catalog::builtin() {
  static const metric_catalog catalog = [] {
    metric_catalog c;
    add_static_metrics(c);
    add_memory_metrics(c);
    add_execution_metrics(c);
    return c;
  }();
  return catalog;
}

}  // namespace counterguard
