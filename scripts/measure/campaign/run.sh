#!/usr/bin/env bash
# hwsim measurement campaign: bash scripts/measure/campaign/run.sh GPU_TAG SECTIONS [--dry-run]
#   GPU_TAG   h100 | h200 (names the output files; h200 gets the longer energy budget)
#   SECTIONS  comma list of fidelity,energy,classroom,warp, or all (= all four, in that order)
# Output in $OUT (default ./campaign_out): GPU_TAG_{fidelity,energy,classroom,warp}.jsonl,
# GPU_TAG_campaign.log (everything printed), GPU_TAG_smi.csv (nvidia-smi once a second).
# Budgets (s): fidelity 200, energy 200 (h200: 240), classroom 90, warp 60; override one with
# CAMPAIGN_BUDGET_<SECTION>=S. CAMPAIGN_MAX_S (default 540) caps the whole run: no case starts
# after it. Sections run in the order given, each in its own python process; a section whose
# CUDA context dies (exit 3) is resumed once, skipping the cases it already wrote.
set -u
set -o pipefail

TAG=${1:?usage: run.sh GPU_TAG SECTIONS [--dry-run]}
SECTIONS=${2:-all}
DRY=""
[ "${3:-}" = "--dry-run" ] && DRY="--dry-run"
[ "$SECTIONS" = "all" ] && SECTIONS="fidelity,energy,classroom,warp"

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/campaign_out}
mkdir -p "$OUT"
BIN=${CAMPAIGN_BIN:-/tmp/hwsim_campaign}
mkdir -p "$BIN"
PY=${PYTHON:-python3}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
LOG="$OUT/${TAG}_campaign.log"

# house rules for NVLink multicast (harmless on one GPU)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1

main() {
  local t_start end_epoch
  t_start=$(date +%s)
  end_epoch=$(( t_start + ${CAMPAIGN_MAX_S:-540} ))
  echo "=== hwsim campaign: tag=$TAG sections=$SECTIONS $DRY out=$OUT bin=$BIN start=$(date -u +%FT%TZ) end_by=+${CAMPAIGN_MAX_S:-540}s"
  echo "=== host: $(uname -n) $(nproc) cores; nvcc: $("$NVCC" --version 2>/dev/null | tail -1); python: $($PY --version 2>&1)"

  # ---- compile in the background (the python sections wait for NAME.ok / NAME.fail)
  rm -f "$BIN"/*.ok "$BIN"/*.fail
  touch "$BIN/compiling"
  local pids=()
  compile() {  # name source
    local name=$1 src=$2
    if "$NVCC" -O3 -arch=sm_90 -o "$BIN/$name" "$src" >"$BIN/$name.log" 2>&1; then
      touch "$BIN/$name.ok"; echo "=== compiled $name ($(cat "$BIN/$name.log" | wc -l) lines of compiler output)"
    else
      cp "$BIN/$name.log" "$BIN/$name.fail"; echo "=== COMPILE FAILED: $name"; cat "$BIN/$name.log"
    fi
  }
  case ",$SECTIONS," in *,classroom,*|*,warp,*) compile classroom "$HERE/classroom.cu" & pids+=($!) ;; esac
  case ",$SECTIONS," in *,warp,*) compile microbench "$HERE/microbench_shared.cu" & pids+=($!) ;; esac

  if [ -n "$DRY" ]; then  # dry-run: let the binaries exist so classroom can check its case file
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  fi

  # ---- nvidia-smi sampler, once a second
  local smi_pid=""
  if command -v nvidia-smi >/dev/null 2>&1; then
    local fields="timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active,utilization.gpu"
    nvidia-smi --query-gpu=clocks_event_reasons.active --format=csv,noheader >/dev/null 2>&1 ||
      fields="timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active,utilization.gpu"
    nvidia-smi --query-gpu="$fields" --format=csv -l 1 >"$OUT/${TAG}_smi.csv" 2>/dev/null &
    smi_pid=$!
    echo "=== nvidia-smi sampler pid $smi_pid -> ${TAG}_smi.csv"
  else
    echo "=== no nvidia-smi: no ${TAG}_smi.csv"
  fi

  # ---- sections, each in its own process
  local sec rc
  for sec in ${SECTIONS//,/ }; do
    case "$sec" in fidelity|energy|classroom|warp) ;; *) echo "=== unknown section '$sec' (skipped)"; continue ;; esac
    if [ "$(date +%s)" -ge "$end_epoch" ]; then echo "=== $sec: not started, CAMPAIGN_MAX_S reached"; continue; fi
    echo "=== section $sec start $(date -u +%T) (+$(( $(date +%s) - t_start ))s)"
    $PY "$HERE/campaign.py" "$TAG" "$sec" --out "$OUT" --bin-dir "$BIN" --end-epoch "$end_epoch" $DRY
    rc=$?
    if [ $rc -eq 3 ]; then
      echo "=== section $sec: CUDA context lost, resuming once"
      $PY "$HERE/campaign.py" "$TAG" "$sec" --out "$OUT" --bin-dir "$BIN" --end-epoch "$end_epoch" --resume $DRY
      rc=$?
    fi
    echo "=== section $sec end rc=$rc (+$(( $(date +%s) - t_start ))s)"
  done

  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -f "$BIN/compiling"
  [ -n "$smi_pid" ] && kill "$smi_pid" 2>/dev/null
  $PY "$HERE/campaign.py" "$TAG" summary --out "$OUT"
  echo "=== campaign done in $(( $(date +%s) - t_start )) s; files:"
  ls -la "$OUT"
}

main 2>&1 | tee -a "$LOG"
exit "${PIPESTATUS[0]}"
