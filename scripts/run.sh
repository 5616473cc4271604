#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job: the rdmascope GUI on its built-in
# "tour" scenario. Without a display it runs the GUI under Xvfb, saves a screenshot of the tour
# and decodes the bundled RoCEv2 capture with the CLI instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# A compiler cache keyed on paths relative to the clone: rebuilding sources already built once
# (in this clone or another one) takes seconds.
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$(nproc)"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/dev/app/gui/rdmascope "$@"
fi
shot=build/dev/rdmascope-tour.png
echo "run.sh: no display; running the GUI under Xvfb at event 40 of the tour -> $shot"
xvfb-run -a -s "-screen 0 1600x1000x24" build/dev/app/gui/rdmascope --event 40 --screenshot "$shot"
echo "run.sh: the bundled capture, decoded and verified by rdmascope-cli:"
build/dev/app/cli/rdmascope-cli decode tests/golden/rocev2-mixed.pcap
build/dev/app/cli/rdmascope-cli decode --verify tests/golden/rocev2-mixed.pcap || true
