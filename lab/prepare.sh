#!/usr/bin/env bash
# Fetches Debian's current amd64 kernel (the one linux-image-amd64 depends on) into the lab
# cache and builds the busybox initramfs the guests boot. Idempotent: a prepared kernel is
# reused, and the initramfs is rebuilt only when its inputs changed.
#
# Usage: lab/prepare.sh [--print]    (--print: print the kernel and initramfs paths)
set -euo pipefail
source "$(dirname "$0")/common.sh"

print=0
for arg in "$@"; do
  case $arg in
    --print) print=1 ;;
    -h | --help) sed -n '2,/^set /{/^set /!p}' "$0"; exit 0 ;;
    *) die "prepare.sh: unknown argument '$arg'" ;;
  esac
done

require_cmd apt-get apt
require_cmd dpkg-deb dpkg
require_cmd depmod kmod
require_cmd cpio cpio
require_cmd gzip gzip
require_file /bin/busybox busybox-static
file_type=$(LC_ALL=C od -An -c -N 4 /bin/busybox | tr -d ' ')
[ "$file_type" = '177ELF' ] || die "/bin/busybox is not an ELF binary: install busybox-static"
if ldd /bin/busybox >/dev/null 2>&1; then
  die "/bin/busybox is dynamically linked: install the Debian package busybox-static"
fi

mkdir -p "$LAB_CACHE"
exec 9>"$LAB_CACHE/.lock"
flock 9

# Resolve linux-image-amd64 -> linux-image-<version> now; it changes with Debian updates.
resolve() {
  apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}'
}
pkg=$(resolve)
if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq >&2 || true
  pkg=$(resolve)
fi
[ -n "$pkg" ] || die "apt cannot resolve linux-image-amd64 to a kernel package (run apt-get update)"
version=${pkg#linux-image-}
kdir=$LAB_CACHE/kernel/$version
root=$kdir/root

if [ ! -e "$kdir/.unpacked" ]; then
  echo "lab: fetching $pkg" >&2
  rm -rf "$kdir"
  mkdir -p "$kdir/deb"
  (cd "$kdir/deb" && apt-get download -q "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2) ||
    die "apt-get download $pkg failed"
  deb=$(ls "$kdir"/deb/*.deb)
  # Signed kernel packages in some releases hold only vmlinuz; the modules come with it here.
  dpkg-deb -x "$deb" "$root"
  [ -d "$root/lib/modules/$version" ] || die "$pkg has no lib/modules/$version"
  depmod -b "$root" "$version"
  rm -rf "$kdir/deb"
  touch "$kdir/.unpacked"
fi
vmlinuz=$root/boot/vmlinuz-$version
[ -f "$vmlinuz" ] || die "$pkg has no boot/vmlinuz-$version"
# An uncompressed PVH-bootable kernel boots much faster under TCG; boot-guest.sh falls back to
# the bzImage when there is none.
if [ ! -e "$kdir/.vmlinux-tried" ]; then
  require_cmd python3 python3
  python3 "$LAB_DIR/extract_vmlinux.py" "$vmlinuz" "$kdir/vmlinux" || true
  touch "$kdir/.vmlinux-tried"
fi
kernel=$vmlinuz
[ -f "$kdir/vmlinux" ] && kernel=$kdir/vmlinux

# Module load order: depth-first over modules.dep, dependencies before dependants.
moddir=$root/lib/modules/$version
declare -A dep_of=() path_of=() seen=()
while IFS= read -r line; do
  path=${line%%:*}
  name=${path##*/}
  name=${name%%.ko*}
  name=${name//-/_}
  path_of[$name]=$path
  deps=""
  for d in ${line#*:}; do
    dn=${d##*/}
    dn=${dn%%.ko*}
    deps+="${dn//-/_} "
  done
  dep_of[$name]=$deps
done <"$moddir/modules.dep"

order=()
visit() {
  local m=$1 d
  [ -n "${seen[$m]:-}" ] && return
  seen[$m]=1
  [ -n "${path_of[$m]:-}" ] || {
    grep -q "/${m}.ko" "$moddir/modules.builtin" && return
    die "module $m is neither in modules.dep nor built in to $version"
  }
  for d in ${dep_of[$m]}; do visit "$d"; done
  order+=("$m")
}
for m in "${LAB_MODULES[@]}"; do visit "$m"; done

initrd=$kdir/initrd.img
inputs=$(
  {
    echo "$version" "${order[*]}"
    cat "$LAB_DIR/initramfs/init"
    sha256sum /bin/busybox
  } | sha256sum | cut -d' ' -f1
)
if [ ! -f "$initrd" ] || [ "$(cat "$kdir/initrd.inputs" 2>/dev/null)" != "$inputs" ]; then
  echo "lab: building the initramfs for $version" >&2
  stage=$(mktemp -d "$kdir/stage.XXXXXX")
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/lab/bin" "$stage/lab/modules"
  cp /bin/busybox "$stage/lab/bin/busybox"
  install -m 0755 "$LAB_DIR/initramfs/init" "$stage/init"
  for m in "${order[@]}"; do
    src=$moddir/${path_of[$m]}
    case $src in
      *.ko.xz) require_cmd xz xz-utils ;;&
      *.ko.zst) require_cmd zstd zstd ;;&
      *.ko) cp "$src" "$stage/lab/modules/$m.ko" ;;
      *.ko.xz) xz -dc "$src" >"$stage/lab/modules/$m.ko" ;;
      *.ko.zst) zstd -qdc "$src" >"$stage/lab/modules/$m.ko" ;;
      *.ko.gz) gzip -dc "$src" >"$stage/lab/modules/$m.ko" ;;
      *) die "unknown module format: $src" ;;
    esac
    echo "$m" >>"$stage/lab/modules.list"
  done
  (cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) >"$initrd.tmp"
  mv "$initrd.tmp" "$initrd"
  echo "$inputs" >"$kdir/initrd.inputs"
fi

echo "$version" >"$LAB_CACHE/kernel-version.tmp"
mv "$LAB_CACHE/kernel-version.tmp" "$LAB_CACHE/kernel-version"
if ((print)); then
  echo "kernel $kernel"
  echo "initrd $initrd"
fi
