#!/usr/bin/env bash
# One-command set-up for a fresh Debian machine (README "Set-up").
#
#   scripts/setup.sh run    install what is missing, build (Release), run the main job
#   scripts/setup.sh test   install what is missing, build (Release), run the full test suite:
#                           ctest, then the sanitizer job below (HWSIM_SANITIZE=0 leaves it out)
#   scripts/setup.sh build  install what is missing and build, nothing else
#   scripts/setup.sh sanitize  install clang, build hwsim, the unit and hostile tests and the fuzz
#                           targets with AddressSanitizer + UBSan (in build-san/), run those tests
#                           and each fuzzer for HWSIM_FUZZ_SECONDS (default 30) on its corpus
#
# apt-get runs directly as root and through sudo otherwise; it is skipped when every package is
# already installed. Environment: HWSIM_BUILD_DIR (default: build/ in the repository),
# HWSIM_JOBS (default: nproc), HWSIM_EXTRAS (1: also the optional tools, below; 0: not even for test),
# HWSIM_SAN_BUILD_DIR (default: build-san/), HWSIM_FUZZ_SECONDS.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${HWSIM_BUILD_DIR:-$root/build}"
jobs="${HWSIM_JOBS:-$(nproc)}"
# clang: `hwsim --kernel FILE.cu` compiles a student's CUDA to PTX with it (no CUDA toolkit).
packages=(build-essential g++ cmake pkg-config libsystemc-dev libboost-graph-dev libtomlplusplus-dev
          libfmt-dev doctest-dev nlohmann-json3-dev libcli11-dev clang)
# The test suite (and HWSIM_EXTRAS=1) adds the optional tools (docs/sweeps.md): Open MPI for sweeps
# over many machines (mpirun; found by CMake, the build works without it), Chromium for the HTML
# report test and python3 for the Python helper's test. Their tests are skipped, and say so, where
# they are absent (HWSIM_EXTRAS=0 scripts/setup.sh test leaves them out).
if [ "${HWSIM_EXTRAS:-}" = 1 ] || { [ "${1:-}" = test ] && [ "${HWSIM_EXTRAS:-}" != 0 ]; }; then
  packages+=(openmpi-bin libopenmpi-dev chromium python3)
fi
# The sanitizer build and the fuzzers (scripts/sanitize.sh, fuzz/README.md) need clang and its
# runtimes (AddressSanitizer, UBSan, libFuzzer): Debian 12's clang 14.
if [ "${1:-}" = sanitize ] || [ "${1:-}" = test ]; then
  packages+=(libclang-rt-14-dev)
fi

install_missing() {
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} Debian packages are installed"
    return
  fi
  local as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
  fi
  echo "setup: installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
  cmake --build "$build_dir" -j "$jobs"
}

case "${1:-}" in
  run)
    install_missing
    build
    cd "$root"
    "$build_dir/hwsim" --chip configs/h100.toml --workload decode_llama8b
    ;;
  test)
    install_missing
    build
    (cd "$build_dir" && ctest --output-on-failure --timeout 900 -j "$jobs")
    # The full suite includes the sanitizer job (HWSIM_SANITIZE=0 leaves it out).
    [ "${HWSIM_SANITIZE:-1}" = 0 ] || "$root/scripts/sanitize.sh"
    ;;
  build)
    install_missing
    build
    ;;
  sanitize)
    install_missing
    "$root/scripts/sanitize.sh"
    ;;
  *)
    echo "usage: scripts/setup.sh run|test|build|sanitize" >&2
    exit 2
    ;;
esac
