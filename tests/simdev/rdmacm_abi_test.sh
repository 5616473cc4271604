#!/usr/bin/env bash
# The drop-in librdmacm.so.1 against the ABI Debian's rdma_cm programs import: every RDMACM
# symbol that rping, ucmatose, udaddy and perftest import (objdump -T of the installed programs)
# is exported under the same version node; the library exports nothing outside rdma-core's
# RDMACM nodes, has rdma-core's SONAME and needs no librdmacm itself (its libibverbs.so.1 is
# the drop-in one, found first on the loader path that `rdmascope-cli exec` sets).
# Usage: rdmacm_abi_test.sh LIBRDMACM_SO
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/oracle.sh
source "$here/../support/oracle.sh"

lib=$1
[ -f "$lib" ] || { echo "FAILED: $lib (the drop-in librdmacm.so.1) is not built"; exit 1; }
oracle_require objdump

programs=(rping ucmatose udaddy ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw ib_send_lat
  ib_write_lat ib_read_lat ib_atomic_lat)
oracle_require "${programs[@]}"

exports=$(objdump -T "$lib" | awk '$4 != "*UND*" && NF >= 7 && $(NF-1) !~ /^\(/ {print $NF, $(NF-1)}' | sort -u)
failed=0
checked=0
for p in "${programs[@]}"; do
  imports=$(objdump -T "$(command -v "$p")")
  while read -r name version; do
    [ -n "$name" ] || continue
    checked=$((checked + 1))
    if ! grep -qx "$name $version" <<<"$exports"; then
      echo "FAILED: $p imports $name@$version, which $lib does not export"
      failed=1
    fi
  done < <(awk '$0 ~ /\*UND\*/ && $(NF-1) ~ /^\(?RDMACM_/ {v=$(NF-1); gsub(/[()]/, "", v); print $NF, v}' <<<"$imports" | sort -u)
done

leaks=$(awk '$2 !~ /^RDMACM_1\.[0-3]$/' <<<"$exports")
if [ -n "$leaks" ]; then
  echo "FAILED: exported outside rdma-core's RDMACM nodes:"
  echo "$leaks" | head -20
  failed=1
fi
headers=$(objdump -p "$lib")
if grep -q 'NEEDED.*librdmacm' <<<"$headers"; then
  echo "FAILED: $lib needs a librdmacm itself"
  failed=1
fi
if [ "$(awk '$1 == "SONAME" {print $2}' <<<"$headers")" != librdmacm.so.1 ]; then
  echo "FAILED: the SONAME of $lib is not librdmacm.so.1"
  failed=1
fi
for node in RDMACM_1.0 RDMACM_1.1 RDMACM_1.2 RDMACM_1.3; do
  if ! grep -q "$node" <<<"$headers"; then
    echo "FAILED: $lib defines no version node $node"
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
echo "ok: $checked RDMACM imports of ${#programs[@]} programs found in $(wc -l <<<"$exports") exports"
