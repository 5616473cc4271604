#!/usr/bin/env bash
# Runs Debian's unmodified verbs programs on the simulated fabric: starts `rdmascope-cli fabric`
# on a socket in a temporary folder, runs the server attached to host 1 and the client attached
# to host 2 (`rdmascope-cli exec --host N -- PROGRAM ...`, which puts the drop-in libibverbs.so.1
# first on the loader path), and checks that both exit with status 0 and print their usual
# report.
# Usage: verbs_program_test.sh RDMASCOPE_CLI CASE PORT
#   CASE: devinfo, rc_pingpong, uc_pingpong, ud_pingpong, srq_pingpong, rc_pingpong_events,
#         send_bw, send_bw_ud, write_bw, read_bw, atomic_bw, send_lat, write_lat, read_lat,
#         atomic_lat
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/oracle.sh
source "$here/../support/oracle.sh"

cli=$1
case_name=$2
port=$3
[ -x "$cli" ] || { echo "FAILED: $cli is not built"; exit 1; }

# program, server arguments (the client adds "localhost"), what both reports must contain
dev=(-d rdmascope0)
case $case_name in
  devinfo) program=ibv_devinfo ;;
  rc_pingpong) program=ibv_rc_pingpong; args=("${dev[@]}" -g 1 -n 200 -p "$port") ;;
  rc_pingpong_events) program=ibv_rc_pingpong; args=("${dev[@]}" -g 1 -n 200 -e -p "$port") ;;
  uc_pingpong) program=ibv_uc_pingpong; args=("${dev[@]}" -g 1 -n 200 -p "$port") ;;
  ud_pingpong) program=ibv_ud_pingpong; args=("${dev[@]}" -g 1 -n 200 -s 512 -p "$port") ;;
  srq_pingpong) program=ibv_srq_pingpong; args=("${dev[@]}" -g 1 -n 200 -p "$port") ;;
  send_bw) program=ib_send_bw; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  send_bw_ud) program=ib_send_bw; args=("${dev[@]}" -x 1 -n 200 -F -c UD -p "$port") ;;
  write_bw) program=ib_write_bw; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  read_bw) program=ib_read_bw; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  atomic_bw) program=ib_atomic_bw; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  send_lat) program=ib_send_lat; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  write_lat) program=ib_write_lat; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  read_lat) program=ib_read_lat; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  atomic_lat) program=ib_atomic_lat; args=("${dev[@]}" -x 1 -n 200 -F -p "$port") ;;
  *) echo "FAILED: unknown case $case_name"; exit 1 ;;
esac
oracle_require "$program"

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
"$cli" fabric --socket "$socket" --hosts 2 --pcap "$tmp/fabric.pcap" >"$tmp/fabric.log" 2>&1 &
fabric_pid=$!
for _ in $(seq 100); do
  [ -S "$socket" ] && break
  kill -0 "$fabric_pid" 2>/dev/null || { echo "FAILED: the fabric exited:"; cat "$tmp/fabric.log"; exit 1; }
  sleep 0.1
done
[ -S "$socket" ] || { echo "FAILED: the fabric made no socket at $socket"; cat "$tmp/fabric.log"; exit 1; }
export RDMASCOPE_FABRIC=$socket

show() {
  for f in "$@"; do echo "--- $(basename "$f")"; cat "$f"; done
  echo "--- fabric.log"
  cat "$tmp/fabric.log"
}

if [ "$case_name" = devinfo ]; then
  status=0
  timeout 30 "$cli" exec --fabric "$socket" --host 1 -- ibv_devinfo -v >"$tmp/devinfo.out" 2>&1 || status=$?
  expected=("hca_id:	rdmascope0" "transport:			InfiniBand (0)" "vendor_id:			0xffffff"
    "state:			PORT_ACTIVE (4)" "link_layer:		Ethernet" "max_msg_sz:		0x800000"
    "GID[  0]:		fe80:" "GID[  1]:		::ffff:10.9.0.1, RoCE v2")
  for e in "${expected[@]}"; do
    grep -qF -- "$e" "$tmp/devinfo.out" || { echo "FAILED: ibv_devinfo -v lacks '$e'"; show "$tmp/devinfo.out"; exit 1; }
  done
  [ "$status" = 0 ] || { echo "FAILED: ibv_devinfo exited with $status"; show "$tmp/devinfo.out"; exit 1; }
  echo "ok: ibv_devinfo -v on host 1"
  exit 0
fi

timeout 60 "$cli" exec --fabric "$socket" --host 1 -- "$program" "${args[@]}" >"$tmp/server.out" 2>&1 &
server_pid=$!
# The client connects once the server listens on its TCP port (a probe connection would be
# taken for the client, so the port is looked up in /proc/net/tcp instead).
hexport=$(printf '%04X' "$port")
for _ in $(seq 200); do
  awk -v p=":$hexport" '$2 ~ p"$" && $4 == "0A" {found=1} END {exit !found}' /proc/net/tcp /proc/net/tcp6 && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.05
done
client_status=0
timeout 60 "$cli" exec --fabric "$socket" --host 2 -- "$program" "${args[@]}" localhost >"$tmp/client.out" 2>&1 || client_status=$?
server_status=0
wait "$server_pid" || server_status=$?
server_pid=

if [ "$server_status" != 0 ] || [ "$client_status" != 0 ]; then
  echo "FAILED: $program exited with $server_status (server) and $client_status (client)"
  show "$tmp/server.out" "$tmp/client.out"
  exit 1
fi
case $program in
  ibv_*) report='iters in [0-9.]+ seconds = [0-9.]+ usec/iter' ;;
  ib_*_bw) report='^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' ;;
  ib_*_lat) report='^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' ;;
esac
for side in server client; do
  grep -qE "$report" "$tmp/$side.out" || { echo "FAILED: the $side's report lacks /$report/"; show "$tmp/server.out" "$tmp/client.out"; exit 1; }
done
echo "ok: $program ${args[*]} (server on host 1, client on host 2)"
grep -hE "$report" "$tmp/client.out" | head -3
