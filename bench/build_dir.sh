# Sourced by the bench scripts: sets `build` to BUILD_DIR ($1), else $RDMASCOPE_BUILD_DIR, else
# the first of build/ci and build/dev with a built rdmascope-cli, and defines fail() with the
# script's name ($bench_name). Exits with a one-line error when none is found.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-${RDMASCOPE_BUILD_DIR:-}}
if [[ -z $build ]]; then
  for d in build/ci build/dev; do
    if [[ -x $root/$d/app/cli/rdmascope-cli ]]; then
      build=$root/$d
      break
    fi
  done
fi
fail() {
  echo "$bench_name: $*" >&2
  exit 1
}
[[ -n $build ]] || fail "no build directory with app/cli/rdmascope-cli (build first, or pass BUILD_DIR)"
