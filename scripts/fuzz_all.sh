#!/usr/bin/env bash
# Runs the nine libFuzzer targets side by side, each spread over WORKERS processes (libFuzzer's
# -fork), for SECONDS of wall time, each on a copy of its seed corpus plus the past findings
# (fuzz/regressions). Prints one summary line per target (executions, coverage, corpus size and
# findings) and exits 1 if any target found a crash, a timeout or an out-of-memory input; the
# inputs are left in WORK/TARGET/ (crash-*, timeout-*, oom-*).
#   scripts/fuzz_all.sh FUZZ_DIR SECONDS WORKERS WORK
# FUZZ_DIR: the folder of the fuzz_* binaries (build-san/fuzz after `scripts/setup.sh sanitize`).
# An hour of CPU per target on 16 cores: scripts/fuzz_all.sh build-san/fuzz 1200 3 /tmp/fuzz
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzz_dir="$(cd "$1" && pwd)"
seconds="$2"
workers="$3"
work="$4"
targets=(units config workload_spec kernel measurements sweep_file serve_trace chakra tiny_model)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0:abort_on_error=1:handle_abort=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

for t in "${targets[@]}"; do
  mkdir -p "$work/$t/corpus"
  cp -n "$root/fuzz/corpus/$t/"* "$work/$t/corpus/"
  (cd "$work/$t" && "$fuzz_dir/fuzz_$t" -fork="$workers" -max_total_time="$seconds" -timeout=20 \
       -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 corpus "$root/fuzz/regressions/$t" \
       > "$work/$t/log" 2>&1) &
done
wait

found=0
for t in "${targets[@]}"; do
  # Fork mode's progress lines: "#EXECS: cov: C ft: F corp: N exec/s: R oom/timeout/crash: a/b/c time: Ts"
  last=$(grep -E '^#[0-9]+: cov:' "$work/$t/log" | tail -n 1)
  findings=$(find "$work/$t" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  echo "fuzz_$t: ${workers} workers x ${seconds} s: ${last:-no progress line (see $work/$t/log)}; findings: $findings"
  [ "$findings" -eq 0 ] || found=1
done
exit "$found"
