#!/usr/bin/env bash
# ctest driver of ui.device_lab: the GUI runs a scenario on a real RDMA device with a peer
# machine, in the Soft-RoCE lab. One boot of the pair (lab/run-pair.sh):
#  - guest 2 (10.9.0.2) runs `rdmascope-cli verbs --device rxe0 --scenario NAME --server`
#    (host 0 of the scenario) and tcpdump on its eth0 (an independent capture);
#  - guest 1 runs the GUI (offscreen, as root: it may capture) with `--device rxe0 --connect
#    10.9.0.2 --scenario NAME --screenshot ... --quit-after-run` (host 1), capturing on eth0.
# Checks: both exit 0; the GUI captured frames on eth0 (> 0), every ICRC valid (its summary
# line and `decode --verify` of the capture it saved), as many frames as tcpdump saw on the
# peer; its completions and the peer's equal the simulator's for each host (QPNs are not
# printed: they differ between runs); the GUI says every line agrees; a PNG screenshot came
# back. Usage: run_gui_device_lab_test.sh RDMASCOPE RDMASCOPE_CLI OUT_DIR [SCENARIO]
set -uo pipefail
gui=$(realpath "$1") # the guests run them by absolute path
cli=$(realpath "$2")
out=$3
scenario=${4:-rc-send-recv}
root=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${RDMASCOPE_SKIP_LAB:-0}" = 1 ]; then
  echo "lab test skipped: RDMASCOPE_SKIP_LAB=1"
  exit 77
fi
for p in "$gui" "$cli"; do [ -x "$p" ] || { echo "lab test: $p is not built"; exit 1; }; done

fail=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "CHECK $what ok"; else echo "CHECK $what FAIL"; fail=1; fi
}

# The guest's root is the host's, read-only: Qt's runtime and temporary folders go to tmpfs
# and /results (where the GUI also saves its capture, so that it comes back to the host).
g1="mkdir -p -m 700 /tmp/xdg && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/xdg \
TMPDIR=/results $gui --device rxe0 --connect 10.9.0.2 --scenario $scenario \
--screenshot /results/gui.png --quit-after-run"
g2="$cli verbs --device rxe0 --scenario $scenario --server"

rm -rf "$out"
start=$(date +%s)
# The GUI starts slowly under TCG and, after the peer is done, still saves, opens and analyses
# its capture and takes the screenshot: give it more than the default 30 s of grace.
RDMASCOPE_LAB_GRACE=${RDMASCOPE_LAB_GRACE:-120} "$root/lab/run-pair.sh" --out "$out" \
  --capture-on 2 --timeout 200 --guest1 "$g1" --guest2 "$g2"
status=$?
echo "lab test: run-pair.sh took $(($(date +%s) - start)) s, status $status"
for g in 1 2; do
  echo "--- guest $g output"
  cat "$out/guest$g/output.txt" 2>/dev/null
done
check "both guests exit 0" test "$status" = 0

gui_out=$out/guest1/output.txt
summary=$(grep '^rdmascope: .* frames\? captured on eth0' "$gui_out" | tail -1)
echo "GUI summary: $summary"
frames=$(sed -n 's/.*: \([0-9]*\) frames\? captured on eth0 (\([0-9]*\) with a good ICRC).*/\1/p' <<<"$summary")
good=$(sed -n 's/.*: \([0-9]*\) frames\? captured on eth0 (\([0-9]*\) with a good ICRC).*/\2/p' <<<"$summary")
check "the GUI captured frames on eth0" test "${frames:-0}" -gt 0
check "every frame the GUI captured has a good ICRC" test "${good:--1}" = "${frames:-0}"
agree=$(sed -n 's/.* \([0-9]*\) of \([0-9]*\) lines agree with the simulator.*/\1 \2/p' <<<"$summary")
check "the GUI says every completion line agrees with the simulator" \
  awk -v a="$agree" 'BEGIN { split(a, n, " "); exit !(n[2] > 0 && n[1] == n[2]) }'

capture=$(ls "$out"/guest1/rdmascope-device-*/capture.pcap 2>/dev/null | head -1)
check "the GUI saved its capture" test -n "$capture"
if [ -n "$capture" ]; then
  verify=$("$cli" decode --verify "$capture" 2>&1 | tail -1)
  echo "decode --verify of the GUI's capture: $verify"
  check "decode --verify: every ICRC of the GUI's capture is valid" \
    grep -q "^${frames:-x} frames: ${frames:-x} good CRC, 0 bad CRC, 0 without CRC" <<<"$verify"
  peer=$("$cli" decode "$out/capture.pcap" 2>/dev/null | grep -c .)
  echo "frames: GUI on guest 1 ${frames:-?}, tcpdump on guest 2 $peer"
  check "the GUI captured every frame tcpdump saw on the peer" test "${frames:-0}" = "$peer"
fi

"$cli" sim "$scenario" --trace none >"$out/sim-completions.txt"
check "simulated run" test $? = 0
for g in 1 2; do
  grep -E '^[^ #:]+ wr_id [0-9]+ [A-Z_]+' "$out/guest$g/output.txt" >"$out/real-completions-$g.txt"
  check "guest $g printed completions" test -s "$out/real-completions-$g.txt"
  h=$(cut -d' ' -f1 "$out/real-completions-$g.txt" | sort -u)
  check "guest $g printed one host's completions" test "$(wc -w <<<"$h")" = 1
  check "guest $g's completions ($h) equal the simulator's" \
    diff <(grep "^$h wr_id " "$out/sim-completions.txt") "$out/real-completions-$g.txt"
done

shot=$out/guest1/gui.png
check "a screenshot came back" test -s "$shot"
check "the screenshot is a PNG" bash -c "head -c 8 '$shot' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
check "the screenshot is not blank (over 40 kB)" test "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 40000
echo "screenshot: $shot"
echo "lab test: took $(($(date +%s) - start)) s in all"
if ((fail)); then echo "RESULT FAIL"; exit 1; fi
echo "RESULT PASS"
