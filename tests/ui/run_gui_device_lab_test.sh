#!/usr/bin/env bash
# ctest driver of ui.device_lab: the GUI runs scenarios on a real RDMA device with a peer
# machine, in the Soft-RoCE lab. One boot of the pair (lab/run-pair.sh), four GUI runs in
# guest 1 (offscreen, as root: it may capture on eth0), each with --screenshot and
# --quit-after-run:
#  1. connect: `rdmascope --device rxe0 --connect 10.9.0.2 --scenario SCENARIO` (host 1) while
#     guest 2 runs `rdmascope-cli verbs --device rxe0 --scenario SCENARIO --server` (host 0);
#  2. serve: `rdmascope --device rxe0 --serve --port 18516 --scenario rc-read` (host 0) while
#     guest 2 runs `rdmascope-cli verbs ... --connect 10.9.0.1 --port 18516` (host 1);
#  3. mismatch: the GUI connects (port 18517) to a peer that runs rc-read: both refuse at once,
#     naming the other's scenario;
#  4. loopback: `rdmascope --device rxe0 --loopback --scenario SCENARIO` (both hosts on rxe0).
# Checks: every command exits 0 (run 3: fails, with the one-line error); in runs 1 and 2 the
# GUI captured frames on eth0 (> 0), every ICRC valid (its summary line, and `decode --verify`
# of the capture it saved), together as many frames as tcpdump saw on guest 2; the GUI's and the
# peer's completions equal the simulator's for each host (QPNs are not printed: they differ
# between runs) and the GUI says every line agrees; run 3 names the other scenario on both
# sides; run 4 shows both hosts' completions, equal to the simulator's, and says that nothing
# was captured and why; each run's PNG screenshot came back.
# Usage: run_gui_device_lab_test.sh RDMASCOPE RDMASCOPE_CLI OUT_DIR [SCENARIO]
set -uo pipefail
gui=$(realpath "$1") # the guests run them by absolute path
cli=$(realpath "$2")
out=$3
scenario=${4:-rc-send-recv}
serve_scenario=rc-read
root=$(cd "$(dirname "$0")/../.." && pwd)

# Without the lab or the programs: skipped (77) naming what is missing, failed under
# RDMASCOPE_REQUIRE_ORACLES=1.
source "$root/tests/support/oracle.sh"
oracle_require lab "$gui" "$cli"

fail=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "CHECK $what ok"; else echo "CHECK $what FAIL"; fail=1; fi
}

# The guest's root is the host's, read-only: Qt's runtime folder goes to tmpfs, its temporary
# folder (where the GUI saves the capture it opens) to /results/RUN, so that it comes back.
# Each run's output goes to /results/RUN.txt; the command fails when one run fails.
guirun() { # guirun NAME EXPECTED_EXIT ARGS...
  local name=$1 expect=$2
  shift 2
  echo "mkdir -p /results/$name && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/xdg \
TMPDIR=/results/$name $gui --device rxe0 $* --screenshot /results/$name.png --quit-after-run \
>/results/$name.txt 2>&1; s=\$?; echo \"$name exit \$s\" >>/results/exits.txt; \
[ \$s = $expect ] || st=1"
}
# Run 3 (mismatch): the GUI connects to a peer that runs another scenario; both must refuse.
g1="mkdir -p -m 700 /tmp/xdg; st=0
$(guirun connect 0 --connect 10.9.0.2 --scenario "$scenario")
$(guirun serve 0 --serve --port 18516 --scenario "$serve_scenario")
$(guirun mismatch 1 --connect 10.9.0.2:18517 --scenario "$scenario")
$(guirun loopback 0 --loopback --scenario "$scenario")
exit \$st"
g2="st=0
$cli verbs --device rxe0 --scenario $scenario --server >/results/connect.txt 2>&1 || st=1
$cli verbs --device rxe0 --scenario $serve_scenario --connect 10.9.0.1 --port 18516 \
>/results/serve.txt 2>&1 || st=1
$cli verbs --device rxe0 --scenario $serve_scenario --server --port 18517 \
>/results/mismatch.txt 2>&1 && st=1
exit \$st"

rm -rf "$out"
start=$(date +%s)
# The GUI starts slowly under TCG, and the loopback run follows after guest 2 is done: give
# guest 1 more than the default 30 s of grace.
RDMASCOPE_LAB_GRACE=${RDMASCOPE_LAB_GRACE:-150} "$root/lab/run-pair.sh" --out "$out" \
  --capture-on 2 --timeout 400 --guest1 "$g1" --guest2 "$g2"
status=$?
echo "lab test: run-pair.sh took $(($(date +%s) - start)) s, status $status"
for g in 1 2; do
  for f in "$out"/guest$g/output.txt "$out"/guest$g/*.txt; do
    case $f in */dmesg.txt) continue ;; esac
    [ -s "$f" ] && { echo "--- guest $g: ${f##*/}"; cat "$f"; }
  done
done
check "both guests exit 0" test "$status" = 0

"$cli" sim "$scenario" --trace none >"$out/sim-$scenario.txt" &&
  "$cli" sim "$serve_scenario" --trace none >"$out/sim-$serve_scenario.txt"
check "simulated runs" test $? = 0

# same_as_sim WHAT LINES_FILE SIM_FILE: the lines hold exactly the simulator's lines of each
# host they or the simulator name (a passive host, e.g. the READ's responder, has none).
same_as_sim() {
  local what=$1 lines=$2 sim=$3 h
  check "$what: completions printed" test -s "$lines"
  for h in $(cut -d' ' -f1 "$lines" "$sim" | sort -u); do
    check "$what: completions of $h equal the simulator's" \
      diff <(grep "^$h wr_id " "$sim") <(grep "^$h wr_id " "$lines")
  done
}
completions() { grep -E '^[^ #:]+ wr_id [0-9]+ [A-Z_]+' "$1"; }

for run in connect serve; do
  s=$scenario
  [ $run = serve ] && s=$serve_scenario
  gui_out=$out/guest1/$run.txt
  summary=$(grep '^rdmascope: .* captured on eth0' "$gui_out" | tail -1)
  echo "GUI $run summary: $summary"
  frames=$(sed -n 's/.*: \([0-9]*\) frames\? captured on eth0 (\([0-9]*\) with a good ICRC).*/\1/p' <<<"$summary")
  good=$(sed -n 's/.*: \([0-9]*\) frames\? captured on eth0 (\([0-9]*\) with a good ICRC).*/\2/p' <<<"$summary")
  check "$run: the GUI captured frames on eth0" test "${frames:-0}" -gt 0
  check "$run: every frame the GUI captured has a good ICRC" test "${good:--1}" = "${frames:-0}"
  agree=$(sed -n 's/.* \([0-9]*\) of \([0-9]*\) lines agree with the simulator.*/\1 \2/p' <<<"$summary")
  check "$run: the GUI says every completion line agrees with the simulator" \
    awk -v a="$agree" 'BEGIN { split(a, n, " "); exit !(n[2] > 0 && n[1] == n[2]) }'
  capture=$(ls "$out"/guest1/$run/rdmascope-device-*/capture.pcap 2>/dev/null | head -1)
  check "$run: the GUI saved the capture it opened" test -n "$capture"
  if [ -n "$capture" ]; then
    verify=$("$cli" decode --verify "$capture" 2>&1 | tail -1)
    echo "decode --verify of the GUI's $run capture: $verify"
    check "$run: decode --verify: every ICRC of the GUI's capture is valid" \
      grep -q "^${frames:-x} frames: ${frames:-x} good CRC, 0 bad CRC, 0 without CRC" <<<"$verify"
  fi
  completions "$gui_out" >"$out/gui-$run-completions.txt"
  completions "$out/guest2/$run.txt" >"$out/peer-$run-completions.txt"
  check "$run: the GUI printed completions" test -s "$out/gui-$run-completions.txt"
  check "$run: the GUI and the peer played different hosts" test -z "$(comm -12 \
    <(cut -d' ' -f1 "$out/gui-$run-completions.txt" | sort -u) \
    <(cut -d' ' -f1 "$out/peer-$run-completions.txt" | sort -u))"
  cat "$out/gui-$run-completions.txt" "$out/peer-$run-completions.txt" >"$out/both-$run-completions.txt"
  same_as_sim "$run: the GUI and the peer" "$out/both-$run-completions.txt" "$out/sim-$s.txt"
done
# tcpdump on guest 2 ran through all of guest 2's command (runs 1 and 2), the GUI's capture of
# run 1 only until its run ended: the first run's frames are the first frames of tcpdump's.
connect_frames=$(sed -n 's/.*: \([0-9]*\) frames\? captured on eth0.*/\1/p' "$out/guest1/connect.txt" | tail -1)
serve_frames=$(sed -n 's/.*: \([0-9]*\) frames\? captured on eth0.*/\1/p' "$out/guest1/serve.txt" | tail -1)
peer=$("$cli" decode "$out/capture.pcap" 2>/dev/null | grep -c .)
echo "frames: GUI connect ${connect_frames:-?} + serve ${serve_frames:-?}, tcpdump on guest 2 $peer"
check "the GUI captured every frame tcpdump saw on the peer" \
  test "$((${connect_frames:-0} + ${serve_frames:-0}))" = "$peer"

check "mismatch: the GUI names the peer's other scenario in one line" \
  grep -qx "rdmascope: the peer runs scenario '$serve_scenario', not '$scenario'" "$out/guest1/mismatch.txt"
check "mismatch: so does the peer" \
  grep -q "the peer runs scenario '$scenario', not '$serve_scenario'" "$out/guest2/mismatch.txt"

loop=$out/guest1/loopback.txt
completions "$loop" >"$out/gui-loopback-completions.txt"
check "loopback: both hosts' completions in the simulator's order" \
  diff "$out/sim-$scenario.txt" "$out/gui-loopback-completions.txt"
check "loopback: says nothing was captured, and why" \
  grep -q "^rdmascope: $scenario ran with both hosts on rxe0: .* lines agree with the simulator\. Nothing was captured: rxe0 loops traffic between its own QPs back internally, so it never reaches eth0" "$loop"

for run in connect serve mismatch loopback; do
  shot=$out/guest1/$run.png
  check "$run: a screenshot came back" test -s "$shot"
  check "$run: the screenshot is a PNG" bash -c "head -c 8 '$shot' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
  check "$run: the screenshot is not blank (over 40 kB)" test "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 40000
  echo "screenshot: $shot"
done
echo "lab test: took $(($(date +%s) - start)) s in all"
if ((fail)); then echo "RESULT FAIL"; exit 1; fi
echo "RESULT PASS"
