#!/usr/bin/env bash
# Bad use of `rdmascope-cli fabric` and `exec`: each gets one line on stderr naming what was
# wrong and a non-zero exit status, and nothing the user owns is overwritten.
# Usage: fabric_cli_test.sh RDMASCOPE_CLI
set -uo pipefail
cli=$1
work=$(mktemp -d)
trap 'kill $fabric 2>/dev/null; kill $holder 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
fails=0
# expect NAME EXPECTED_TEXT COMMAND...: the command fails with exactly one stderr line holding TEXT
expect() {
  local name=$1 text=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  local status=$? lines
  lines=$(wc -l <"$work/err")
  if [ $status -eq 0 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$text" "$work/err"; then
    echo "FAILED $name: status $status, $lines stderr lines, expected one with: $text"
    cat "$work/err"
    fails=$((fails + 1))
  else
    echo "ok $name: $(cat "$work/err")"
  fi
}
sock="$work/fabric.sock"
expect no-fabric "no fabric at $sock" "$cli" exec --fabric "$sock" --host 1 -- true
expect hosts-range "--hosts" "$cli" fabric --socket "$sock" --hosts 0
expect pcap-unwritable "cannot create $work/none/x.pcap" \
  "$cli" fabric --socket "$sock" --pcap "$work/none/x.pcap"
echo "mine" >"$work/mine.pcap"
expect pcap-exists "$work/mine.pcap: it exists" "$cli" fabric --socket "$sock" --pcap "$work/mine.pcap"
[ "$(cat "$work/mine.pcap")" = mine ] || { echo "FAILED: the existing file was changed"; fails=$((fails + 1)); }
echo "not a socket" >"$work/file.sock"
expect socket-is-a-file "is not a socket" "$cli" fabric --socket "$work/file.sock"
[ "$(cat "$work/file.sock")" = "not a socket" ] || { echo "FAILED: the file was changed"; fails=$((fails + 1)); }
expect pcap-is-the-socket "is the fabric's socket" \
  "$cli" fabric --socket "$work/same.sock" --pcap "$work/same.sock"
[ -e "$work/same.sock" ] && { echo "FAILED: a file was left at the socket path"; fails=$((fails + 1)); }

"$cli" fabric --socket "$sock" --hosts 2 >"$work/fabric.txt" 2>&1 &
fabric=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
expect second-fabric "a fabric is already running at $sock" "$cli" fabric --socket "$sock"
expect no-host "host 3 does not exist: the fabric at $sock has hosts 1..2" \
  "$cli" exec --fabric "$sock" --host 3 -- true
expect not-found "no-such-program-here: program not found in PATH" \
  "$cli" exec --fabric "$sock" --host 1 -- no-such-program-here
expect no-program "no program given" "$cli" exec --fabric "$sock" --host 1
if command -v ibv_rc_pingpong >/dev/null; then
  # a server that waits for its client holds host 1
  "$cli" exec --fabric "$sock" --host 1 -- ibv_rc_pingpong -d rdmascope0 -g 1 -p 18799 \
    >/dev/null 2>&1 &
  holder=$!
  for _ in $(seq 100); do grep -q 'host1 attached' "$work/fabric.txt" && break; sleep 0.05; done
  expect host-taken "host 1 is taken by ibv_rc_pingpong" \
    "$cli" exec --fabric "$sock" --host 1 -- ibv_devinfo
elif [ "${RDMASCOPE_REQUIRE_ORACLES:-0}" = 1 ]; then
  echo "FAILED: ibv_rc_pingpong (ibverbs-utils) is missing"
  fails=$((fails + 1))
fi
[ $fails -eq 0 ] && echo PASSED
exit $((fails > 0))
