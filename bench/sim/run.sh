#!/usr/bin/env bash
# Simulator throughput alone: 1 GiB RC RDMA WRITE at MTU 4096, with and without payload copies.
# Usage: bench/sim/run.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR}
"$build/bench/sim/sim_write_bench"
"$build/bench/sim/sim_write_bench" --copy
