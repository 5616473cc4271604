#!/usr/bin/env bash
# ctest driver of lab.loss_stored and lab.loss: a lossy run of rc-lossy-stream (host-b, the
# client on guest 2 whose egress netem drops frames, WRITEs and SENDs to host-a) compared with
# the simulator under the same loss pattern (`rdmascope-cli lab compare-sim`): the drops are
# inferred from the capture (gaps in the requester's PSN runs, the rest of a message the
# requester went back on, with the occurrence of each PSN), the simulator replays the scenario
# with exactly those transmissions dropped, and both must show the same NAKs (relative PSN and
# syndrome) and the same resend runs; every transfer is intact on both sides (the scenario
# compares the data on real rxe and in the simulator).
# A resend the lab began before the NAKed PSN (its retransmit timer fired before a NAK that
# TCG delayed arrived) is counted from the NAKed PSN, as the simulator resends.
# Ignored: absolute PSNs and QPNs (the comparison counts PSNs from the scenario's initial PSN),
# timing (the lab runs under TCG with 4 ms jiffies), ACKs and their count (rxe coalesces
# differently under load; lost responses are not inferred and netem only drops guest 2's
# requests here since guest 1 sends every response).
# Usage: run_lab_loss_test.sh RDMASCOPE_CLI OUT_DIR (--stored CAPTURE | --fresh LOSS)
set -uo pipefail
cli=$(realpath "$1")
out=$2
mode=$3
arg=$4
fail=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "CHECK $what ok"; else echo "CHECK $what FAIL"; fail=1; fi
}
figure() { # figure REPORT ROW COLUMN(2 lab, 3 sim)
  awk -v row="$2" -v col="$3" 'index($0, row) == 1 { n = split(substr($0, length(row) + 1), f, " "); print f[col - 1]; exit }' "$1"
}
mkdir -p "$out"
if [ "$mode" = --stored ]; then
  report=$out/stored-compare.txt
  "$cli" lab compare-sim "$arg" rc-lossy-stream >"$report" 2>&1
  status=$?
else
  if [ "${RDMASCOPE_SKIP_LAB:-0}" = 1 ]; then
    echo "lab test skipped: RDMASCOPE_SKIP_LAB=1"
    exit 77
  fi
  rm -rf "$out/run"
  start=$(date +%s)
  "$cli" lab run rc-lossy-stream --out "$out/run" --loss "$arg" --timeout 120 --compare-sim \
    >"$out/run.txt" 2>&1
  status=$?
  echo "lab test: lab run rc-lossy-stream --loss $arg took $(($(date +%s) - start)) s, status $status"
  cat "$out/run.txt"
  report=$out/run/compare-sim.txt
  check "both guests ran the scenario (completions, data compared)" \
    grep -q "^# decode --verify" "$out/run.txt"
fi
cat "$report"
# Known and not modelled yet (a fidelity gap, not a legitimate difference): when the retransmit
# timer resends a message whose tail was lost and nothing was acknowledged, rxe resumes at its
# completer's PSN, one past the message's first packet, where the simulator resends the whole
# message. Random loss in a fresh run can hit this, so a fresh run tolerates exactly that
# difference (a resend run ending where the simulator's does and starting later) and names each
# one; every other difference fails. The stored captures must match exactly.
tolerated_timer_resends() { # prints the tolerated rows; fails when any other row differs
  awk '/^# resend runs/ { inside = 1; next } /^#/ { inside = 0 }
    inside && /^ *[0-9]+\*/ {
      split($0, side, "|")
      n = split(side[1], l, /[^0-9]+/); m = split(side[2], r, /[^0-9]+/)
      # fields: row number, first, [last], packets (lab); first, [last], packets (simulator)
      lf = l[3]; ll = (side[1] ~ /\.\./) ? l[4] : l[3]
      rf = r[2]; rl = (side[2] ~ /\.\./) ? r[3] : r[2]
      if (ll == rl && lf + 0 > rf + 0) { print "  tolerated: " $0; next }
      bad = 1
    }
    END { exit bad }' "$1"
}
if [ "$status" != 0 ] && [ "$mode" = --fresh ] &&
  [ "$(grep '^DIFFERENCE: ' "$report" | grep -vc 'the resend runs differ')" = 0 ] &&
  tolerated_timer_resends "$report"; then
  echo "lab test: the only differences are timer resends rxe resumed mid-message (not modelled)"
  status=0
fi
check "same NAK and resend pattern in the lab and the simulator, all transfers intact" test "$status" = 0
drops=$(figure "$report" "drops" 2)
naks=$(figure "$report" "NAKs" 2)
check "the capture shows several drops (${drops:-none})" test "${drops:-0}" -ge 2
check "the capture shows NAKs (${naks:-none})" test "${naks:-0}" -ge 1
check "the simulator dropped as many" test "$(figure "$report" "drops" 3)" = "$drops"
if ((fail)); then echo "RESULT FAIL"; exit 1; fi
echo "RESULT PASS"
