#!/usr/bin/env bash
# ctest driver of lab.cli: `rdmascope-cli lab run NAME` for rdmascope scenarios on real rxe
# between the two qemu guests, then for each:
#  - the run succeeds (both sides' scenario steps, with their completion expectations, passed,
#    and `decode --verify` found every ICRC of the capture valid);
#  - the completions each guest printed equal the simulator's for that host (`sim NAME`);
#  - parity: the real packet sequence and the simulated one have the same shape
#    (packet_shape.py: opcodes, payload lengths, relative PSNs, ACK/NAK syndromes; it says
#    which fields it ignores and why).
# Usage: run_lab_cli_test.sh RDMASCOPE_CLI OUT_DIR [SCENARIO...] (default rc-send-recv rc-read)
set -uo pipefail
cli=$1
out=$2
shift 2
scenarios=("$@")
((${#scenarios[@]})) || scenarios=(rc-send-recv rc-read)
here=$(cd "$(dirname "$0")" && pwd)

if [ "${RDMASCOPE_SKIP_LAB:-0}" = 1 ]; then
  echo "lab test skipped: RDMASCOPE_SKIP_LAB=1"
  exit 77
fi
[ -x "$cli" ] || { echo "lab test: $cli is not built"; exit 1; }

fail=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "CHECK $what ok"; else echo "CHECK $what FAIL"; fail=1; fi
}

for s in "${scenarios[@]}"; do
  dir=$out/$s
  rm -rf "$dir"
  start=$(date +%s)
  "$cli" lab run "$s" --out "$dir" --timeout 60
  status=$?
  echo "lab test: lab run $s took $(($(date +%s) - start)) s, status $status"
  check "$s: lab run (steps, expectations, ICRC of every captured frame)" test "$status" = 0
  check "$s: capture verifies" "$cli" decode --verify "$dir/capture.pcap"

  "$cli" sim "$s" --trace none --pcap "$dir/sim.pcap" >"$dir/sim-completions.txt"
  check "$s: simulated run" test $? = 0
  # Each guest prints its own host's completions; per host, in order, they must equal the
  # simulator's (the format leaves out QPNs, which differ between runs).
  cat "$dir/guest1/output.txt" "$dir/guest2/output.txt" | grep ' wr_id ' | grep -v '^#' \
    >"$dir/real-completions.txt"
  check "$s: real rxe produced completions" test -s "$dir/real-completions.txt"
  for h in $(cut -d' ' -f1 "$dir/sim-completions.txt" "$dir/real-completions.txt" | sort -u); do
    check "$s: completions of $h equal the simulator's" \
      diff <(grep "^$h wr_id " "$dir/sim-completions.txt") \
      <(grep "^$h wr_id " "$dir/real-completions.txt")
  done
  python3 "$here/packet_shape.py" "$dir/capture.pcap" "$dir/sim.pcap"
  check "$s: parity of the real and simulated packet sequences" test $? = 0
done
if ((fail)); then echo "RESULT FAIL"; exit 1; fi
echo "RESULT PASS"
