#!/usr/bin/env bash
# lab/check_icrc.py against the captures the lab recorded on real rxe (tests/lab/captures):
# every ICRC checks out and the expected operations are there; one changed payload byte, one
# changed ICRC byte, and a changed variant field (TTL, which the ICRC masks) are told apart.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/oracle.sh"
oracle_require python3
check=$here/../../lab/check_icrc.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect STATUS DESCRIPTION COMMAND...
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"
    cat "$tmp/out"
    fail=1
  else
    echo "ok: $what"
  fi
}
caps=$here/captures
expect 0 "rc verbs capture" python3 "$check" "$caps/rxe_rc_verbs_ops_loss.pcap" --expect-nak \
  --expect-retransmit --expect-opcodes \
  SEND_FIRST,SEND_MIDDLE,SEND_LAST_IMM,SEND_ONLY,WRITE_FIRST,WRITE_MIDDLE,WRITE_LAST,WRITE_ONLY,WRITE_ONLY_IMM,READ_REQUEST,READ_RESPONSE_FIRST,READ_RESPONSE_MIDDLE,READ_RESPONSE_LAST,FETCH_ADD,COMPARE_SWAP,ATOMIC_ACKNOWLEDGE,ACKNOWLEDGE
grep -q 'NAK REMOTE_ACCESS_ERROR 2' "$tmp/out" || { echo "FAIL: remote access NAKs not counted"; fail=1; }
expect 0 "read_bw capture with loss" python3 "$check" "$caps/rxe_read_bw_loss.pcap" \
  --expect-retransmit --expect-opcodes \
  READ_REQUEST,READ_RESPONSE_FIRST,READ_RESPONSE_MIDDLE,READ_RESPONSE_LAST
expect 0 "rc lossy stream capture" python3 "$check" "$caps/rxe_rc_lossy_stream.pcap" --expect-nak \
  --expect-retransmit --expect-opcodes WRITE_FIRST,WRITE_MIDDLE,WRITE_LAST,SEND_FIRST,SEND_MIDDLE,SEND_LAST,ACKNOWLEDGE
expect 0 "rc lossy stream capture, timer race" python3 "$check" "$caps/rxe_rc_lossy_stream_timer_race.pcap" \
  --expect-nak --expect-retransmit
expect 0 "ud pingpong capture" python3 "$check" "$caps/rxe_ud_pingpong.pcap" --expect-opcodes UD_SEND_ONLY
expect 0 "atomic capture" python3 "$check" "$caps/rxe_atomic_lat.pcap" --expect-opcodes FETCH_ADD,ATOMIC_ACKNOWLEDGE
expect 0 "rdma cm capture" python3 "$check" "$caps/rxe_cm_send_lat.pcap" --expect-opcodes UD_SEND_ONLY,SEND_ONLY,ACKNOWLEDGE
expect 1 "no NAK where none is" python3 "$check" "$caps/rxe_atomic_lat.pcap" --expect-nak
expect 1 "missing opcode" python3 "$check" "$caps/rxe_atomic_lat.pcap" --expect-opcodes COMPARE_SWAP
expect 1 "not a pcap" python3 "$check" "$here/check_icrc_test.sh"

# Frame 1 of the atomic capture: 24-byte file header, 16-byte record header, then Ethernet.
# Offsets inside the frame: IPv4 TTL at 14+8, FETCH_ADD's AtomicETH at 14+20+8+12.
patch() { # patch OUT OFFSET_IN_FRAME
  cp "$caps/rxe_atomic_lat.pcap" "$1"
  python3 -c "
import sys
p, off = sys.argv[1], 40 + int(sys.argv[2])
d = bytearray(open(p, 'rb').read()); d[off] ^= 0x01; open(p, 'wb').write(d)" "$1" "$2"
}
patch "$tmp/payload.pcap" $((14 + 20 + 8 + 12 + 3))
expect 1 "changed AtomicETH byte" python3 "$check" "$tmp/payload.pcap"
grep -q '^frame 1: FETCH_ADD' "$tmp/out" || { echo "FAIL: the bad frame is not named"; fail=1; }
patch "$tmp/ttl.pcap" $((14 + 8))
expect 0 "changed TTL (masked by the ICRC)" python3 "$check" "$tmp/ttl.pcap"
exit $fail
