#!/usr/bin/env bash
# Builds the Debian package: installs what is missing, builds the ci preset (Release, warnings
# as errors) and runs cpack on it (packaging/debian_package.cmake). The package lands in
# build/package/; install it with `sudo apt-get install ./build/package/rdmascope_*.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if command -v ccache >/dev/null; then  # as scripts/test.sh: reuse objects built before
  export CCACHE_BASEDIR="$PWD" CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
cmake --preset ci >/dev/null
cmake --build --preset ci -j "$(nproc)"
rm -f build/package/rdmascope_*.deb
cpack -G DEB --config build/ci/CPackConfig.cmake -B build/package >/dev/null
deb=$(ls build/package/rdmascope_*.deb)
echo "package.sh: $deb"
if command -v lintian >/dev/null; then lintian --fail-on error "$deb"; fi
echo "package.sh: install it with: sudo apt-get install ./$deb"
