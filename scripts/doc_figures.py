#!/usr/bin/env python3
"""The figures the docs quote from hwsim runs, computed from the build and checked (or written).

  scripts/doc_figures.py HWSIM            check: every quoted figure is what the build gives (exit 1 if not)
  scripts/doc_figures.py HWSIM --write    rewrite the quoted figures from the build

Each figure is a line of a doc with {} where numbers stand, the hwsim run that gives them and how
each number is read from its --json document. A figure changes with the model, never by hand:
ctest's docs/figures runs the check, so the docs cannot drift from the build.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def at(doc, path):
    for key in path.split("."):
        doc = doc[key]
    return doc


def detail(doc, key):
    return doc["result"]["details"][key]


# (file, the line with {} for each number, hwsim arguments, [(reader, format)])
FIGURES = [
    ("README.md",
     "build/hwsim --chip h100 -w prefill_llama8b                          # {} ms, {} J: the governor holds {} GHz at 700 W",
     "--chip h100 -w prefill_llama8b",
     [(lambda d: at(d, "result.seconds") * 1e3, "{:.1f}"), (lambda d: at(d, "result.energy"), "{:.1f}"),
      (lambda d: at(d, "result.power.average_clock") / 1e9, "{:.2f}")]),
    ("README.md",
     "build/hwsim --chip h100 -w prefill_llama8b --set power.tdp=400W     # the power-capping what-if: {} ms, {} J at {} GHz",
     "--chip h100 -w prefill_llama8b --set power.tdp=400W",
     [(lambda d: at(d, "result.seconds") * 1e3, "{:.1f}"), (lambda d: at(d, "result.energy"), "{:.1f}"),
      (lambda d: at(d, "result.power.average_clock") / 1e9, "{:.2f}")]),
    ("README.md",
     "build/hwsim --chip h100 -w gemm:M=8192,N=8192,K=8192,repeat=3       # a benchmark loop: {} ms a call at {} GHz",
     "--chip h100 -w gemm:M=8192,N=8192,K=8192,repeat=3",
     [(lambda d: at(d, "result.seconds") / 3 * 1e3, "{:.2f}"),
      (lambda d: at(d, "result.power.average_clock") / 1e9, "{:.2f}")]),
    ("README.md",
     "build/hwsim --chip tpu_v5p -w decode_llama8b                      # {} ms a token, memory-bound",
     "--chip tpu_v5p -w decode_llama8b",
     [(lambda d: at(d, "result.seconds") * 1e3, "{:.1f}")]),
    ("README.md",
     "build/hwsim --chip tpu_v5e -w gemm:M=8192,N=8192,K=8192           # MXU utilisation {}",
     "--chip tpu_v5e -w gemm:M=8192,N=8192,K=8192",
     [(lambda d: detail(d, "mxu_utilisation"), "{:.2f}")]),
    ("README.md",
     "build/hwsim --chip cortex_m55_u55 -w kws_dscnn                  # {} ms, {} uJ, all on the NPU",
     "--chip cortex_m55_u55 -w kws_dscnn",
     [(lambda d: at(d, "result.seconds") * 1e3, "{:.2f}"), (lambda d: at(d, "result.energy") * 1e6, "{:.1f}")]),
]

NUMBER = r"[-0-9.,]+"


def run(hwsim, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        subprocess.run([hwsim] + args.split() + ["--quiet", "--json", out], check=True)
        with open(out) as f:
            return json.load(f)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    hwsim, write = sys.argv[1], "--write" in sys.argv[2:]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.chdir(root)
    stale = 0
    for path, pattern, args, readers in FIGURES:
        doc = run(os.path.abspath(hwsim) if os.path.exists(hwsim) else hwsim, args)
        expected = pattern.format(*(fmt.format(read(doc)) for read, fmt in readers))
        regex = re.compile("^" + NUMBER.join(re.escape(part) for part in pattern.split("{}")) + "$")
        with open(path) as f:
            lines = f.read().split("\n")
        found = [i for i, line in enumerate(lines) if regex.match(line)]
        if len(found) != 1:
            print(f"{path}: {len(found)} lines match the figure of `hwsim {args}` (want 1): {pattern}")
            stale += 1
            continue
        if lines[found[0]] == expected:
            continue
        print(f"{path}:{found[0] + 1}: the build gives\n  {expected}\nthe doc says\n  {lines[found[0]]}")
        stale += 1
        if write:
            lines[found[0]] = expected
            with open(path, "w") as f:
                f.write("\n".join(lines))
    if stale and not write:
        print(f"{stale} figure(s) differ from the build: scripts/doc_figures.py {hwsim} --write")
        return 1
    print(f"{len(FIGURES)} quoted figures {'written' if write else 'match the build'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
