#!/usr/bin/env bash
# ctest driver of the lab test. One boot of the pair (lab/run-pair.sh) runs rdmascope_lab_verbs
# twice between the guests: once on a clean link (port 18600), then with netem dropping 20% of
# guest 2's frames (port 18601, 5 rounds; the client busy-polls its CQ, the server sleeps on
# the completion channel). Then it checks both sides' results and that the
# capture on guest 1 is real RoCEv2 carrying every operation and the retransmissions.
# Usage: run_lab_verbs_test.sh PROGRAM OUT_DIR
set -uo pipefail
program=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)

# Without the lab or the program: skipped (77) naming what is missing, failed under
# RDMASCOPE_REQUIRE_ORACLES=1.
source "$root/tests/support/oracle.sh"
oracle_require lab "$program"

server="$program --server --port 18600 >/results/clean.txt 2>&1; a=\$?;
  $program --server --port 18601 --rounds 5 >/results/lossy.txt 2>&1 && exit \$a"
client="$program --connect 10.9.0.1 --port 18600 >/results/clean.txt 2>&1; a=\$?;
  tc qdisc add dev eth0 root netem loss 20% || exit 1;
  $program --connect 10.9.0.1 --port 18601 --rounds 5 --busy-poll >/results/lossy.txt 2>&1 && exit \$a"

start=$(date +%s)
"$root/lab/run-pair.sh" --out "$out" --timeout 150 --guest1 "$server" --guest2 "$client"
status=$?
echo "lab test: run-pair.sh took $(($(date +%s) - start)) s, status $status"
for g in 1 2; do
  for run in clean lossy; do
    [ -f "$out/guest$g/$run.txt" ] || continue
    echo "--- guest $g, $run link"
    grep -v ' ok' "$out/guest$g/$run.txt"
    echo "($(grep -c ' ok' "$out/guest$g/$run.txt") checks ok)"
  done
  [ -s "$out/guest$g/output.txt" ] && { echo "--- guest $g, command output"; cat "$out/guest$g/output.txt"; }
done
[ $status -eq 0 ] || { echo "lab test: FAILED (run-pair.sh status $status)"; exit 1; }

fail=0
for g in 1 2; do
  for run in clean lossy; do
    grep -qx 'RESULT PASS' "$out/guest$g/$run.txt" || { echo "lab test: guest $g did not pass on the $run link"; fail=1; }
  done
done
# Checks each side must have made (a missing line is as bad as a failed one).
for c in r0.send_with_imm_completion r0.send_inline_completion r0.rdma_write_completion \
  r0.rdma_write_with_imm_completion r0.rdma_read_completion r0.rdma_read_data \
  r0.fetch_add_completion r0.fetch_add_original r0.cmp_swap_completion r0.cmp_swap_original \
  r4.rdma_read_data r4.cmp_swap_original ud_send_completion rdma_write_out_of_bounds_error \
  qp_in_error_after_remote_access_error; do
  for run in clean lossy; do
    [[ $run == clean && $c == r4.* ]] && continue
    grep -q "^CHECK $c ok" "$out/guest2/$run.txt" || { echo "lab test: client check $c missing ($run)"; fail=1; }
  done
done
for c in r0.recv_send_with_imm_completion r0.recv_send_imm_data r0.recv_send_data \
  r0.recv_send_inline_data r0.recv_rdma_write_with_imm_completion r0.recv_rdma_write_imm_data \
  r0.rdma_write_data r0.rdma_write_with_imm_data r0.atomic_counter_final r4.rdma_write_data \
  ud_recv_completion ud_recv_flags_imm ud_recv_qp_numbers ud_recv_grh_ipv4_source ud_recv_data; do
  for run in clean lossy; do
    [[ $run == clean && $c == r4.* ]] && continue
    grep -q "^CHECK $c ok" "$out/guest1/$run.txt" || { echo "lab test: server check $c missing ($run)"; fail=1; }
  done
done
grep -qx 'capture_dropped 0' "$out/summary.txt" || { echo "lab test: tcpdump dropped packets"; fail=1; }
# The capture on guest 1 is real RoCEv2: every ICRC checks out, each operation is on the wire,
# and the lossy run shows retransmitted requests.
python3 "$root/lab/check_icrc.py" "$out/capture.pcap" --expect-retransmit --expect-opcodes \
  SEND_FIRST,SEND_MIDDLE,SEND_LAST_IMM,SEND_ONLY,WRITE_FIRST,WRITE_LAST,WRITE_ONLY_IMM,READ_REQUEST,READ_RESPONSE_FIRST,READ_RESPONSE_LAST,FETCH_ADD,COMPARE_SWAP,ATOMIC_ACKNOWLEDGE,ACKNOWLEDGE,UD_SEND_ONLY_IMM ||
  fail=1
[ $fail -eq 0 ] && echo "lab test: PASSED" || echo "lab test: FAILED"
exit $fail
