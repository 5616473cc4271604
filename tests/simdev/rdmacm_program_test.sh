#!/usr/bin/env bash
# Runs Debian's unmodified rdma_cm programs on the simulated fabric through the drop-in
# librdmacm.so.1: starts `rdmascope-cli fabric` (optionally lossy), runs the server attached to
# host 1 (10.9.0.1) and the client attached to host 2, checks that both exit with status 0 with
# their usual output, and that the fabric's pcap holds the CM handshake as tshark decodes it:
# the CM MADs (attribute IDs) in the order rdma_cm sends them, from QP 1 to QP 1.
# Usage: rdmacm_program_test.sh RDMASCOPE_CLI CASE [LOSS]
#   CASE: rping, ucmatose, udaddy, send_bw (ib_send_bw -R), send_bw_ud (ib_send_bw -R -c UD),
#         rejected (rping against a host where nothing listens), unreachable (an address no
#         host owns)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/oracle.sh
source "$here/../support/oracle.sh"

cli=$1
case_name=$2
loss=${3:-0}
[ -x "$cli" ] || { echo "FAILED: $cli is not built"; exit 1; }

server=10.9.0.1
# program, server arguments, client arguments, the CM messages the pcap must show (tshark's
# attribute IDs: 0x0010 REQ, 0x0012 REJ, 0x0013 REP, 0x0014 RTU, 0x0015 DREQ, 0x0016 DREP,
# 0x0017 SIDR_REQ, 0x0018 SIDR_REP), what the client's output must contain
client_fails=0
case $case_name in
  rping)
    program=rping
    server_args=(-s -a "$server" -C 3 -S 3000 -v)
    client_args=(-c -a "$server" -C 3 -S 3000 -v)
    cm=(0x0010 0x0013 0x0014 0x0015 0x0016)
    expect='ping data: rdma-ping-2: '
    ;;
  ucmatose)
    program=ucmatose
    server_args=()
    client_args=(-s "$server")
    cm=(0x0010 0x0013 0x0014 0x0015 0x0016)
    expect='data transfers complete'
    ;;
  udaddy)
    program=udaddy
    server_args=()
    client_args=(-s "$server")
    cm=(0x0017 0x0018)
    expect='data transfers complete'
    ;;
  send_bw)
    program=ib_send_bw
    server_args=(-d rdmascope0 -x 1 -R -n 200 -F)
    client_args=("${server_args[@]}" "$server")
    cm=(0x0010 0x0013 0x0014)
    expect='^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+'
    ;;
  send_bw_ud)
    program=ib_send_bw
    server_args=(-d rdmascope0 -x 1 -R -c UD -n 200 -F)
    client_args=("${server_args[@]}" "$server")
    cm=(0x0017 0x0018)
    expect='^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+'
    ;;
  rejected)
    program=rping
    server_args=()
    client_args=(-c -a "$server" -C 1 -v)
    cm=(0x0010 0x0012)
    expect='RDMA_CM_EVENT_REJECTED, error 8'
    client_fails=1
    ;;
  unreachable)
    program=rping
    server_args=()
    client_args=(-c -a 10.9.0.77 -C 1 -v)
    cm=()
    expect='RDMA_CM_EVENT_ADDR_ERROR'
    client_fails=1
    ;;
  *) echo "FAILED: unknown case $case_name"; exit 1 ;;
esac
oracle_require "$program" tshark

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
"$cli" fabric --socket "$socket" --hosts 2 --loss "$loss" --pcap "$pcap" >"$tmp/fabric.log" 2>&1 &
fabric_pid=$!
for _ in $(seq 100); do
  [ -S "$socket" ] && break
  kill -0 "$fabric_pid" 2>/dev/null || { echo "FAILED: the fabric exited:"; cat "$tmp/fabric.log"; exit 1; }
  sleep 0.1
done
[ -S "$socket" ] || { echo "FAILED: the fabric made no socket at $socket"; cat "$tmp/fabric.log"; exit 1; }

show() {
  for f in "$@"; do echo "--- $(basename "$f")"; cat "$f"; done
  echo "--- fabric.log"
  cat "$tmp/fabric.log"
}

files=("$tmp/client.out")
if [ "$case_name" != rejected ] && [ "$case_name" != unreachable ]; then
  timeout 120 "$cli" exec --fabric "$socket" --host 1 -- "$program" "${server_args[@]}" \
    >"$tmp/server.out" 2>&1 &
  server_pid=$!
  files=("$tmp/server.out" "$tmp/client.out")
  # The server listens once its id is bound: nothing of it shows outside the simulation, so
  # give it the time a program takes to start (a REQ before rdma_listen is rejected).
  sleep 2
fi
client_status=0
timeout 120 "$cli" exec --fabric "$socket" --host 2 -- "$program" "${client_args[@]}" \
  >"$tmp/client.out" 2>&1 || client_status=$?
server_status=0
if [ -n "$server_pid" ]; then
  wait "$server_pid" || server_status=$?
  server_pid=
fi

if [ "$client_fails" = 1 ]; then
  [ "$client_status" != 0 ] || { echo "FAILED: $program should fail"; show "${files[@]}"; exit 1; }
else
  if [ "$server_status" != 0 ] || [ "$client_status" != 0 ]; then
    echo "FAILED: $program exited with $server_status (server) and $client_status (client)"
    show "${files[@]}"
    exit 1
  fi
fi
grep -qE "$expect" "$tmp/client.out" || { echo "FAILED: the client's output lacks /$expect/"; show "${files[@]}"; exit 1; }

# The CM MADs in the pcap: each expected message at least once, in order of first appearance,
# all on QP 1 with the GSI's Q_Key.
kill "$fabric_pid" 2>/dev/null || true
wait "$fabric_pid" 2>/dev/null || true
fabric_pid=
tshark=$(oracle_path tshark)
mads=$("$tshark" -r "$pcap" -Y infiniband.mad -T fields -e infiniband.mad.attributeid \
  -e infiniband.bth.destqp -e infiniband.deth.q_key 2>"$tmp/tshark.err") || { echo "FAILED: tshark could not read the pcap"; cat "$tmp/tshark.err"; exit 1; }
order=()
while read -r attr qp qkey; do
  [ -n "$attr" ] || continue
  if [ "$qp" != 0x000001 ] || [ "$qkey" != 0x80010000 ]; then
    echo "FAILED: a CM MAD ($attr) to QP $qp with Q_Key $qkey, not to the GSI"; exit 1
  fi
  seen=0
  for a in "${order[@]}"; do [ "$a" = "$attr" ] && seen=1; done
  [ "$seen" = 1 ] || order+=("$attr")
done <<<"$mads"
if [ "${order[*]}" != "${cm[*]}" ]; then
  echo "FAILED: the pcap's CM messages are (${order[*]}), expected (${cm[*]})"
  echo "$mads"
  show "${files[@]}"
  exit 1
fi
echo "ok: $program on the fabric (loss $loss): CM messages ${order[*]}, $(wc -l <<<"$mads") MADs in all"
