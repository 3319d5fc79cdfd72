#!/usr/bin/env bash
# The probes behind the tensor-core matmul lessons' predictions, on the lent H200, from the
# repository root (one call of the device tool):
#   bash scripts/measure/lessons/run_matmul_probes.sh
# Writes to $OUT (default /tmp/probes_out):
#   h200_matmul_probes.jsonl  matmul_probes.cu: mma.sync m16n8k16 bf16 rate (4/8/16 warps per SM),
#                             L2 read bandwidth (ld.global.cg, cp.async.cg)
#   h200_mma_matmul_sass.txt  cuobjdump -sass of mma_matmul (nvcc -O3 -arch=sm_90)
set -u
OUT=${OUT:-/tmp/probes_out}
mkdir -p "$OUT"
ROOT=$(pwd)
B=$(mktemp -d /tmp/probes_build.XXXX)
export PATH=$PATH:/usr/local/cuda/bin
nvcc -O3 -arch=sm_90 "$ROOT/scripts/measure/lessons/matmul_probes.cu" -o "$B/probes" 2>&1 | tail -5
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 200 "$B/probes" | tee "$OUT/h200_matmul_probes.jsonl"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
nvcc -O3 -arch=sm_90 -cubin "$ROOT/workloads/kernels/lessons/mma_matmul.cu" -o "$B/mma.cubin" 2>&1 | tail -3
cuobjdump -sass "$B/mma.cubin" | awk '/Function : .*mma_matmul/{p=1} /Function : .*call_local/{p=0} p' >"$OUT/h200_mma_matmul_sass.txt"
grep -c HMMA "$OUT/h200_mma_matmul_sass.txt"; grep -c LDSM "$OUT/h200_mma_matmul_sass.txt"; wc -l "$OUT/h200_mma_matmul_sass.txt"
