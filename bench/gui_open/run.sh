#!/usr/bin/env bash
# A million-frame capture opened and filtered the way the GUI does, beside tshark's full read
# and its -Y pass over the same file (see gui_open_bench.cpp's header).
# Usage: bench/gui_open/run.sh BUILD_DIR [FRAMES]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [FRAMES]}
build=$(cd "$build" && pwd) # the run happens in a temporary folder
bench=$build/bench/gui_open/gui_open_bench
[ -x "$bench" ] || { echo "gui_open: $bench is not built" >&2; exit 2; }
command -v tshark >/dev/null || { echo "gui_open: tshark is missing (apt install tshark)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cli=$build/app/cli/rdmascope-cli
[ -x "$cli" ] || { echo "gui_open: $cli is not built (the GUI analysis's peer)" >&2; exit 2; }
"$bench" --frames "${2:-1000000}" --cli "$cli"
