#!/bin/bash
# The 4 × H200 collective runs behind data/measurements/h200x4_collectives.jsonl (device machine,
# repository root, 4 GPUs of one NVSwitch host). all_reduce with NCCL's default choice (NVLS
# allowed), forced NVLS and forced Ring, on 4, 3 and 2 GPUs; then all_gather and reduce_scatter on 4.
# Usage: bash scripts/measure/run_h200x4_collectives.sh OUTDIR
set -u
out=${1:?OUTDIR}
mkdir -p "$out"
export HWSIM_DEVICE_ID=h200_x4_nvswitch
f="$out/h200x4_collectives.jsonl"
nvidia-smi topo -m > "$out/h200x4_topo.txt" 2>&1
run() {  # GPUS MODE [ENV...]
  local g=$1 mode=$2; shift 2
  echo "== $(date +%T) gpus=$g mode=$mode $*" >> "$out/h200x4_collectives.log"
  env "$@" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT timeout 120 torchrun --nproc_per_node="$g" \
    scripts/measure/measure_collectives.py "$f" "$mode" >> "$out/h200x4_collectives.log" 2>&1
}
run 4 variant
run 4 variant NCCL_ALGO=NVLS
run 4 variant NCCL_ALGO=Ring
run 4 gather_scatter
run 3 variant NCCL_ALGO=NVLS
run 3 variant NCCL_ALGO=Ring
run 2 variant NCCL_ALGO=Ring
