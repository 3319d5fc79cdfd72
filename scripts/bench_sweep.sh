#!/usr/bin/env bash
# The sweep speed figure (issue 11): a 1,000-point what-if sweep of decode_llama8b on the H100
# (40 HBM bandwidths x 25 batch sizes), every core, timed. Prints the wall time and the rate.
# Usage: scripts/bench_sweep.sh [HWSIM_BINARY] [JOBS]   (run from anywhere)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
hwsim="${1:-$root/build/hwsim}"
jobs="${2:-0}"
out="$(mktemp -d)/bench.csv"
cd "$root"
start=$(date +%s.%N)
"$hwsim" sweep --chip h100 --workload decode_llama8b --jobs "$jobs" \
  --vary memory.hbm.bandwidth=1TB/s..8TB/s:40 --vary workload.batch=1..25+1 --out "$out"
end=$(date +%s.%N)
rows=$(($(wc -l <"$out") - 1))
failed=$(grep -c ',error,' "$out" || true)
awk -v s="$start" -v e="$end" -v n="$rows" -v f="$failed" -v c="$(nproc)" \
  'BEGIN { printf "bench_sweep: %d points (%d failed) in %.1f s on %d cores: %.1f points/s\n", n, f, e - s, c, n / (e - s) }'
