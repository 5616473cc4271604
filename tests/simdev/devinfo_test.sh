#!/usr/bin/env bash
# The simulated device as Debian's ibv_devinfo and ibv_devices show it: without a fabric the
# drop-in library prints why in one line and the programs find no device, as on a machine
# without RDMA; attached to a fabric, host 1's rdmascope0 reports rxe's attributes and the GID
# table of issue 13 (index 0 link-local, index 1 the IPv4-mapped address, RoCE v2).
# Usage: devinfo_test.sh RDMASCOPE_CLI LIBDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/oracle.sh
source "$here/../support/oracle.sh"
cli=$1
libdir=$2
oracle_require ibv_devinfo ibv_devices

tmp=$(mktemp -d)
fabric_pid=
cleanup() {
  [ -n "$fabric_pid" ] && kill "$fabric_pid" 2>/dev/null
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
failed=0
expect() {  # FILE TEXT...: each TEXT must be a line fragment of FILE
  local file=$1 text
  shift
  for text in "$@"; do
    if ! grep -qF -- "$text" "$file"; then
      echo "FAILED: $(basename "$file") lacks '$text'"
      failed=1
    fi
  done
}

# 1. No fabric: one line naming why, then "No IB devices found".
status=0
env -u RDMASCOPE_FABRIC LD_LIBRARY_PATH="$libdir" ibv_devinfo >"$tmp/nofabric.txt" 2>&1 || status=$?
expect "$tmp/nofabric.txt" "RDMASCOPE_FABRIC is not set" "No IB devices found"
[ "$(grep -c RDMASCOPE_FABRIC "$tmp/nofabric.txt")" = 1 ] || { echo "FAILED: the reason is not printed once"; failed=1; }
[ "$status" != 0 ] || { echo "FAILED: ibv_devinfo without a device exited with 0"; failed=1; }

# 2. On a fabric.
socket=$tmp/fabric.sock
"$cli" fabric --socket "$socket" --hosts 2 >"$tmp/fabric.txt" 2>&1 &
fabric_pid=$!
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "FAILED: the fabric did not start"; cat "$tmp/fabric.txt"; exit 1; }
"$cli" exec --fabric "$socket" --host 1 -- ibv_devinfo -v >"$tmp/devinfo.txt" 2>&1 ||
  { echo "FAILED: ibv_devinfo -v exited with $?"; cat "$tmp/devinfo.txt"; exit 1; }
expect "$tmp/devinfo.txt" "hca_id:	rdmascope0" "transport:			InfiniBand (0)" \
  "vendor_id:			0xffffff" "phys_port_cnt:			1" "max_qp_rd_atom:			128" \
  "atomic_cap:			ATOMIC_HCA (1)" "state:			PORT_ACTIVE (4)" \
  "max_mtu:		4096 (5)" "active_mtu:		1024 (3)" "link_layer:		Ethernet" \
  "max_msg_sz:		0x800000" "gid_tbl_len:		1024" \
  "GID[  0]:		fe80:0000:0000:0000:0000:0aff:fe09:0001" "GID[  1]:		::ffff:10.9.0.1, RoCE v2"
"$cli" exec --fabric "$socket" --host 2 -- ibv_devices >"$tmp/devices.txt" 2>&1 ||
  { echo "FAILED: ibv_devices exited with $?"; cat "$tmp/devices.txt"; exit 1; }
expect "$tmp/devices.txt" "rdmascope0"
if [ "$failed" != 0 ]; then
  for f in nofabric devinfo devices; do echo "--- $f"; cat "$tmp/$f.txt"; done
  exit 1
fi
echo "ok: ibv_devinfo -v and ibv_devices on the fabric; without one: $(head -1 "$tmp/nofabric.txt")"
