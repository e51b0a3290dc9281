#!/usr/bin/env bash
# Start a built Settle (the bundle's executable, or any `settle` command) offscreen with
# SETTLE_SMOKE_QUIT_MS set: it must show its window, quit by itself and exit 0.
set -euo pipefail
exe=${1:?usage: packaging/smoke.sh PATH-TO-SETTLE}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
started=$(date +%s)
HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" \
  QT_QPA_PLATFORM=offscreen SETTLE_SMOKE_QUIT_MS=3000 timeout 300 "$exe" 2>"$home/stderr" || {
  echo "smoke test failed: $exe exited with $?"; cat "$home/stderr"; exit 1; }
grep -q "window shown: True" "$home/stderr" || { echo "smoke test failed: no window"; cat "$home/stderr"; exit 1; }
if grep -qi "traceback\|leaked semaphore" "$home/stderr"; then
  echo "smoke test failed: errors on stderr"; cat "$home/stderr"; exit 1
fi
echo "smoke test passed: $exe started, showed its window and quit cleanly in $(( $(date +%s) - started )) s"
