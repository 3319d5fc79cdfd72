#!/usr/bin/env bash
# The sanitizer job (the end of `scripts/setup.sh test`, after the Release suite; `scripts/setup.sh sanitize` installs
# clang first). One clang build in $HWSIM_SAN_BUILD_DIR (default build-san/) with
# AddressSanitizer + UndefinedBehaviorSanitizer (-fno-sanitize-recover: the first report fails)
# and libFuzzer coverage, of only what this job runs: hwsim, the unit tests, the hostile-input
# suite and the nine fuzz targets, at -O1. Then:
#   1. the unit tests (every TEST_CASE its own process, SystemC included) and the hostile suite
#      (tests/hostile: the sanitized hwsim on every hostile input) under both sanitizers;
#   2. each fuzz target for HWSIM_FUZZ_SECONDS (default 20) on a copy of its seed corpus
#      (fuzz/corpus/TARGET); a finding fails the job and leaves its input in the work folder.
# Environment: HWSIM_JOBS (default nproc), HWSIM_FUZZ_SECONDS, HWSIM_SAN_BUILD_DIR.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${HWSIM_SAN_BUILD_DIR:-$root/build-san}"
jobs="${HWSIM_JOBS:-$(nproc)}"
seconds="${HWSIM_FUZZ_SECONDS:-20}"
targets=(units config workload_spec kernel measurements sweep_file serve_trace chakra tiny_model)

# SystemC switches coroutine stacks, which AddressSanitizer cannot follow for use-after-return
# checks; leaks are reported by the test binaries' own exits otherwise (SystemC keeps its kernel
# alive until exit by design), so leak detection is off. Everything else is on.
export ASAN_OPTIONS="detect_stack_use_after_return=0:detect_leaks=0:abort_on_error=1:handle_abort=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" -DHWSIM_SANITIZE=address,undefined -DHWSIM_FUZZ=ON \
      -DHWSIM_MPI=OFF
cmake --build "$build_dir" -j "$jobs" --target hwsim test_unit test_hostile "${targets[@]/#/fuzz_}"

# Left out under the sanitizers: the four unit cases that take a minute or more there (15-20x their
# Release time; together a quarter of this step), whose code the lighter warp, serving-reuse and
# NCCL-log cases run as well. They run in the Release suite.
heavy='^unit/(warp: data every block reads is held once|serve reuse: two replicas sharing|nccl_log: more than a million calls|warp: a warm L2 past one partition)'
(cd "$build_dir" && ctest --output-on-failure --timeout 900 -j "$jobs" -R '^(unit|hostile)/' -E "$heavy")

work="$build_dir/fuzz-work"
for t in "${targets[@]}"; do
  rm -rf "$work/$t" && mkdir -p "$work/$t/corpus"
  cp "$root/fuzz/corpus/$t/"* "$work/$t/corpus/"
  echo "fuzz_$t: ${seconds} s"
  (cd "$work/$t" && "$build_dir/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
       -max_len=65536 -print_final_stats=1 corpus "$root/fuzz/regressions/$t" 2>&1 | tail -n 12)
done
echo "sanitizers: unit and hostile tests passed; fuzzers: ${#targets[@]} targets, ${seconds} s each, no finding"
