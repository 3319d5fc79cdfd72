#!/usr/bin/env bash
# A sweep under `mpirun -np 2` (ctest sweep/mpi_two_ranks) writes one merged output, identical to
# the same sweep in one process, and leaves no per-rank part file behind. Exit 77 (ctest: Skipped)
# with a message where mpirun is absent or hwsim was built without MPI.
# Usage: check_sweep_mpi.sh HWSIM_BINARY OUT_DIR
set -euo pipefail
hwsim="$1"
out_dir="$2"
command -v mpirun >/dev/null || { echo "skipped: mpirun not found (Debian: apt-get install openmpi-bin libopenmpi-dev)"; exit 77; }
mkdir -p "$out_dir"
rm -f "$out_dir"/mpi.csv* "$out_dir"/one.csv
sweep=(sweep --chip h100 --workload gemm:M=256,N=2048,K=2048,dtype=bf16
       --vary memory.hbm.bandwidth=1TB/s..4TB/s:4 --vary workload.M=64,128,256 --jobs 1)
as_root=()
[ "$(id -u)" -eq 0 ] && as_root=(--allow-run-as-root)
if ! mpirun "${as_root[@]}" --oversubscribe -np 2 "$hwsim" "${sweep[@]}" --out "$out_dir/mpi.csv" 2>"$out_dir/mpi.err"; then
  if grep -q "built without MPI" "$out_dir/mpi.err"; then echo "skipped: hwsim built without MPI"; exit 77; fi
  cat "$out_dir/mpi.err"; exit 1
fi
"$hwsim" "${sweep[@]}" --out "$out_dir/one.csv"
cmp "$out_dir/mpi.csv" "$out_dir/one.csv" || { echo "the MPI output differs from one process's"; exit 1; }
[ "$(wc -l <"$out_dir/mpi.csv")" -eq 13 ] || { echo "expected a header and 12 rows"; exit 1; }
if ls "$out_dir"/mpi.csv.part* >/dev/null 2>&1; then echo "part files left behind"; exit 1; fi
echo "mpi: 2 ranks, 12 points, one merged output identical to one process's"
