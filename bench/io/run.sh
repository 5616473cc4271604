#!/usr/bin/env bash
# decode --verify's fast path against a bare CRC pass (1 GiB pcap in $TMPDIR, made once).
# Usage: bench/io/run.sh BUILD_DIR [MiB]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [MiB]}
mib=${2:-1024}
"$build/bench/io/verify_bench" "${TMPDIR:-/tmp}/rdmascope_verify_bench_${mib}.pcap" "$mib"
