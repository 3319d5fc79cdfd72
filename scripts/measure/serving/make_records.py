"""Turns a measure_serve_loop.py run into the committed records and compares hwsim with them.

Usage (here, after the device run):
  python3 scripts/measure/serving/make_records.py RAW_DIR [--hwsim build-b/hwsim] [--write]
RAW_DIR holds the run's h200_serving{.jsonl,_steps.jsonl,_requests.jsonl,.log,_smi.csv}.
--write puts into data/measurements/:
  h200_serving.jsonl          the run's metadata, one serve_loop_trace record per run, the fit of
                              the host overhead (serve_overhead_fit) and the serve_trace records
                              `hwsim validate` judges (each says whether its run was held out)
  h200_serving_steps.csv      one row per engine step: composition (decodes and their mean and
                              largest context, prefill chunks as start+tokens), the graph's
                              padded shape, host phases, wall, GPU (CUDA events) and host time
  h200_serving_requests.jsonl each request's arrival, lengths, first-token and finish times
  h200_serving.log, h200_serving_smi.csv
Without --write it only prints the comparison tables (markdown) that docs/calibration.md quotes.

The fit (serving.step_overhead + serving.step_overhead_per_sequence × sequences) uses the host
time (wall − GPU events) of the steps of the FIT runs below, each replaying a graph captured
before the measured pass; the concurrency runs (benchmark_serving's shape) are held out.
"""
import csv, json, os, shutil, statistics as st, subprocess, sys, tempfile

FIT_RUNS = ("poisson_r2", "poisson_r8", "burst64", "burst128", "long_r3")
HELD_OUT = ("conc1", "conc2", "conc4", "conc8")
ZERO = ["--set", "serving.step_overhead=0 s", "--set", "serving.step_overhead_per_sequence=0 s"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def lsq(X, y):
    n = len(X[0])
    A = [[sum(x[i] * x[j] for x in X) for j in range(n)] for i in range(n)]
    B = [sum(x[i] * v for x, v in zip(X, y)) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            f = A[j][i] / A[i][i]
            A[j] = [a - f * b for a, b in zip(A[j], A[i])]
            B[j] -= f * B[i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (B[i] - sum(A[i][k] * x[k] for k in range(i + 1, n))) / A[i][i]
    return x


def hwsim(exe, spec, extra=()):
    out = subprocess.run([exe, "-q", "--chip", "h200", "-w", spec, "--json", "-", "--summary", *extra],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["result"]


def pct(pred, meas):
    return 100.0 * (pred - meas) / meas


def main():
    raw = sys.argv[1]
    exe = sys.argv[sys.argv.index("--hwsim") + 1] if "--hwsim" in sys.argv else os.path.join(ROOT, "build-b", "hwsim")
    write = "--write" in sys.argv
    meta_and_traces = load(os.path.join(raw, "h200_serving.jsonl"))
    meta = meta_and_traces[0]
    traces = {r["run"]: r for r in meta_and_traces[1:] if r["kind"] == "serve_loop_trace"}
    steps = load(os.path.join(raw, "h200_serving_steps.jsonl"))
    reqs = load(os.path.join(raw, "h200_serving_requests.jsonl"))

    # -- the fit: host time per step against the sequences it scheduled
    fit = [s for s in steps if s["run"] in FIT_RUNS and s["graph"] and not s["captured"]]
    seqs = [s["decodes"] + len(s["chunks"]) for s in fit]
    a, b = lsq([[1.0, q] for q in seqs], [s["host_s"] for s in fit])
    held = [s for s in steps if s["run"].split("_r")[0] in HELD_OUT and s["graph"] and not s["captured"]]
    fit_rec = dict(kind="serve_overhead_fit", device=meta["device"], runs=list(FIT_RUNS), steps=len(fit),
                   step_overhead_s=round(a, 7), step_overhead_per_sequence_s=round(b, 9),
                   fit_mean_host_s=round(st.mean(s["host_s"] for s in fit), 7),
                   fit_median_host_s=round(st.median(s["host_s"] for s in fit), 7),
                   heldout_mean_host_s=round(st.mean(s["host_s"] for s in held), 7),
                   heldout_median_host_s=round(st.median(s["host_s"] for s in held), 7),
                   model="host_s = step_overhead + step_overhead_per_sequence * (decodes + prefill chunks), least "
                         "squares over the fit runs' steps (graph replays, none captured in the measured pass)")
    print(f"fit over {len(fit)} steps of {FIT_RUNS}: {a*1e6:.1f} us + {b*1e6:.2f} us/sequence; held-out steps' "
          f"host time mean {fit_rec['heldout_mean_host_s']*1e3:.3f} ms, median {fit_rec['heldout_median_host_s']*1e3:.3f}")

    # -- validate records: benchmark_serving's shape, one wave of C requests (held out), and the bursts (fit runs)
    vrecs = []
    groups = {}
    for name, t in traces.items():
        if not t["cuda_graphs"] or t["family"] not in ("concurrency", "burst"):
            continue
        groups.setdefault(name.split("_r")[0] if t["family"] == "concurrency" else name, []).append(t)
    for g, ts in groups.items():
        t0 = ts[0]
        for metric, key in (("tpot", "mean_tpot_s"), ("ttft", "mean_ttft_s")):
            vrecs.append(dict(kind="serve_trace", device=meta["device"], model=t0["model"], layers=t0["layers"],
                              requests=t0["requests"], prompt=t0["prompt"], output=t0["output"], rate="inf",
                              metric=metric, seconds=round(st.mean(t[key] for t in ts), 7),
                              spread_s=[round(min(t[key] for t in ts), 7), round(max(t[key] for t in ts), 7)],
                              runs=[t["run"] for t in ts], held_out=g in HELD_OUT,
                              source="scripts/measure/serving/measure_serve_loop.py (this file's serve_run_meta)"))

    # -- comparison tables
    print("\n| run | metric | measured | hwsim before (no overhead) | error | hwsim after | error |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for v in vrecs:
        spec = f"serve:model={v['model']},requests={v['requests']},rate=inf,prompt={v['prompt']},output={v['output']}"
        key = "tpot_s" if v["metric"] == "tpot" else "ttft_s"
        before = hwsim(exe, spec, ZERO)["serving"][key]["mean"]
        after = hwsim(exe, spec)["serving"][key]["mean"]
        rows.append((v, before, after))
        print(f"| {'+'.join(v['runs']) if len(v['runs']) == 1 else v['runs'][0].split('_r')[0] + ' ×' + str(len(v['runs']))}"
              f"{'' if v['held_out'] else ' (fit run)'} | {v['metric']} | {v['seconds']*1e3:.2f} ms | {before*1e3:.2f} | "
              f"{pct(before, v['seconds']):+.1f} % | {after*1e3:.2f} | {pct(after, v['seconds']):+.1f} % |")
    # Poisson and long-prompt runs: the same requests through hwsim (trace files of their arrivals)
    print("\n| run (fit) | measured TTFT / TPOT / tok/s | hwsim before | hwsim after |")
    print("|---|---|---|---|")
    tmp = tempfile.mkdtemp()
    for name in ("poisson_r2", "poisson_r8", "long_r3"):
        if name not in traces:
            continue
        path = os.path.join(tmp, name + ".csv")
        with open(path, "w") as f:
            w = csv.writer(f)
            w.writerow(["arrival_s", "prompt_tokens", "output_tokens"])
            for r in sorted((r for r in reqs if r["run"] == name), key=lambda r: r["arrival_s"]):
                w.writerow([r["arrival_s"], r["prompt_tokens"], r["output_tokens"]])
        t = traces[name]
        res = []
        for extra in (ZERO, []):
            s = hwsim(exe, f"serve:model=llama3_8b,trace={path}", extra)["serving"]
            res.append((s["ttft_s"]["mean"], s["tpot_s"]["mean"], s["output_tokens_per_s"]))
        m = (t["mean_ttft_s"], t["mean_tpot_s"], t["output_tokens_per_s"])
        fmt = lambda p: " / ".join(f"{x*1e3:.2f} ms ({pct(x, y):+.1f} %)" if i < 2 else f"{x:.0f} ({pct(x, y):+.1f} %)"
                                   for i, (x, y) in enumerate(zip(p, m)))
        print(f"| {name} | {m[0]*1e3:.2f} ms / {m[1]*1e3:.2f} ms / {m[2]:.0f} | {fmt(res[0])} | {fmt(res[1])} |")
    shutil.rmtree(tmp)
    # steps: pure-decode steps by batch, against the decode workload (GPU) plus the fitted overhead
    print("\n| decode steps, batch | n | mean context | measured wall / GPU / host (ms) | hwsim GPU (error vs GPU) "
          "| hwsim GPU + overhead (error vs wall) |")
    print("|---|---|---|---|---|---|")
    by = {}
    for s in steps:
        if s["graph"] and not s["captured"] and not s["chunks"] and s["run"] != "conc1_eager":
            by.setdefault(s["decodes"], []).append(s)
    for B in sorted(by):
        v = by[B]
        if len(v) < 20:
            continue
        ctx = st.mean(s["decode_ctx_mean"] if "decode_ctx_mean" in s else st.mean(s["decode_ctx"]) for s in v)
        wall, gpu, host = (st.median(s[k] for s in v) for k in ("wall", "gpu_s", "host_s"))
        pred = hwsim(exe, f"decode:model=llama3_8b,batch={B},context={max(1, round(ctx) - 1)}")["seconds"]
        over = a + b * B
        print(f"| {B} | {len(v)} | {ctx:.0f} | {wall*1e3:.3f} / {gpu*1e3:.3f} / {host*1e3:.3f} | {pred*1e3:.3f} "
              f"({pct(pred, gpu):+.1f} %) | {(pred + over)*1e3:.3f} ({pct(pred + over, wall):+.1f} %) |")

    if not write:
        return
    dst = os.path.join(ROOT, "data", "measurements")
    with open(os.path.join(dst, "h200_serving.jsonl"), "w") as f:
        for r in [meta] + list(traces.values()) + [fit_rec] + vrecs:
            f.write(json.dumps(r) + "\n")
    cols = ["run", "step", "t_s", "decodes", "decode_ctx_mean", "decode_ctx_max", "chunks", "tokens", "graph_tokens",
            "graph_seqs", "captured", "sched_us", "prep_us", "launch_us", "sync_us", "post_us", "wall_us", "gpu_fwd_us",
            "gpu_us", "host_us"]
    with open(os.path.join(dst, "h200_serving_steps.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        us = lambda x: f"{x*1e6:.1f}"
        for s in steps:
            c = s["decode_ctx"]
            g = s["graph"] or [0, 0]
            w.writerow([s["run"], s["step"], f"{s['t']:.6f}", s["decodes"], f"{st.mean(c):.1f}" if c else 0,
                        max(c) if c else 0, ";".join(f"{a}+{n}" for a, n in s["chunks"]), s["tokens"], g[0], g[1],
                        s["captured"], us(s["sched"]), us(s["prep"]), us(s["launch"]), us(s["sync"]), us(s["post"]),
                        us(s["wall"]), us(s["gpu_fwd_s"]), us(s["gpu_s"]), us(s["host_s"])])
    shutil.copy(os.path.join(raw, "h200_serving_requests.jsonl"), dst)
    shutil.copy(os.path.join(raw, "h200_serving.log"), dst)
    shutil.copy(os.path.join(raw, "h200_serving_smi.csv"), dst)
    print("written to", dst)


if __name__ == "__main__":
    main()
