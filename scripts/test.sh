#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the release build's suite (with the
# tshark cross-check), then the same suite and the fuzzers under ASan+UBSan.
# A test whose oracle (tshark, editcap, rdmascope-cli, the lab) is missing fails here instead
# of being skipped (RDMASCOPE_REQUIRE_ORACLES=1; run with RDMASCOPE_REQUIRE_ORACLES=0 to skip).
set -euo pipefail
export RDMASCOPE_REQUIRE_ORACLES=${RDMASCOPE_REQUIRE_ORACLES:-1}
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# A compiler cache keyed on paths relative to the clone: rebuilding sources already built once
# (in this clone or another one) takes seconds.
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
jobs=$(nproc)

cmake --preset ci >/dev/null
cmake --build --preset ci -j "$jobs"
ctest --preset ci -j "$jobs"

cmake --preset asan-ubsan >/dev/null
cmake --build --preset asan-ubsan -j "$jobs"
ctest --preset asan-ubsan -j "$jobs"
