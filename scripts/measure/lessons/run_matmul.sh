#!/usr/bin/env bash
# Builds, checks and times the two tensor-core matmul lessons on the lent H200, from the
# repository root (one call of the device tool):
#   bash scripts/measure/lessons/run_matmul.sh
# Writes to $OUT (default /tmp/matmul_out):
#   h200_matmul_ptx.jsonl   one "lesson" line per kernel and size (measure_mma_matmul.cu,
#                           measure_triton_matmul.py)
#   h200_matmul_ptx.log     nvidia-smi, nvcc version, ptxas -v, errors
#   matmul_sass.txt         cuobjdump -sass of mma_matmul (sm_90)
#   mma_matmul_sm80.ptx, mma_matmul_sm90.ptx, triton_matmul_bf16.ptx
set -u
OUT=${OUT:-/tmp/matmul_out}
mkdir -p "$OUT"
ROOT=$(pwd)
SRC=$ROOT/workloads/kernels/lessons
DRV=$ROOT/scripts/measure/lessons
B=$(mktemp -d /tmp/matmul_build.XXXX)
LOG=$OUT/h200_matmul_ptx.log
export PATH=$PATH:/usr/local/cuda/bin
: >"$LOG"
{
  echo "== date $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
  nvcc --version
  python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)'
} >>"$LOG" 2>&1
nvcc -ptx -arch=sm_80 -O3 -std=c++17 "$SRC/mma_matmul.cu" -o "$OUT/mma_matmul_sm80.ptx" >>"$LOG" 2>&1 || echo "PTX sm_80 FAILED" >>"$LOG"
nvcc -ptx -arch=sm_90 -O3 -std=c++17 "$SRC/mma_matmul.cu" -o "$OUT/mma_matmul_sm90.ptx" >>"$LOG" 2>&1 || echo "PTX sm_90 FAILED" >>"$LOG"
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v -I"$DRV" "$DRV/measure_mma_matmul.cu" -o "$B/measure_mma_matmul" >>"$LOG" 2>&1 || echo "BUILD FAILED" >>"$LOG"
cuobjdump -sass -fun mma_matmul "$B/measure_mma_matmul" >"$OUT/matmul_sass.txt" 2>&1
J=$OUT/h200_matmul_ptx.jsonl; : >"$J"
timeout 200 "$B/measure_mma_matmul" >>"$J" 2>>"$LOG" || echo "rc=$? mma_matmul" >>"$LOG"
PYTHONUNBUFFERED=1 timeout 200 python3 "$DRV/measure_triton_matmul.py" "$B/tptx" >>"$J" 2>>"$LOG" || echo "rc=$? triton" >>"$LOG"
cp "$B"/tptx/*.ptx "$OUT/" 2>/dev/null
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >>"$LOG" 2>&1
python3 - "$J" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    if l.startswith("{"):
        r = json.loads(l)
        print(f'{r["lesson"]:14s} {r["size"]:5d} {r["seconds"]*1e6:10.2f} us {r["tflops"]:7.1f} TFLOP/s {r["check"]} {r["max_err"]:.2e}')
PY
tail -5 "$LOG"
ls -la "$OUT"
