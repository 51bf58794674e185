#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summary of validation/blame_inline.sh (issue 30): per plant, the line `counterguard run` blamed (with its
inline chain and any change of instruction kind), what `blame --against` says, and the cross-checks of the
chain: nvdisasm -gi's inline frames for the same PCs and the lines ncu's source page puts the counters on.

Usage: summarize.py WORK_DIR   (the files blame_inline.sh leaves there; prints summary.md and writes it there)
"""
import csv
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# case, kernel (function name without namespaces), marker of the calling line in src/plants.cu, the header the
# planted code is inlined from, the blame metrics of its regressed counters, ncu's source-page columns for them.
PLANTS = [
    ("helper_gather", "scale_gathered", "plant (a)", "gather.cuh", ["global_excess_sectors", "global_sectors"],
     ["L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Excessive"]),
    ("group_sum", "tile_sums", "plant (b)", "cooperative_groups", ["executed_instructions"],
     ["Warp Instructions Executed", "Instructions Executed"]),
    ("count_events", "count_events", "plant (c)", "device_atomic_functions.hpp", ["global_sectors"],
     ["L2 Theoretical Sectors Global", "Warp Instructions Executed", "Instructions Executed"]),
]


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def marker_line(marker):
    for number, text in enumerate(read(os.path.join(HERE, "src", "plants.cu")).splitlines(), 1):
        if marker in text:
            return f"plants.cu:{number}"
    return "?"


def describe(line):
    place = " -> ".join(line.get("chain") or []) if len(line.get("chain") or []) > 1 else line["place"]
    before = line.get("before")
    text = f"{place}  {line['sass']}  {line['metric'].replace('_', ' ')} "
    text += f"{before} -> {line['after']}" if before is not None else str(line["after"])
    if line.get("opcodes_before") or line.get("opcodes_after"):
        text += f"; instruction kinds {', '.join(line.get('opcodes_before') or ['-'])} -> " \
                f"{', '.join(line.get('opcodes_after') or ['-'])}"
    return text


def frames_of(instruction):
    """Our chain for one instruction of `counterguard sass --json`: outermost first, as 'file:line'."""
    calls = [f"{os.path.basename(c['file'])}:{c['line']}" for c in reversed(instruction.get("inlined_at") or [])]
    source = instruction.get("source")
    return calls + ([f"{os.path.basename(source['file'])}:{source['line']}"] if source else [])


def nvdisasm_chains(text, kernel):
    """PC -> chain (outermost first) from `nvdisasm -gi` for the function whose name contains `kernel`. Before an
    instruction whose line changed, nvdisasm writes one //## comment per level of inlining, innermost first
    ("File A, line 1 inlined at File B, line 2", then "File B, line 2 inlined at ...", ..., then the kernel's own
    line): the chain is each comment's own place, outermost first."""
    chains, current, comments, inside = {}, [], [], False
    location = re.compile(r"\"([^\"]*)\", line (\d+)")
    for line in text.splitlines():
        if ".text." in line and ".section" in line:
            inside = kernel in line
            continue
        if not inside:
            continue
        if "//##" in line:
            frames = location.findall(line)
            if frames:
                comments.append(f"{os.path.basename(frames[0][0])}:{frames[0][1]}")
            continue
        pc = re.match(r"\s*/\*([0-9a-f]{4,})\*/", line)
        if pc:
            if comments:
                current, comments = list(reversed(comments)), []
            chains[int(pc.group(1), 16)] = current
    return chains


def csv_rows(text, required):
    """The rows of every CSV table in ncu's output whose header holds `required`."""
    rows, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith('"') or required not in line:
            continue
        block = [line]
        for following in lines[i + 1:]:
            if not following.startswith('"'):
                break
            block.append(following)
        rows += list(csv.DictReader(io.StringIO("\n".join(block))))
    return rows


def number(text):
    try:
        return float((text or "").replace(",", ""))
    except ValueError:
        return None


def column(rows, candidates):
    headers = {h.lower(): h for h in (rows[0].keys() if rows else []) if h}
    return next((headers[c.lower()] for c in candidates if c.lower() in headers), None)


def ncu_top_pcs(page, candidates):
    """The PCs (offsets from the function's first) carrying most of the first column of `candidates`."""
    rows = csv_rows(page, "Address")
    address, metric = column(rows, ["Address"]), column(rows, candidates)
    if not rows or address is None or metric is None:
        return None, []
    values = [(int(r[address], 16), number(r[metric]) or 0.0) for r in rows if re.match(r"^(0x)?[0-9a-fA-F]+$", r[address] or "")]
    if not values:
        return metric, []
    base = min(pc for pc, _ in values)
    top = sorted(values, key=lambda v: -v[1])[:3]
    return metric, [(pc - base, value) for pc, value in top if value > 0]


def ncu_top_lines(page, candidates):
    """ncu's CUDA source view: the source lines (text) carrying most of the metric."""
    rows = csv_rows(page, "Source")
    metric = column(rows, candidates)
    if metric is None:
        return None, []
    line_column = column(rows, ["Line", "#", "Line Number"])
    scored = [(number(r[metric]) or 0.0, r.get(line_column, "") if line_column else "", (r.get("Source") or "").strip())
              for r in rows]
    return metric, [s for s in sorted(scored, key=lambda s: -s[0])[:3] if s[0] > 0]


def source_text(place, sources):
    """The text of 'file:line' among the files the chain names (the project's, the toolkit's)."""
    name, _, number_text = place.rpartition(":")
    for path in sources.get(name, []):
        lines = read(path).splitlines()
        if number_text.isdigit() and 0 < int(number_text) <= len(lines):
            return lines[int(number_text) - 1].strip()
    return None


def main():
    work = sys.argv[1]
    run = load(os.path.join(work, "planted_run.json")) or {"cases": []}
    nvdisasm = read(os.path.join(work, "nvdisasm_gi.txt"))
    out = ["# Blame through inlined code: planted regressions on the GPU (validation/blame_inline.sh)", ""]
    for case, kernel, marker, header, metrics, ncu_columns in PLANTS:
        expected = marker_line(marker)
        out += [f"## {case} ({marker}: `{kernel}`, code inlined from {header})", "",
                f"- the calling line: `{expected}`"]
        result = next((c for c in run["cases"] if c.get("case") == case), None)
        blamed = None
        if result is None:
            out.append("- `run`: the case is not in planted_run.json")
        else:
            failing = [c["metric"] for c in result.get("checks", []) if c.get("failing")]
            out.append(f"- `run`: {result['status']}, failing {', '.join(sorted(set(failing))) or 'nothing'}")
            blame = result.get("blame") or {}
            if blame.get("note"):
                out.append(f"  - note: {blame['note']}")
            for line in (blame.get("lines") or [])[:3]:
                out.append(f"  - `{describe(line)}`")
            lines = blame.get("lines") or []
            blamed = lines[0] if lines else None
            verdict = "yes" if blamed and blamed["place"] == expected else "NO"
            out.append(f"- blamed on the calling line: **{verdict}**")
        diff = load(os.path.join(work, f"diff_{case}.json")) or {}
        changes = [c for c in diff.get("changes", []) if c["metric"] in metrics or c.get("opcodes_after")]
        if changes:
            out.append(f"- `blame --from planted --against base`: `{describe(changes[0])}`")
        # The chain of each instruction, ours against nvdisasm -gi's.
        sass = load(os.path.join(work, f"sass_{kernel}.json")) or []
        ours = {i["pc_offset"]: frames_of(i) for s in sass[:1] for i in s["instructions"]}
        theirs = nvdisasm_chains(nvdisasm, kernel)
        if ours and theirs:
            compared = [pc for pc in ours if pc in theirs and theirs[pc]]
            differ = [pc for pc in compared if ours[pc] != theirs[pc]]
            out.append(f"- inline chains per instruction against `nvdisasm -gi`: {len(compared)} compared, "
                       f"**{len(differ)} differ**" + (f" (first at {differ[0]:04x}: ours {ours[differ[0]]}, nvdisasm "
                                                       f"{theirs[differ[0]]})" if differ else ""))
        else:
            out.append(f"- inline chains against `nvdisasm -gi`: not compared (ours {len(ours)} instructions, "
                       f"nvdisasm {len(theirs)})")
        # ncu's source page for the planted kernel: which instructions and lines carry the counters.
        sources = {}
        for root in (os.path.join(HERE), "/usr/local/cuda/include", "/usr/local/cuda/targets"):
            for directory, _, files in os.walk(root):
                for name in files:
                    sources.setdefault(name, []).append(os.path.join(directory, name))
        page = read(os.path.join(work, f"ncu_{case}_sass.csv"))
        ncu_metric, pcs = ncu_top_pcs(page, ncu_columns)
        if pcs:
            for pc, value in pcs[:2]:
                chain = ours.get(pc, [])
                out.append(f"- ncu SASS page `{ncu_metric}` {value:g} at PC {pc:04x}: our chain "
                           f"`{' -> '.join(chain)}`, nvdisasm `{' -> '.join(theirs.get(pc, []))}`")
        else:
            out.append(f"- ncu SASS page: no `{ncu_columns}` column with values (see ncu_{case}_sass.csv)")
        cuda_page = read(os.path.join(work, f"ncu_{case}_cuda.csv"))
        ncu_metric, top = ncu_top_lines(cuda_page, ncu_columns)
        chain = (blamed or {}).get("chain") or []
        frame_texts = {place: source_text(place, sources) for place in chain}
        for value, line_number, text in top[:2]:
            matching = [p for p, t in frame_texts.items() if t and t == text]
            out.append(f"- ncu CUDA page `{ncu_metric}` {value:g} on line {line_number} `{text[:90]}`: "
                       + (f"frame `{matching[0]}` of the blamed chain" if matching else "not a frame of the blamed chain"))
        if not top:
            out.append(f"- ncu CUDA page: no `{ncu_columns}` column with values (see ncu_{case}_cuda.csv)")
        out.append("")
    text = "\n".join(out) + "\n"
    with open(os.path.join(work, "summary.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
