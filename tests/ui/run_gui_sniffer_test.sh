#!/usr/bin/env bash
# ctest driver of ui.sniffer_capture: the GUI's live capture on an RDMA device, against the
# simulated one. Starts a fabric, runs ui_tests' LiveCaptureSniffer test as a sniffer of host 2
# (`rdmascope-cli exec --sniff`), and once its capture runs, ibv_rc_pingpong between hosts 1 and
# 2; the test checks what the dialog captured and shows.
# Usage: run_gui_sniffer_test.sh UI_TESTS RDMASCOPE_CLI
set -uo pipefail
ui_tests=$1
cli=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/oracle.sh"
oracle_require ibv_rc_pingpong

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
"$cli" fabric --socket "$work/f.sock" >"$work/fabric.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$work/f.sock" ] && break; sleep 0.1; done
QT_QPA_PLATFORM=offscreen "$cli" exec --fabric "$work/f.sock" --host 2 --sniff -- "$ui_tests" \
  --gtest_filter=LiveCaptureSniffer.* >"$work/gui.log" 2>&1 &
gui=$!
for _ in $(seq 600); do grep -q "GUI capture started" "$work/gui.log" && break; sleep 0.1; done
"$cli" exec --fabric "$work/f.sock" --host 1 -- ibv_rc_pingpong -d rdmascope0 -g 1 -n 20 -p 18520 \
  >"$work/server.log" 2>&1 &
pids+=($!)
sleep 0.5
"$cli" exec --fabric "$work/f.sock" --host 2 -- ibv_rc_pingpong -d rdmascope0 -g 1 -n 20 -p 18520 \
  localhost >"$work/client.log" 2>&1
wait "$gui"
status=$?
cat "$work/gui.log"
exit "$status"
