#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset dev >/dev/null
cmake --build --preset dev
build/dev/app/cli/rdmascope-cli decode tests/golden/rocev2-mixed.pcap "$@"
