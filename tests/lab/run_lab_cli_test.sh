#!/usr/bin/env bash
# ctest driver of lab.cli: `rdmascope-cli lab run NAME` for rdmascope scenarios on real rxe
# between the two qemu guests, then for each:
#  - the run succeeds (both sides' scenario steps, with their completion expectations, passed,
#    and `decode --verify` found every ICRC of the capture valid);
#  - the completions each guest printed equal the simulator's for that host (`sim NAME`);
#  - parity: the real packet sequence and the simulated one have the same shape
#    (packet_shape.py: opcodes, payload lengths, relative PSNs, ACK/NAK syndromes; it says
#    which fields it ignores and why);
#  - verbs --bench write (bandwidth and --lat) between the guests prints perftest's columns,
#    and before it `verbs --cm` errors are one clear line each (unknown host, no route, REJ).
# A scenario written cm:NAME runs with `lab run NAME --cm` (the rdma_cm connects the QPs): the
# same checks (packet_shape.py leaves out the CM's packets to QP 1), and cm_handshake.py checks
# those with tshark: REQ, REP, RTU, DREQ, DREP to QP 1, rdmascope's private data in REQ and REP,
# and the data packets use the QPNs and PSNs the CM announced.
# Usage: run_lab_cli_test.sh RDMASCOPE_CLI OUT_DIR [SCENARIO...] (default rc-send-recv rc-read)
set -uo pipefail
cli=$(realpath "$1")  # the guests run it by absolute path
out=$2
shift 2
scenarios=("$@")
((${#scenarios[@]})) || scenarios=(rc-send-recv rc-read)
here=$(cd "$(dirname "$0")" && pwd)

# Without the lab, the cli or (for a cm: scenario) tshark: skipped (77) naming what is
# missing, failed under RDMASCOPE_REQUIRE_ORACLES=1.
source "$here/../support/oracle.sh"
needs=(lab "$cli")
[[ " ${scenarios[*]}" == *" cm:"* ]] && needs+=(tshark)
oracle_require "${needs[@]}"

mkdir -p "$out" # each scenario's report goes to $out/NAME.log before `lab run` makes its folder
fail=0
failed=()     # the checks that failed, named again at the end
scenario_ok=1 # whether every check of the current scenario passed
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then
    echo "CHECK $what ok"
  else
    echo "CHECK $what FAIL"
    fail=1
    scenario_ok=0
    failed+=("$what")
  fi
}

for entry in "${scenarios[@]}"; do
  s=${entry#cm:}
  cm=()
  [ "$s" = "$entry" ] || cm=(--cm)
  dir=$out/${cm:+cm-}$s
  rm -rf "$dir"
  scenario_ok=1
  start=$(date +%s)
  # The run's long report (both guests' outputs) is printed only if a check of this scenario
  # fails, so that a failure's details are not buried under the passing scenarios' reports.
  "$cli" lab run "$s" --out "$dir" --timeout 60 "${cm[@]}" >"$dir.log" 2>&1
  status=$?
  echo "lab test: lab run $s ${cm[*]} took $(($(date +%s) - start)) s, status $status"
  s="$s${cm:+ (--cm)}"
  name=${entry#cm:}
  check "$s: lab run (steps, expectations, ICRC of every captured frame)" test "$status" = 0
  check "$s: capture verifies" "$cli" decode --verify "$dir/capture.pcap"

  "$cli" sim "$name" --trace none --pcap "$dir/sim.pcap" >"$dir/sim-completions.txt"
  check "$s: simulated run" test $? = 0
  # Each guest prints its own host's completions; per host, in order, they must equal the
  # simulator's (the format leaves out QPNs, which differ between runs).
  cat "$dir/guest1/output.txt" "$dir/guest2/output.txt" | grep -E '^[^ #]+ wr_id [0-9]+ [A-Z_]+' \
    >"$dir/real-completions.txt"
  check "$s: real rxe produced completions" test -s "$dir/real-completions.txt"
  for h in $(cut -d' ' -f1 "$dir/sim-completions.txt" "$dir/real-completions.txt" | sort -u); do
    check "$s: completions of $h equal the simulator's" \
      diff <(grep "^$h wr_id " "$dir/sim-completions.txt") \
      <(grep "^$h wr_id " "$dir/real-completions.txt")
  done
  python3 "$here/packet_shape.py" "$dir/capture.pcap" "$dir/sim.pcap"
  check "$s: parity of the real and simulated packet sequences" test $? = 0
  if ((${#cm[@]})); then
    python3 "$here/cm_handshake.py" "$dir/capture.pcap"
    check "$s: the capture holds the CM handshake (tshark), QPNs and PSNs as the CM announced" test $? = 0
    check "$s: both sides said what the CM did" grep -q "rdma_establish: RTU sent" "$dir/guest2/output.txt"
  fi
  if ((!scenario_ok)); then
    echo "# the report of lab run $s ($dir.log):"
    cat "$dir.log"
  fi
done

# verbs --bench on real rxe: the client prints perftest's columns with positive figures.
bench=$out/bench
rm -rf "$bench"
specs="'write 65536' 'write 64 --lat'"
# Before it, guest 2 meets the rdma_cm's errors: an unknown host, no route, and a REJ from
# guest 1, where only a TCP listener (busybox nc) waits on port 18600 and no rdma_cm listens.
g1="(busybox nc -l -p 18600 </dev/null >/dev/null 2>&1 &); for spec in $specs; do set -- \$spec; $cli verbs --device rxe0 --bench \$1 --size \$2 \$3 --iters 200 --server --port 18710 || exit 1; done"
cmerr="for h in no-such-host.invalid 192.168.77.1 '10.9.0.1 --port 18600'; do $cli verbs --cm --scenario rc-write --connect \$h 2>&1 | grep -v '^#' >>/results/cm-errors.txt; done"
# Guest 2 waits until guest 1 answers on the lab network: were guest 1 still booting, the REJ
# case would meet an unreachable host instead of guest 1's rdma_cm.
g2="n=0; until ping -c 1 -W 1 10.9.0.1 >/dev/null 2>&1; do n=\$((n + 1)); [ \$n -lt 60 ] || exit 1; done; sleep 2; $cmerr; for spec in $specs; do set -- \$spec; $cli verbs --device rxe0 --bench \$1 --size \$2 \$3 --iters 200 --connect 10.9.0.1 --port 18710 || exit 1; sleep 1; done"
"$here/../../lab/run-pair.sh" --out "$bench" --capture-on none --timeout 60 --guest1 "$g1" --guest2 "$g2"
check "bench: both sides exit 0" test $? = 0
errors=$bench/guest2/cm-errors.txt
cat "$errors"
check "cm errors: unknown host" grep -qx "rdmascope-cli: rdma_cm: unknown host 'no-such-host.invalid': .*" "$errors"
check "cm errors: no route" grep -qx "rdmascope-cli: rdma_cm: no route to 192.168.77.1:18515: Network is unreachable" "$errors"
check "cm errors: connection rejected, with the reason" grep -qx "rdmascope-cli: rdma_cm: connection rejected by 10.9.0.1:18600: invalid service ID (nothing listens on that port)" "$errors"
check "cm errors: one line each" test "$(wc -l <"$errors")" = 3
report=$bench/guest2/output.txt
check "bench: bandwidth columns" grep -qx ' #bytes     #iterations    BW peak\[MB/sec\]    BW average\[MB/sec\]   MsgRate\[Mpps\]' "$report"
check "bench: latency columns" grep -q '^ #bytes #iterations    t_min\[usec\]    t_max\[usec\]  t_typical\[usec\]    t_avg\[usec\]    t_stdev\[usec\]   99% percentile\[usec\]   99.9% percentile\[usec\]$' "$report"
check "bench: write bandwidth figures" awk '$1 == 65536 && $2 == 200 && $3 > 0 && $4 > 0 && $4 <= $3 + 0.01 && $5 > 0 {ok = 1} END {exit !ok}' "$report"
check "bench: write latency figures" awk '$1 == 64 && $2 == 200 && NF == 9 && $3 > 0 && $3 <= $5 && $5 <= $4 {ok = 1} END {exit !ok}' "$report"
if ((fail)); then
  echo "RESULT FAIL: ${#failed[@]} check(s) failed:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "RESULT PASS"
