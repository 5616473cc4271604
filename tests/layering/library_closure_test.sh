#!/usr/bin/env bash
# A library of the project needs nothing of the project but the libraries it is meant to link:
# every rdmascope:: symbol the first archive uses is defined in it or in the archives after it.
# (The real verbs backend, rdmascope_verbs_device, is checked against rdmascope_verbs alone:
# it must not need the simulator.)
# Usage: library_closure_test.sh LIBRARY.a [ALLOWED.a...]
set -uo pipefail
lib=$1
command -v nm >/dev/null || { echo "nm is missing (Debian package binutils)"; exit 1; }
defined=$(nm -C --defined-only "$@" 2>/dev/null | awk '$2 ~ /^[TWVDBRSu]$/ { $1 = ""; $2 = ""; sub(/^  /, ""); print }' | sort -u)
used=$(nm -C --undefined-only "$lib" | sed -n 's/^ *U //p' | grep '^rdmascope::' | sort -u)
missing=$(comm -23 <(echo "$used") <(echo "$defined"))
if [ -n "$missing" ]; then
  echo "$(basename "$lib") uses rdmascope symbols that none of $(for a in "${@:2}"; do basename "$a"; done | tr '\n' ' ')defines:"
  echo "$missing"
  exit 1
fi
echo "$(basename "$lib"): $(echo "$used" | grep -c .) rdmascope symbols used, all defined in it or in what it may link"
