#!/usr/bin/env bash
# ctest driver of the lab test: run-pair.sh with rdmascope_lab_verbs on both guests, then the
# checks on what came back. Usage: run_lab_verbs_test.sh PROGRAM OUT_DIR
set -uo pipefail
program=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${RDMASCOPE_SKIP_LAB:-0}" = 1 ]; then
  echo "lab test skipped: RDMASCOPE_SKIP_LAB=1"
  exit 77
fi
[ -x "$program" ] || { echo "lab test: $program is not built"; exit 1; }

start=$(date +%s)
"$root/lab/run-pair.sh" --out "$out" --timeout 150 \
  --guest1 "$program --server" --guest2 "$program --connect 10.9.0.1"
status=$?
echo "lab test: run-pair.sh took $(($(date +%s) - start)) s, status $status"
for g in 1 2; do
  echo "--- guest $g output"
  cat "$out/guest$g/output.txt" 2>/dev/null
done
[ $status -eq 0 ] || { echo "lab test: FAILED (run-pair.sh status $status)"; exit 1; }

fail=0
for g in 1 2; do
  grep -qx 'RESULT PASS' "$out/guest$g/output.txt" || { echo "lab test: guest $g did not pass"; fail=1; }
  if grep -q ' FAIL' "$out/guest$g/output.txt"; then fail=1; fi
done
# Checks each side must have made (a missing line is as bad as a failed one).
for c in send_with_imm_completion send_inline_completion rdma_write_completion \
  rdma_write_with_imm_completion rdma_read_completion rdma_read_data fetch_add_completion \
  fetch_add_original cmp_swap_completion cmp_swap_original rdma_write_out_of_bounds_error; do
  grep -q "^CHECK $c ok" "$out/guest2/output.txt" || { echo "lab test: client check $c missing"; fail=1; }
done
for c in recv_send_with_imm_completion recv_send_imm_data recv_send_data recv_send_inline_data \
  recv_rdma_write_with_imm_completion recv_rdma_write_imm_data rdma_write_data \
  rdma_write_with_imm_data atomic_counter_final; do
  grep -q "^CHECK $c ok" "$out/guest1/output.txt" || { echo "lab test: server check $c missing"; fail=1; }
done
# The capture on guest 1 is real RoCEv2: every ICRC checks out, and each operation is on the wire.
python3 "$root/lab/check_icrc.py" "$out/capture.pcap" --expect-opcodes \
  SEND_FIRST,SEND_MIDDLE,SEND_LAST_IMM,SEND_ONLY,WRITE_FIRST,WRITE_LAST,WRITE_ONLY_IMM,READ_REQUEST,READ_RESPONSE_FIRST,READ_RESPONSE_LAST,FETCH_ADD,COMPARE_SWAP,ATOMIC_ACKNOWLEDGE,ACKNOWLEDGE ||
  fail=1
[ $fail -eq 0 ] && echo "lab test: PASSED" || echo "lab test: FAILED"
exit $fail
