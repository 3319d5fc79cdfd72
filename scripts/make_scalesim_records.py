#!/usr/bin/env python3
"""Runs SCALE-Sim v3 (scalesim-project/scale-sim-v3) on a fixed set of GEMMs and writes one
hwsim measurement record per case to data/public/scalesim_v3.jsonl.

Each record is a `gemm` (M, N, K, fp8: SCALE-Sim's 1-byte words in and out) on chip `tpu_scalesim` with the
`set` overrides that map the case's SCALE-Sim configuration 1:1 (array, dataflow, per-operand
SRAM sizes and DRAM bandwidths); `seconds` is SCALE-Sim's "Total Cycles" (compute + stalls, the
initial prefetch excluded) at the config's 1 GHz. hwsim counts one cycle more than SCALE-Sim:
SCALE-Sim reports the index of the last cycle, counted from 0
(scalesim/memory/double_buffered_scratchpad_mem.py: total_cycles = max(ofmap_serviced_cycles)).

Usage: scripts/make_scalesim_records.py SCALESIM_DIR [OUT]   (SCALESIM_DIR holds scalesim/;
needs numpy, pandas, tqdm: Debian's python3-numpy, python3-pandas, python3-tqdm).
"""
import csv, json, os, subprocess, sys, tempfile

COMMIT = "fab89b7"  # scale-sim-v3 HEAD as fetched (merge of PR #2)

# (name, rows, cols, dataflow, M, N, K, mode, ifmap_kb, filter_kb, ofmap_kb, ifmap_bw, filter_bw, ofmap_bw)
# mode CALC: SCALE-Sim estimates the bandwidth it needs (no stalls): the compute cycles alone.
# mode USER: per-operand DRAM bandwidths in words/cycle (ifmap and filter from the [layout]
# section's SRAMBankBandwidth, ofmap from Bandwidth, as scale-sim-v3 reads them).
SHAPES = [(256, 384, 640), (100, 200, 300), (64, 1024, 128), (512, 64, 256), (33, 77, 129)]
CASES = []
for df in ("ws", "is", "os"):
    for (m, n, k) in SHAPES:
        CASES.append((f"calc_{df}_{m}x{n}x{k}", 32, 32, df, m, n, k, "CALC", 4096, 4096, 4096, 10, 10, 10))
for df in ("ws", "is", "os"):  # 10 words/cycle over SCALE-Sim's 10 banks of 1 word (google.cfg's layout)
    CASES.append((f"user_{df}_256x384x640", 32, 32, df, 256, 384, 640, "USER", 64, 64, 64, 10, 10, 10))

USER_NOTE = ("not gated: SCALE-Sim keeps its fixed fold order and refetches each operand's window through "
             "its double-buffered scratchpad (stalls); hwsim blocks the GEMM for reuse (docs/systolic.md)")

CFG = """[general]
run_name = {name}

[architecture_presets]
ArrayHeight:    {rows}
ArrayWidth:     {cols}
IfmapSramSzkB:    {ifmap_kb}
FilterSramSzkB:   {filter_kb}
OfmapSramSzkB:    {ofmap_kb}
IfmapOffset:    0
FilterOffset:   10000000
OfmapOffset:    20000000
Dataflow : {df}
Bandwidth : {ofmap_bw}
ReadRequestBuffer: 512
WriteRequestBuffer: 512

[layout]
IfmapCustomLayout: False
IfmapSRAMBankBandwidth: {ifmap_bw}
IfmapSRAMBankNum: 10
IfmapSRAMBankPort: 2
FilterCustomLayout: False
FilterSRAMBankBandwidth: {filter_bw}
FilterSRAMBankNum: 10
FilterSRAMBankPort: 2

[sparsity]
SparsitySupport : false
SparseRep : ellpack_block
OptimizedMapping : false
BlockSize : 8
RandomNumberGeneratorSeed : 40

[run_presets]
InterfaceBandwidth: {mode}
UseRamulatorTrace: False
"""


def overrides(rows, cols, df, mode, ifmap_kb, filter_kb, ofmap_kb, ifmap_bw, filter_bw, ofmap_bw):
    """The hwsim --set list that maps one SCALE-Sim configuration onto configs/tpu_scalesim.toml."""
    s = [f"systolic.mxu.rows={rows}", f"systolic.mxu.cols={cols}", f"systolic.mxu.dataflow={df}",
         f"memory.vmem.ifmap_size={ifmap_kb} KiB", f"memory.vmem.filter_size={filter_kb} KiB",
         f"memory.vmem.ofmap_size={ofmap_kb} KiB"]
    if mode == "USER":  # words/cycle x 1 B x 1 GHz
        s += [f"memory.hbm.ifmap_bandwidth={ifmap_bw} GB/s", f"memory.hbm.filter_bandwidth={filter_bw} GB/s",
              f"memory.hbm.ofmap_bandwidth={ofmap_bw} GB/s"]
    return s


def run_case(root, case, work):
    name, rows, cols, df, m, n, k, mode, ikb, fkb, okb, ibw, fbw, obw = case
    cfg = os.path.join(work, name + ".cfg")
    topo = os.path.join(work, name + ".csv")
    with open(cfg, "w") as f:
        f.write(CFG.format(name=name, rows=rows, cols=cols, df=df, mode=mode, ifmap_kb=ikb, filter_kb=fkb,
                           ofmap_kb=okb, ifmap_bw=ibw, filter_bw=fbw, ofmap_bw=obw))
    with open(topo, "w") as f:
        f.write(f"Layer,M,N,K,\n{name},{m},{n},{k},\n")
    out = os.path.join(work, "out")
    subprocess.run([sys.executable, "-m", "scalesim.scale", "-c", cfg, "-t", topo, "-i", "gemm", "-p", out,
                    "-s", "N"], cwd=root, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, name, "COMPUTE_REPORT.csv")) as f:
        rows_ = list(csv.reader(f))
    vals = [x.strip() for x in rows_[1]]
    total, stalls, mapping = int(vals[2]), int(vals[3]), float(vals[5])
    return {
        "kind": "gemm", "chip": "tpu_scalesim", "role": "judge",
        "set": overrides(rows, cols, df, mode, ikb, fkb, okb, ibw, fbw, obw),
        "M": m, "N": n, "K": k, "dtype": "fp8", "seconds": total * 1e-9,
        "cycles": total, "stall_cycles": stalls, "mapping_efficiency_pct": mapping, "case": name,
        **({"note": USER_NOTE} if mode == "USER" else {}),
        "source": f"SCALE-Sim v3 run here: scalesim-project/scale-sim-v3 commit {COMMIT}, "
                  f"python3 -m scalesim.scale -i gemm, COMPUTE_REPORT.csv 'Total Cycles' (excl. prefetch)",
        "software": f"SCALE-Sim v3 ({COMMIT}), InterfaceBandwidth {mode}, {rows}x{cols} {df}, SRAM "
                    f"{ikb}/{fkb}/{okb} KiB, DRAM {ibw}/{fbw}/{obw} words/cycle, 1-byte words; "
                    f"Debian python3-numpy 1.24.2; cycles counted by the simulator (no timing)",
    }


def main():
    root = sys.argv[1]
    only = os.environ.get("SCALESIM_CASES")  # a comma-separated subset of case names, for a quick rerun
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "data", "public",
                                                             "scalesim_v3.jsonl")
    with tempfile.TemporaryDirectory() as work:
        records = [run_case(root, c, work) for c in CASES if not only or c[0] in only.split(",")]
    with open(out, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    print(f"{len(records)} records -> {out}")


if __name__ == "__main__":
    main()
