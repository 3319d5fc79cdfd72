#!/usr/bin/env bash
# Loads hwsim's HTML report of each kind of run in headless Chromium (ctest report/html_in_chromium):
# a decode step, a serving run, a run of collectives, a pipeline on a system and a microcontroller.
# Each page must load with no console error, its script must run to the end (body data-ready="1" in
# the DOM), hold its charts and the figures its readers look for, and a screenshot of it is taken
# (kept as $OUT_DIR/NAME.png for a person to look at).
# Exit 77 (ctest: Skipped) with a message where Chromium is absent.
# Usage: check_html_in_chromium.sh HWSIM_BINARY [OUT_DIR]
set -euo pipefail
hwsim="$1"
out_dir="${2:-$(mktemp -d)}"
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$browser" ]; then
  echo "skipped: chromium not found (Debian: apt-get install chromium)"
  exit 77
fi
mkdir -p "$out_dir"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
flags=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$out_dir/profile" --enable-logging=stderr --v=0)
status=0

# check NAME CHARTS "TEXT|TEXT|..." HWSIM-ARGS...: the page of `hwsim ARGS --html`, with at least
# CHARTS <svg> elements and every TEXT in its DOM.
check() {
  local name="$1" charts="$2" texts="$3"
  shift 3
  local page="$out_dir/$name.html" bad=0
  "$hwsim" "$@" --quiet --html "$page"
  [ "${page:0:1}" = / ] || page="$PWD/$page"
  timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$page" >"$out_dir/$name.dom.html" 2>"$out_dir/$name.console.log" || true
  timeout 60 "$browser" "${flags[@]}" --window-size=1150,2400 --screenshot="$out_dir/$name.png" "file://$page" \
    >/dev/null 2>>"$out_dir/$name.console.log" || true
  if grep -E 'CONSOLE|Uncaught|SyntaxError' "$out_dir/$name.console.log" >/dev/null; then
    echo "$name: console messages:"; grep -E 'CONSOLE|Uncaught|SyntaxError' "$out_dir/$name.console.log"; bad=1
  fi
  grep -q 'data-ready="1"' "$out_dir/$name.dom.html" || { echo "$name: the page's script did not finish"; bad=1; }
  [ "$(grep -c '<svg' "$out_dir/$name.dom.html")" -ge "$charts" ] || { echo "$name: fewer than $charts charts"; bad=1; }
  local IFS='|'
  for text in $texts; do
    grep -qF -- "$text" "$out_dir/$name.dom.html" || { echo "$name: '$text' is not on the page"; bad=1; }
  done
  local size
  size=$(stat -c %s "$out_dir/$name.png" 2>/dev/null || echo 0)
  [ "$size" -gt 50000 ] || { echo "$name: screenshot missing or blank ($size bytes)"; bad=1; }
  [ $bad -eq 0 ] && echo "$name: loaded, no console error, screenshot $out_dir/$name.png ($size bytes)"
  [ $bad -eq 0 ] || status=1
}

check decode 4 "Roofline|time went most to|energy per token|SM clock (GHz)" \
  --chip h100 --workload decode_llama8b
check serve 3 "TTFT|TPOT|ITL|output token throughput|energy per output token|Latency distributions|KV cache" \
  --chip h100 --workload serve:model=llama3_8b,requests=40,rate=20,prompt=uniform:32..512,output=uniform:8..64,seed=1
check collective 3 "peak bus bandwidth|bandwidth against size|busbw" \
  --system dgx_h100 --workload collective:op=all_reduce,bytes=1KiB..1GiB,factor=4,ranks=8
check pipeline 4 "stage 3: ranks 6–7|averaged over 8|idle" \
  --system dgx_h100 --workload decode:model=llama3_70b,batch=8,context=2048,pp=4,tp=2,microbatches=4
check mcu 4 "per inference|NPU / CPU|time went most to" --chip cortex_m55_u55 --workload kws_dscnn
exit $status
