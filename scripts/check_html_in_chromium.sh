#!/usr/bin/env bash
# Loads an hwsim HTML report in headless Chromium (ctest report/html_in_chromium): the page must
# load with no console error, its script must run to the end (body data-ready="1" in the DOM), and
# a screenshot of it is taken (kept as $OUT_DIR/report.png for a person to look at).
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
page="$out_dir/report.html"
"$hwsim" --chip h100 --workload decode_llama8b --quiet --html "$page"
flags=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
       --user-data-dir="$out_dir/profile" --enable-logging=stderr --v=0)
# The DOM after the scripts ran, and the console (logged on stderr as CONSOLE lines).
timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$page" >"$out_dir/dom.html" 2>"$out_dir/console.log" || true
timeout 60 "$browser" "${flags[@]}" --window-size=1150,1900 --screenshot="$out_dir/report.png" "file://$page" \
  >/dev/null 2>>"$out_dir/console.log" || true
status=0
if grep -E 'CONSOLE|Uncaught|SyntaxError' "$out_dir/console.log" >/dev/null; then
  echo "console messages:"; grep -E 'CONSOLE|Uncaught|SyntaxError' "$out_dir/console.log"; status=1
fi
grep -q 'data-ready="1"' "$out_dir/dom.html" || { echo "the page's script did not finish"; status=1; }
[ "$(grep -c '<svg' "$out_dir/dom.html")" -ge 3 ] || { echo "fewer than 3 charts in the DOM"; status=1; }
size=$(stat -c %s "$out_dir/report.png" 2>/dev/null || echo 0)
[ "$size" -gt 50000 ] || { echo "screenshot missing or blank ($size bytes)"; status=1; }
[ $status -eq 0 ] && echo "chromium: page loaded, no console error, screenshot $out_dir/report.png ($size bytes)"
exit $status
