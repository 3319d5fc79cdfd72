#!/usr/bin/env bash
# Builds, checks and times the CUDA lessons (workloads/kernels/lessons/*.cu) on the lent GPU, in
# one call of the device tool, from the repository root:
#   bash scripts/measure/lessons/run.sh
# Writes to $OUT (default /tmp/lessons_out):
#   h200_lessons.jsonl       a kind "device" line, then one "lesson" line per timed case
#                            (seconds_repeat: the same case timed by a second pass of the drivers)
#   h200_lessons.log         nvidia-smi before/after, nvcc version, ptxas resource reports, the
#                            lessons' own (student) output, the drivers' stderr, a summary table
#   h200_lessons_sass.txt    cuobjdump -sass of each lesson binary
#   lessons_ptx.tar          nvcc -ptx -arch=sm_90 of each lesson (ptx/NAME.ptx) + Triton PTX
set -u
OUT=${OUT:-/tmp/lessons_out}
mkdir -p "$OUT"
ROOT=$(pwd)
SRC=$ROOT/workloads/kernels/lessons
DRV=$ROOT/scripts/measure/lessons
B=$(mktemp -d /tmp/lessons_build.XXXX)
LOG=$OUT/h200_lessons.log
LESSONS="reduction transpose sgemm histogram divergence stencil softmax"
NVFLAGS="-O3 -arch=sm_90 -std=c++17"
export PATH=$PATH:/usr/local/cuda/bin
: >"$LOG"
say() { echo "== $*" | tee -a "$LOG"; }

say "date $(date -u +%FT%TZ) host $(hostname)"
say "nvidia-smi (before)"
nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu --format=csv >>"$LOG" 2>&1
nvidia-smi -q -d CLOCK >"$B/smi_clocks.txt" 2>&1; cat "$B/smi_clocks.txt" >>"$LOG"
say "nvcc"; nvcc --version >>"$LOG" 2>&1

say "build ($NVFLAGS)"
mkdir -p "$B/ptx"
for l in $LESSONS; do
  (
    nvcc $NVFLAGS -Xptxas -v "$SRC/$l.cu" -o "$B/$l" >"$B/$l.build.txt" 2>&1 || echo "BUILD FAILED $l" >>"$B/$l.build.txt"
    nvcc -ptx -arch=sm_90 -O3 -std=c++17 "$SRC/$l.cu" -o "$B/ptx/$l.ptx" >>"$B/$l.build.txt" 2>&1 || echo "PTX FAILED $l" >>"$B/$l.build.txt"
    nvcc $NVFLAGS -I"$DRV" "$DRV/measure_$l.cu" -o "$B/measure_$l" >"$B/measure_$l.build.txt" 2>&1 || echo "BUILD FAILED measure_$l" >>"$B/measure_$l.build.txt"
  ) &
done
wait
for l in $LESSONS; do echo "-- $l"; cat "$B/$l.build.txt" "$B/measure_$l.build.txt"; done >>"$LOG"

say "lessons' own output (student timing: 1 warm-up + 100 launches / events)"
for l in $LESSONS; do
  echo "-- $l" >>"$LOG"
  timeout 120 "$B/$l" >>"$LOG" 2>&1 || echo "rc=$? for $l" >>"$LOG"
done

say "timed cases"
J=$B/cases.jsonl; : >"$J"
"$B/measure_reduction" --device >"$B/device.json" 2>>"$LOG"
for l in $LESSONS; do
  timeout 240 "$B/measure_$l" >>"$J" 2>>"$LOG" || echo "rc=$? for measure_$l" >>"$LOG"
done

say "timed cases again (repeatability: seconds_repeat)"
R=$B/repeat.jsonl; : >"$R"
for l in $LESSONS; do
  timeout 240 "$B/measure_$l" >>"$R" 2>>"$LOG" || echo "rc=$? for measure_$l (repeat)" >>"$LOG"
done

if [ -f "$ROOT/scripts/measure/lessons/measure_triton.py" ]; then
  say "triton"
  PYTHONUNBUFFERED=1 timeout 240 python3 "$ROOT/scripts/measure/lessons/measure_triton.py" "$B/ptx" >>"$J" 2>>"$LOG" || echo "rc=$? for triton" >>"$LOG"
fi

say "nvidia-smi (after)"
nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu --format=csv >>"$LOG" 2>&1

say "sass"
for l in $LESSONS; do echo "======== $l.cu (nvcc $NVFLAGS)"; cuobjdump -sass "$B/$l"; done >"$OUT/h200_lessons_sass.txt" 2>&1

python3 - "$B" "$J" "$OUT/h200_lessons.jsonl" "$R" >>"$LOG" 2>&1 <<'PY'
import json, re, subprocess, sys
b, cases, out, rep = sys.argv[1:5]
dev = json.load(open(f"{b}/device.json"))
smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,power.limit",
                      "--format=csv,noheader"], capture_output=True, text=True).stdout.strip().split(", ")
nv = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
m = re.search(r"release ([\d.]+), V([\d.]+)", nv)
dev.update({"gpu": smi[0], "driver_version": smi[1], "max_sm_clock": smi[2], "max_mem_clock": smi[3],
            "sm_clock_after": smi[4], "mem_clock_after": smi[5], "power_limit": smi[6],
            "nvcc": m.group(2) if m else nv.strip().splitlines()[-1], "nvcc_flags": "-O3 -arch=sm_90 -std=c++17"})
rows = [json.loads(l) for l in open(cases) if l.strip().startswith("{")]
again = {}
for l in open(rep):
    if l.strip().startswith("{"):
        r = json.loads(l)
        if r.get("kind") == "lesson":
            again[(r["lesson"], r["kernel"], r["speedup_group"])] = r["seconds"]
for r in rows:
    k = (r.get("lesson"), r.get("kernel"), r.get("speedup_group"))
    if k in again:
        r["seconds_repeat"] = again[k]
with open(out, "w") as f:
    f.write(json.dumps(dev) + "\n")
    for r in rows:
        f.write(json.dumps(r) + "\n")
print("== summary")
groups = {}
for r in rows:
    if r.get("kind") != "lesson":
        print("ERROR", r); continue
    groups.setdefault(r["speedup_group"], []).append(r)
for g, rs in groups.items():
    base = rs[0]["seconds"]
    for r in rs:
        extra = (f'{r["gbps"]:8.1f} GB/s' if "gbps" in r else "") + (f'{r["gflops"]:9.1f} GFLOP/s' if "gflops" in r else "")
        rp = f'{r["seconds_repeat"]*1e6:10.2f}' if "seconds_repeat" in r else " " * 10
        print(f'{g:18s} {r["kernel"]:30s} {r["seconds"]*1e6:10.2f} us (again {rp})  x{base/r["seconds"]:6.2f}  {r["check"]:8s} err {r["max_err"]:.1e} {extra}')
PY
tail -40 "$LOG"
(cd "$B" && tar cf "$OUT/lessons_ptx.tar" ptx)
ls -la "$OUT"
