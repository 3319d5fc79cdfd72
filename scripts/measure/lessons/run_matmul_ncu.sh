#!/usr/bin/env bash
# Nsight Compute's L2 and DRAM traffic of the matmul lessons (Triton at 2048^3, mma_matmul at 1024^3) on the lent H200 (one
# device call, from the repository root): the third launch of each, clocks left alone.
#   bash scripts/measure/lessons/run_matmul_ncu.sh      -> $OUT/h200_matmul_ncu.txt
set -u
OUT=${OUT:-/tmp/ncu_out}
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
M=gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_op_read.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed
B=$(mktemp -d)
nvcc -O3 -arch=sm_90 workloads/kernels/lessons/mma_matmul.cu -o "$B/mm" 2>&1 | tail -2
{
  echo "== triton matmul_kernel 2048 (launch 3)"
  timeout 200 ncu --clock-control none -k regex:matmul_kernel -s 2 -c 1 --metrics $M python3 scripts/measure/lessons/ncu_matmul.py 2>&1 | grep -v '^==PROF==' | tail -20
  echo "== mma_matmul 1024 (the lesson's own main: its second launch)"
  timeout 200 ncu --clock-control none -k regex:mma_matmul -s 1 -c 1 --metrics $M "$B/mm" 2>&1 | grep -v '^==PROF==' | tail -20
} | tee "$OUT/h200_matmul_ncu.txt"
