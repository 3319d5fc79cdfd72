#!/usr/bin/env python3
"""The figures the docs quote from hwsim runs, computed from the build and checked (or written).

  scripts/doc_figures.py HWSIM            check: every quoted figure is what the build gives (exit 1 if not)
  scripts/doc_figures.py HWSIM --write    rewrite the quoted figures from the build

Each figure is a line of a doc with {} where numbers stand, the hwsim run that gives them and how
each number is read from its --json document. A figure changes with the model, never by hand:
ctest's docs/figures runs the check, so the docs cannot drift from the build.
"""
import concurrent.futures
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


# (file, the line with {} for each number, hwsim arguments (or a list of runs: the readers then get
# a list of documents), [(reader, format)])
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


def serving(d):
    return d["result"]["serving"]


def ms(s):
    return s * 1e3


# The curriculum's serving lessons (README "Serving", docs/serving.md): the runs behind each.
SERVE = "--chip h100 -w serve:model=llama3_8b,"
CONCURRENCY = [SERVE + f"requests=256,rate=inf,prompt=128,output=128,max_batch={b}" for b in (1, 4, 16, 64, 256)]
BATCHING = [SERVE + f"requests=200,rate=inf,output=uniform:16..512,seed=1,max_batch=64,batching={b}"
            for b in ("static", "continuous")]
SPECULATION = [SERVE + f"requests=4,rate=inf,prompt=128,output=128,draft=llama3_2_1b,k=4,accept={a}" for a in (0.8, 0.2)]
KV = [SERVE + f"requests=64,rate=inf,prompt=2048,output=512,gpu_memory_utilization={u}" for u in (0.3, 0.5, 0.9)]
DISAGGREGATION = ["--system h100x2 -w serve:model=llama3_8b,requests=100,rate=8,prompt=2048,output=256,seed=1," + x
                  for x in ("disaggregate=none,dp=2", "disaggregate=1P1D,dp=1")]

PREFIX = [SERVE + f"requests=200,rate=inf,prompt=1200,output=128,shared_prefix=1024,seed=1,prefix_caching={c}"
          for c in ("true", "false")]
PRIORITY = [SERVE + f"requests=300,rate=inf,prompt=512,output=128,priority=uniform:0..2,seed=1,scheduling={s}"
            for s in ("fcfs", "priority")]


def tok(d):
    return serving(d)["output_tokens_per_s"]


def class_ttft(d, priority):
    """Mean TTFT (s) of the requests of one priority."""
    return next(c for c in serving(d)["priority_classes"] if c["priority"] == priority)["ttft_s"]["mean"]


def prefix_figures(ds):
    return [(lambda ds: 100 * serving(ds[0])["prefix_cache"]["hit_rate"], "{:.1f}"), (lambda ds: tok(ds[0]), "{:,.0f}"),
            (lambda ds: tok(ds[1]), "{:,.0f}"), (lambda ds: serving(ds[0])["ttft_s"]["mean"], "{:.2f}"),
            (lambda ds: serving(ds[1])["ttft_s"]["mean"], "{:.2f}")]


def priority_figures():
    return [(lambda ds: class_ttft(ds[0], 0), "{:.2f}"), (lambda ds: class_ttft(ds[1], 0), "{:.2f}"),
            (lambda ds: class_ttft(ds[0], 2), "{:.2f}"), (lambda ds: class_ttft(ds[1], 2), "{:.2f}")]


def spec(d):
    return serving(d)["speculative"]


FIGURES += [
    ("README.md",
     "# throughput vs concurrency at flat latency: {} → {} output tokens/s from max_batch 1 to 256, TPOT {} → {} ms",
     CONCURRENCY,
     [(lambda ds: tok(ds[0]), "{:,.0f}"), (lambda ds: tok(ds[4]), "{:,.0f}"),
      (lambda ds: ms(serving(ds[0])["tpot_s"]["mean"]), "{:.1f}"), (lambda ds: ms(serving(ds[4])["tpot_s"]["mean"]), "{:.1f}")]),
    ("README.md",
     "# continuous vs static batching: {} vs {} output tokens/s ({}x), mean TTFT {} vs {} s",
     BATCHING,
     [(lambda ds: tok(ds[1]), "{:,.0f}"), (lambda ds: tok(ds[0]), "{:,.0f}"), (lambda ds: tok(ds[1]) / tok(ds[0]), "{:.2f}"),
      (lambda ds: serving(ds[1])["ttft_s"]["mean"], "{:.1f}"), (lambda ds: serving(ds[0])["ttft_s"]["mean"], "{:.1f}")]),
    ("README.md",
     "# speculative decoding: a good draft (accept=0.8) {}x the tokens/s of no speculation, a bad one (accept=0.2) {}x: slower",
     SPECULATION,
     [(lambda ds: spec(ds[0])["baseline"]["speedup"], "{:.2f}"), (lambda ds: spec(ds[1])["baseline"]["speedup"], "{:.2f}")]),
    ("README.md",
     "# KV capacity: a pool of {} tokens at 0.3 runs ~{} of 64 requests at once ({} tokens/s), 0.5 fits all ({})",
     KV,
     [(lambda ds: serving(ds[0])["kv_capacity_tokens"], "{:,}"), (lambda ds: serving(ds[0])["mean_batch"], "{:.0f}"),
      (lambda ds: tok(ds[0]), "{:,.0f}"), (lambda ds: tok(ds[1]), "{:,.0f}")]),
    ("README.md",
     "# prefix caching: a shared 1,024-token system prompt, hit rate {} %: {} vs {} tokens/s, mean TTFT {} vs {} s",
     PREFIX, prefix_figures(None)),
    ("README.md",
     "# priorities: the same work either way; priority 0's mean TTFT {} -> {} s, priority 2's {} -> {} s",
     PRIORITY, priority_figures()),
    ("README.md",
     "# disaggregation on two H100s: two replicas vs 1P1D, {} vs {} tokens/s, TPOT {} vs {} ms",
     DISAGGREGATION,
     [(lambda ds: tok(ds[0]), "{:,.0f}"), (lambda ds: tok(ds[1]), "{:,.0f}"),
      (lambda ds: ms(serving(ds[0])["tpot_s"]["mean"]), "{:.1f}"), (lambda ds: ms(serving(ds[1])["tpot_s"]["mean"]), "{:.1f}")]),
]

# docs/serving.md's table of the curriculum's lessons: the same runs.
LESSON = "| {} | `{}` | {} |"
FIGURES += [
    ("docs/serving.md",
     LESSON.format("throughput vs concurrency at flat latency",
                   "hwsim sweep --chip h100 -w serve:model=llama3_8b,requests=256,rate=inf,prompt=128,output=128 "
                   "--vary workload.max_batch=1..256*4",
                   "max_batch 1, 4, 16, 64, 256: {}, {}, {}, {} and {} output tokens/s while TPOT goes {}, {}, {}, {}, "
                   "{} ms: {}× the throughput for {}× the time per token (decode is memory-bound until the batch is "
                   "large)"),
     CONCURRENCY,
     [(lambda ds, i=i: tok(ds[i]), "{:,.0f}") for i in range(5)] +
     [(lambda ds, i=i: ms(serving(ds[i])["tpot_s"]["mean"]), "{:.1f}") for i in range(5)] +
     [(lambda ds: tok(ds[4]) / tok(ds[0]), "{:.0f}"),
      (lambda ds: serving(ds[4])["tpot_s"]["mean"] / serving(ds[0])["tpot_s"]["mean"], "{:.1f}")]),
    ("docs/serving.md",
     LESSON.format("continuous vs static batching",
                   "hwsim sweep --chip h100 -w serve:model=llama3_8b,requests=200,rate=inf,output=uniform:16..512,"
                   "seed=1,max_batch=64 --vary workload.batching=static,continuous",
                   "static {} vs continuous {} output tokens/s ({}×), mean TTFT {} vs {} s: a static batch holds its "
                   "slots until its longest request ends"),
     BATCHING,
     [(lambda ds: tok(ds[0]), "{:,.0f}"), (lambda ds: tok(ds[1]), "{:,.0f}"), (lambda ds: tok(ds[1]) / tok(ds[0]), "{:.2f}"),
      (lambda ds: serving(ds[0])["ttft_s"]["mean"], "{:.1f}"), (lambda ds: serving(ds[1])["ttft_s"]["mean"], "{:.1f}")]),
    ("docs/serving.md",
     LESSON.format("speculative decoding, good draft",
                   "hwsim --chip h100 -w serve:model=llama3_8b,requests=4,rate=inf,prompt=128,output=128,"
                   "draft=llama3_2_1b,k=4,accept=0.8",
                   "accept=0.8: {} tokens per sequence per verification (theory (1−a^(k+1))/(1−a) = {}), {}× the "
                   "output tokens/s of the same requests without speculation ({} vs {}), TPOT {} vs {} ms"),
     SPECULATION,
     [(lambda ds: spec(ds[0])["tokens_per_step"], "{:.2f}"), (lambda ds: spec(ds[0])["expected_tokens_per_step"], "{:.2f}"),
      (lambda ds: spec(ds[0])["baseline"]["speedup"], "{:.2f}"), (lambda ds: tok(ds[0]), "{:,.0f}"),
      (lambda ds: spec(ds[0])["baseline"]["output_tokens_per_s"], "{:,.0f}"),
      (lambda ds: ms(serving(ds[0])["tpot_s"]["mean"]), "{:.1f}"),
      (lambda ds: ms(spec(ds[0])["baseline"]["tpot_s"]["mean"]), "{:.1f}")]),
    ("docs/serving.md",
     LESSON.format("speculative decoding, bad draft",
                   "hwsim --chip h100 -w serve:model=llama3_8b,requests=4,rate=inf,prompt=128,output=128,"
                   "draft=llama3_2_1b,k=4,accept=0.2",
                   "accept=0.2: {} tokens per verification, {}× the tokens/s ({} vs {}): the draft takes {} % of the "
                   "engine time for little"),
     SPECULATION,
     [(lambda ds: spec(ds[1])["tokens_per_step"], "{:.2f}"), (lambda ds: spec(ds[1])["baseline"]["speedup"], "{:.2f}"),
      (lambda ds: tok(ds[1]), "{:,.0f}"), (lambda ds: spec(ds[1])["baseline"]["output_tokens_per_s"], "{:,.0f}"),
      (lambda ds: 100 * spec(ds[1])["draft_share"], "{:.0f}")]),
    ("docs/serving.md",
     LESSON.format("KV capacity",
                   "hwsim sweep --chip h100 -w serve:model=llama3_8b,requests=64,rate=inf,prompt=2048,output=512 "
                   "--vary workload.gpu_memory_utilization=0.3,0.5,0.9",
                   "KV pool {} / {} / {} tokens; 64 requests need 163,840: at 0.3 about {} run at once ({} output "
                   "tokens/s, mean TTFT {} s), at 0.5 all fit ({} tokens/s, TTFT {} s), 0.9 adds nothing"),
     KV,
     [(lambda ds, i=i: serving(ds[i])["kv_capacity_tokens"], "{:,}") for i in range(3)] +
     [(lambda ds: serving(ds[0])["mean_batch"], "{:.0f}"), (lambda ds: tok(ds[0]), "{:,.0f}"),
      (lambda ds: serving(ds[0])["ttft_s"]["mean"], "{:.1f}"), (lambda ds: tok(ds[1]), "{:,.0f}"),
      (lambda ds: serving(ds[1])["ttft_s"]["mean"], "{:.1f}")]),
    ("docs/serving.md",
     LESSON.format("prefix caching",
                   "hwsim sweep --chip h100 -w serve:model=llama3_8b,requests=200,rate=inf,prompt=1200,output=128,"
                   "shared_prefix=1024,seed=1 --vary workload.prefix_caching=true,false",
                   "hit rate {} % (199 × 1,024 of 200 × 1,200 prompt tokens): {} vs {} output tokens/s, mean TTFT {} vs "
                   "{} s: a cached system prompt is prefill not done"),
     PREFIX, prefix_figures(None)),
    ("docs/serving.md",
     LESSON.format("priorities",
                   "hwsim sweep --chip h100 -w serve:model=llama3_8b,requests=300,rate=inf,prompt=512,output=128,"
                   "priority=uniform:0..2,seed=1 --vary workload.scheduling=fcfs,priority",
                   "the same steps and tokens/s ({}) either way; priority 0's mean TTFT {} → {} s, priority 2's {} → "
                   "{} s: priority decides who waits, not how much work there is"),
     PRIORITY, [(lambda ds: tok(ds[1]), "{:,.0f}")] + priority_figures()),
    ("docs/serving.md",
     LESSON.format("disaggregation",
                   "hwsim sweep --system h100x2 -w serve:model=llama3_8b,requests=100,rate=8,prompt=2048,output=256,"
                   "seed=1 --vary workload.disaggregate=none,1P1D --vary workload.dp=2,1 --zip",
                   "two replicas vs one prefill and one decode device at 8 requests/s: {} vs {} output tokens/s, mean "
                   "TTFT {} vs {} ms, TPOT {} vs {} ms: decodes no longer wait behind prompts, at the price of moving "
                   "each request's KV cache over NVLink"),
     DISAGGREGATION,
     [(lambda ds: tok(ds[0]), "{:,.0f}"), (lambda ds: tok(ds[1]), "{:,.0f}"),
      (lambda ds: ms(serving(ds[0])["ttft_s"]["mean"]), "{:.0f}"), (lambda ds: ms(serving(ds[1])["ttft_s"]["mean"]), "{:.0f}"),
      (lambda ds: ms(serving(ds[0])["tpot_s"]["mean"]), "{:.1f}"), (lambda ds: ms(serving(ds[1])["tpot_s"]["mean"]), "{:.1f}")]),
]

NUMBER = r"[-0-9.,]+"


def run(hwsim, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        subprocess.run([hwsim] + args.split() + ["--quiet", "--json", out, "--detail", "summary"], check=True)
        with open(out) as f:
            return json.load(f)


def run_all(hwsim):
    """Every run the figures need, once each, two at a time."""
    runs = sorted({a for _, _, args, _ in FIGURES for a in (args if isinstance(args, list) else [args])})
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(runs, pool.map(lambda a: run(hwsim, a), runs)))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    hwsim, write = sys.argv[1], "--write" in sys.argv[2:]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.chdir(root)
    stale = 0
    docs = run_all(os.path.abspath(hwsim) if os.path.exists(hwsim) else hwsim)
    for path, pattern, args, readers in FIGURES:
        doc = [docs[a] for a in args] if isinstance(args, list) else docs[args]
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
