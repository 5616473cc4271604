#!/usr/bin/env bash
# The drop-in libibverbs.so.1 against the ABI Debian's verbs programs import: every IBVERBS
# symbol and version node that ibverbs-utils, rdmacm-utils and perftest import (objdump -T of
# the installed programs) and that the project's measurement of those imports on Debian 12 lists
# (verbs_abi_imports.txt, the table of the design notes' VERBS_ABI) is exported by the library under the same default version; the
# library exports nothing else but rdma-core's nodes and links no system libibverbs.
# Usage: verbs_abi_test.sh LIBIBVERBS_SO
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/oracle.sh
source "$here/../support/oracle.sh"
# shellcheck source=../support/dropin_abi.sh
source "$here/../support/dropin_abi.sh"

lib=$1
[ -f "$lib" ] || { echo "FAILED: $lib (the drop-in libibverbs.so.1) is not built"; exit 1; }
oracle_require objdump

programs=(ibv_devices ibv_devinfo ibv_rc_pingpong ibv_uc_pingpong ibv_ud_pingpong
  ibv_srq_pingpong ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw ib_send_lat ib_write_lat
  ib_read_lat ib_atomic_lat rping ucmatose udaddy)
oracle_require "${programs[@]}"

dropin_load_exports "$lib"

# 1. Each program's imports from libibverbs, and those of Debian's librdmacm.so.1, which the
# perftest programs load beside libibverbs when the drop-in librdmacm is not there.
# The same for the provider libraries perftest links (bound at load time: every import must be
# there for the program to start).
libraries=()
for l in librdmacm.so.1 libmlx5.so.1 libefa.so.1; do
  # (awk reads all of ldconfig's output: an early exit would end the pipe with SIGPIPE)
  path=$(ldconfig -p | awk -v l="$l" '$1 == l && /x86-64/ && !found {print $NF; found=1}')
  [ -n "$path" ] && libraries+=("$path")
done
for p in "${programs[@]}" "${libraries[@]}"; do
  dropin_check_imports "$(command -v "$p" || echo "$p")" "$p" IBVERBS_
done

# 2. The table of VERBS_ABI.md (the imports measured on Debian 12).
while read -r version names; do
  for name in $names; do
    dropin_require_export "VERBS_ABI.md lists" "$name" "$version"
  done
done <"$here/verbs_abi_imports.txt"

# 3. Nothing but rdma-core's version nodes is exported (no C++ or simulator symbol leaks), and
# rdmascope's one private node (the NIC the drop-in librdmacm shares).
leaks=$(awk '$2 !~ /^IBVERBS_/ && $0 != "rdmascope_simdev_nic RDMASCOPE_SIMDEV_PRIVATE" && $0 != "RDMASCOPE_SIMDEV_PRIVATE RDMASCOPE_SIMDEV_PRIVATE"' <<<"$dropin_exports")
if [ -n "$leaks" ]; then
  echo "FAILED: exported outside rdma-core's version nodes:"
  echo "$leaks" | head -20
  dropin_failed=1
fi

# 4. The library is self-contained: no system libibverbs behind it.
dropin_check_headers libibverbs.so.1 libibverbs

[ "$dropin_failed" = 0 ] || exit 1
echo "ok: $dropin_checked imports of ${#programs[@]} programs, ${#libraries[@]} libraries and VERBS_ABI.md found in $(wc -l <<<"$dropin_exports") exports"
