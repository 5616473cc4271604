#!/usr/bin/env bash
# Builds the dev preset's benchmarks and runs every benchmark in bench/: each bench/<name>/run.sh
# with the build folder (see each one's header). Never part of the test suite.
# Usage: scripts/bench.sh [NAME...]   (default: every folder of bench/ with a run.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake --preset dev >/dev/null
targets=$(sed -n 's/^ *add_executable(\([A-Za-z0-9_]*\).*/\1/p' bench/*/CMakeLists.txt)
# Targets whose prerequisites are missing (ns-3) are not defined; build those that are.
known=$(cmake --build build/dev --target help | sed -n "s/^\([A-Za-z0-9_]*\): phony$/\1/p")
build=(rdmascope-cli)  # decode_vs_tshark times the CLI itself
for t in $targets; do grep -qx "$t" <<<"$known" && build+=("$t"); done
cmake --build build/dev -j2 --target "${build[@]}"
names=("$@")
if ((${#names[@]} == 0)); then
  for d in bench/*/; do [ -x "$d/run.sh" ] && names+=("$(basename "$d")"); done
fi
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for n in "${names[@]}"; do
  [ -x "bench/$n/run.sh" ] || { echo "bench.sh: no benchmark bench/$n/run.sh" >&2; exit 2; }
  echo "== $n"
  # Every line that states a goal goes to the closing table, prefixed by its benchmark.
  if ! "bench/$n/run.sh" build/dev |
    tee >(grep -E -i 'goal|met|missed' | grep -v '^| pass' | sed "s/^/$n: /" >> "$log"); then
    echo "bench.sh: $n failed" >&2
    status=1
  fi
done
sleep 0.2  # the last tee's grep writes the log after the pipe ends
echo "== every ratio with its goal"
cat "$log"
exit $status
