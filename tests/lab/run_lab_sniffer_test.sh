#!/usr/bin/env bash
# ctest driver of lab.sniffer: on real Soft-RoCE, `rdmascope-cli capture -i rxe0` (a verbs
# sniffer capture: raw-packet QP and sniffer flow) says in one line that rxe has no sniffer
# support and names the netdev to capture on instead (eth0), exits 2 and leaves the device as it
# was (ibv_devinfo still reads the port ACTIVE); `capture -D`
# lists rxe0 as an RDMA device beside the network interfaces, with its netdev.
# Usage: run_lab_sniffer_test.sh RDMASCOPE_CLI OUT_DIR
set -uo pipefail
cli=$(realpath "$1")  # the guests run it by absolute path
out=$2
here=$(cd "$(dirname "$0")" && pwd)

source "$here/../support/oracle.sh"
oracle_require lab "$cli"

fail=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "CHECK $what ok"; else echo "CHECK $what FAIL"; fail=1; fi
}

rm -rf "$out"
g1="$cli capture -D >/results/list.txt 2>&1; $cli capture -i rxe0 -c 1 -a 5 >/results/stdout.txt 2>/results/stderr.txt; echo \$? >/results/status.txt; ibv_devinfo -d rxe0 >/results/devinfo.txt 2>&1"
# Guest 2 has nothing to do (rxe0 answers without a peer); run-pair.sh stops whichever guest is
# still running 30 s after the other finished, so only guest 1's own exit status counts.
"$here/../../lab/run-pair.sh" --out "$out" --capture-on none --timeout 120 --guest1 "$g1" \
  --guest2 "sleep 20"
g=$out/guest1
check "lab: guest 1 ran its commands" test "$(cat "$g/exit-code" 2>/dev/null)" = 0
cat "$g/list.txt" "$g/stderr.txt" "$g/status.txt" 2>/dev/null
check "capture -D lists rxe0 as an RDMA device with its netdev" \
  grep -qE '^[0-9]+\. rxe0 \(RDMA device, Ethernet port active, netdev eth0\)$' "$g/list.txt"
check "capture -D still lists eth0" grep -qE '^[0-9]+\. eth0( |$)' "$g/list.txt"
check "capture -i rxe0 exits 2" test "$(cat "$g/status.txt")" = 2
check "one line on stderr" test "$(wc -l <"$g/stderr.txt")" = 1
check "it says rxe0 has no sniffer support and names eth0" grep -qx \
  "rdmascope-cli: rxe0 has no sniffer support (no raw-packet QP with a sniffer flow): capture on its network interface instead: rdmascope-cli capture -i eth0" \
  "$g/stderr.txt"
check "nothing printed on stdout" test ! -s "$g/stdout.txt"
check "the port is still ACTIVE" grep -q 'state:.*PORT_ACTIVE' "$g/devinfo.txt"
if ((fail)); then echo "RESULT FAIL"; exit 1; fi
echo "RESULT PASS"
