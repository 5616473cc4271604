# shellcheck shell=bash
# shellcheck disable=SC2034  # the results are read by the scripts that source this file
# What the ABI tests of the drop-in libraries (tests/simdev/verbs_abi_test.sh and
# rdmacm_abi_test.sh) check alike, with objdump: the symbols a library exports under a default
# version, the versioned imports of a program found among them, and the library's SONAME and
# NEEDED entries. Source it after `set -euo pipefail`; dropin_load_exports comes first.
# Results: dropin_checked counts the imports checked, dropin_failed is 1 after any FAILED line.

dropin_lib=""
dropin_exports=""
declare -A dropin_exported=()
dropin_headers=""
dropin_checked=0
dropin_failed=0

# dropin_load_exports LIB: "name version" of every dynamic symbol LIB defines under a default
# version (a non-default version is printed in parentheses) into dropin_exports, one a line.
dropin_load_exports() {
  dropin_lib=$1
  dropin_exports=$(objdump -T "$dropin_lib" | awk '$4 != "*UND*" && NF >= 7 && $(NF-1) !~ /^\(/ {print $NF, $(NF-1)}' | sort -u)
  dropin_exported=()
  local name version
  while read -r name version; do
    [ -n "$name" ] && dropin_exported["$name $version"]=1
  done <<<"$dropin_exports"
}

# dropin_require_export WHO NAME VERSION: a FAILED line ("WHO NAME@VERSION, which LIB does not
# export") unless the library exports NAME under VERSION.
dropin_require_export() {
  dropin_checked=$((dropin_checked + 1))
  if [ -z "${dropin_exported["$2 $3"]:-}" ]; then
    echo "FAILED: $1 $2@$3, which $dropin_lib does not export"
    dropin_failed=1
  fi
}

# dropin_check_imports FILE WHO NODE_PREFIX: every symbol FILE imports from a version node
# whose name starts with NODE_PREFIX (IBVERBS_, RDMACM_) is exported by the library.
dropin_check_imports() {
  local name version
  while read -r name version; do
    [ -n "$name" ] || continue
    dropin_require_export "$2 imports" "$name" "$version"
  done < <(objdump -T "$1" | awk -v node="^\\\\(?$3" '$0 ~ /\*UND\*/ && $(NF-1) ~ node {v=$(NF-1); gsub(/[()]/, "", v); print $NF, v}' | sort -u)
}

# dropin_check_headers SONAME NEEDED: the library's SONAME is SONAME and it needs no library
# whose name contains NEEDED (it stands in for that one); the headers stay in dropin_headers.
dropin_check_headers() {
  dropin_headers=$(objdump -p "$dropin_lib")
  if grep -q "NEEDED.*$2" <<<"$dropin_headers"; then
    echo "FAILED: $dropin_lib needs a $2 itself"
    dropin_failed=1
  fi
  if [ "$(awk '$1 == "SONAME" {print $2}' <<<"$dropin_headers")" != "$1" ]; then
    echo "FAILED: the SONAME of $dropin_lib is not $1"
    dropin_failed=1
  fi
}
