#!/usr/bin/env bash
# The failures Debian's rping meets through the drop-in librdmacm.so.1 as rdma_cm reports them:
#   rejected     a REQ to a port nothing listens on (an rping server on host 1 listens on
#                another): host 1's CM answers with a REJ (reason 8, invalid service ID) and
#                rping gets RDMA_CM_EVENT_REJECTED, error 8; the pcap holds exactly the REQ and
#                the REJ, QP 1 to QP 1. (A host with no program attached has no CM to answer:
#                its frames go nowhere, like those to a host that is down.)
#   unreachable  an address no host of the fabric owns: RDMA_CM_EVENT_ADDR_ERROR, nothing on
#                the wire, and the fabric's log says why in one line.
# Usage: rdmacm_failure_test.sh RDMASCOPE_CLI CASE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/oracle.sh
source "$here/../support/oracle.sh"

cli=$1
case_name=$2
[ -x "$cli" ] || { echo "FAILED: $cli is not built"; exit 1; }
case $case_name in
  rejected)
    client_args=(-c -a 10.9.0.1 -p 9999 -C 1 -v)
    expect='RDMA_CM_EVENT_REJECTED, error 8'
    mads='0x0010 0x000001 0x0000000080010000|0x0012 0x000001 0x0000000080010000'
    ;;
  unreachable)
    client_args=(-c -a 10.9.0.77 -C 1 -v)
    expect='RDMA_CM_EVENT_ADDR_ERROR'
    mads=''
    ;;
  *) echo "FAILED: unknown case $case_name"; exit 1 ;;
esac
oracle_require rping tshark

tmp=$(mktemp -d)
fabric_pid=
server_pid=
cleanup() {
  for pid in $server_pid $fabric_pid; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

socket=$tmp/fabric.sock
pcap=$tmp/fabric.pcap
"$cli" fabric --socket "$socket" --hosts 2 --pcap "$pcap" >"$tmp/fabric.log" 2>&1 &
fabric_pid=$!
for _ in $(seq 100); do
  [ -S "$socket" ] && break
  kill -0 "$fabric_pid" 2>/dev/null || { echo "FAILED: the fabric exited:"; cat "$tmp/fabric.log"; exit 1; }
  sleep 0.1
done
[ -S "$socket" ] || { echo "FAILED: the fabric made no socket at $socket"; cat "$tmp/fabric.log"; exit 1; }

if [ "$case_name" = rejected ]; then
  "$cli" exec --fabric "$socket" --host 1 -- rping -s -a 10.9.0.1 -p 7174 -C 1 >"$tmp/server.out" 2>&1 &
  server_pid=$!
  sleep 1
fi
status=0
timeout 30 "$cli" exec --fabric "$socket" --host 2 -- rping "${client_args[@]}" >"$tmp/client.out" 2>&1 || status=$?
if [ -n "$server_pid" ]; then
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
fi
kill -INT "$fabric_pid" 2>/dev/null || true
wait "$fabric_pid" 2>/dev/null || true
fabric_pid=

show() {
  echo "--- rping"
  cat "$tmp/client.out"
  echo "--- fabric.log"
  cat "$tmp/fabric.log"
}
if [ "$status" = 0 ] || [ "$status" = 124 ]; then
  echo "FAILED: rping exited with $status, not with its error status"
  show
  exit 1
fi
grep -qF -- "$expect" "$tmp/client.out" || { echo "FAILED: rping does not report '$expect'"; show; exit 1; }
if [ "$case_name" = unreachable ]; then
  grep -q 'rdma_resolve_addr(10.9.0.77): no host of the fabric has this address' "$tmp/fabric.log" ||
    { echo "FAILED: the fabric's log does not say why"; show; exit 1; }
fi

tshark=$(oracle_path tshark)
got=$("$tshark" -n -r "$pcap" -Y infiniband.mad -T fields -e infiniband.mad.attributeid \
  -e infiniband.bth.destqp -e infiniband.deth.q_key 2>/dev/null | tr '\t' ' ' | paste -sd'|')
if [ "$got" != "$mads" ]; then
  echo "FAILED: the pcap's CM MADs are '$got', expected '$mads'"
  show
  exit 1
fi
echo "ok: rping $case_name: '$expect', CM MADs '${mads:-none}'"
