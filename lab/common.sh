# Sourced by the lab scripts: paths, error reporting and prerequisite checks.
# shellcheck shell=bash

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# The kernel cache: beside the scripts in a checkout; installed (share/rdmascope/lab), in the
# user's cache folder.
if [ -n "${RDMASCOPE_LAB_CACHE:-}" ]; then
  LAB_CACHE=$RDMASCOPE_LAB_CACHE
elif [ -d "$LAB_DIR/cache" ] || [ -e "$LAB_DIR/../.git" ]; then
  LAB_CACHE=$LAB_DIR/cache
else
  LAB_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/rdmascope/lab
fi

# The modules the guests load; prepare.sh adds their dependencies from modules.dep.
# shellcheck disable=SC2034
LAB_MODULES=(crc32_generic virtio_pci virtio_net 9pnet_virtio 9p ib_uverbs rdma_rxe rdma_ucm
  sch_netem sch_prio cls_u32)

die() {
  echo "lab: $*" >&2
  exit 1
}

# require_cmd COMMAND DEBIAN_PACKAGE: fails naming the package that provides a missing command.
require_cmd() {
  command -v "$1" >/dev/null 2>&1 ||
    die "$1 is missing: install the Debian package $2 (apt-get install $2)"
}

# require_file PATH DEBIAN_PACKAGE
require_file() {
  [ -e "$1" ] || die "$1 is missing: install the Debian package $2 (apt-get install $2)"
}

# The kernel version prepared last (written by prepare.sh).
lab_kernel_version() {
  [ -s "$LAB_CACHE/kernel-version" ] || die "the lab is not prepared: run lab/prepare.sh"
  cat "$LAB_CACHE/kernel-version"
}
