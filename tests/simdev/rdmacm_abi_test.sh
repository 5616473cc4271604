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
# shellcheck source=../support/dropin_abi.sh
source "$here/../support/dropin_abi.sh"

lib=$1
[ -f "$lib" ] || { echo "FAILED: $lib (the drop-in librdmacm.so.1) is not built"; exit 1; }
oracle_require objdump

programs=(rping ucmatose udaddy ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw ib_send_lat
  ib_write_lat ib_read_lat ib_atomic_lat)
oracle_require "${programs[@]}"

dropin_load_exports "$lib"
for p in "${programs[@]}"; do
  dropin_check_imports "$(command -v "$p")" "$p" RDMACM_
done

leaks=$(awk '$2 !~ /^RDMACM_1\.[0-3]$/' <<<"$dropin_exports")
if [ -n "$leaks" ]; then
  echo "FAILED: exported outside rdma-core's RDMACM nodes:"
  echo "$leaks" | head -20
  dropin_failed=1
fi
dropin_check_headers librdmacm.so.1 librdmacm
for node in RDMACM_1.0 RDMACM_1.1 RDMACM_1.2 RDMACM_1.3; do
  if ! grep -q "$node" <<<"$dropin_headers"; then
    echo "FAILED: $lib defines no version node $node"
    dropin_failed=1
  fi
done
[ "$dropin_failed" = 0 ] || exit 1
echo "ok: $dropin_checked RDMACM imports of ${#programs[@]} programs found in $(wc -l <<<"$dropin_exports") exports"
