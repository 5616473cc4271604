#!/usr/bin/env bash
# Installs every Debian package rdmascope needs to build, run and test. Idempotent and quiet
# when everything is present already. With --bench also the benchmarks' peers (ns-3, the
# simulator's speed comparison; scripts/bench.sh passes it).
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ clang clang-format pkg-config libclang-rt-14-dev ccache
  # libraries
  libpcap-dev libisal-dev libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libgmock-dev
  # test oracles (python3-jsonschema: the scenario JSON Schema test)
  tshark python3-jsonschema
  # Soft-RoCE lab (lab/): qemu guests that boot Debian's kernel over the host's root
  qemu-system-x86 busybox-static cpio kmod iproute2 python3 rdma-core ibverbs-utils perftest
  tcpdump libibverbs-dev librdmacm-dev rdmacm-utils
  # GUI (Qt 6 Widgets) and its screenshot runs; Qt Linguist's lupdate/lrelease for the
  # Chinese translation and a CJK font to show it
  qt6-base-dev xvfb xauth qt6-l10n-tools qt6-tools-dev fonts-wqy-microhei
  # the Debian package (scripts/package.sh) and its test: dpkg-shlibdeps, lintian, man -l
  dpkg-dev lintian man-db
)
if [ "${1:-}" = --bench ]; then
  packages+=(libns3-dev)
elif [ -n "${1:-}" ]; then
  echo "install-deps: unknown option '$1' (only --bench)" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # tshark asks whether non-root users may capture; answer no without a prompt.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
