#!/usr/bin/env bash
# Boots one lab guest in qemu (TCG) and waits until it powers off. The console goes to stdout.
#
# Usage: lab/boot-guest.sh --guest N --results DIR --local-port A --remote-port B
#                          [--loss PERCENT] [--capture] [--timeout SECONDS]
# The guest gets 10.9.0.N/24 on eth0, which is joined to the peer guest by UDP datagrams
# between 127.0.0.1:A and 127.0.0.1:B (and no other network); DIR/run.sh must exist and is
# run inside the guest with /results = DIR. --timeout bounds the guest's command.
set -euo pipefail
source "$(dirname "$0")/common.sh"

guest="" results="" lport="" rport="" loss=0 capture=0 timeout=120
while (($#)); do
  (($# >= 2)) || [[ $1 == -h || $1 == --help || $1 == --capture ]] || die "boot-guest.sh: $1 needs a value"
  case $1 in
    --guest) guest=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --local-port) lport=$2; shift 2 ;;
    --remote-port) rport=$2; shift 2 ;;
    --loss) loss=$2; shift 2 ;;
    --capture) capture=1; shift ;;
    --timeout) timeout=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set /{/^set /!p}' "$0"; exit 0 ;;
    *) die "boot-guest.sh: unknown argument '$1'" ;;
  esac
done
[[ $guest =~ ^[12]$ ]] || die "boot-guest.sh: --guest must be 1 or 2"
[[ $lport =~ ^[0-9]+$ && $rport =~ ^[0-9]+$ ]] || die "boot-guest.sh: --local-port and --remote-port are required"
[[ $loss =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "boot-guest.sh: --loss must be a percentage, got '$loss'"
[[ $timeout =~ ^[0-9]+$ ]] || die "boot-guest.sh: --timeout must be whole seconds, got '$timeout'"
[ -f "$results/run.sh" ] || die "boot-guest.sh: $results/run.sh does not exist"
require_cmd qemu-system-x86_64 qemu-system-x86

version=$(lab_kernel_version)
kdir=$LAB_CACHE/kernel/$version
peer=$((3 - guest))
results=$(cd "$results" && pwd)
kernel=$kdir/root/boot/vmlinuz-$version
[ -f "$kdir/vmlinux" ] && kernel=$kdir/vmlinux

# no_timer_check: under TCG on a loaded host the kernel's IO-APIC timer check can miss its
# ticks and panic ("IO-APIC + timer doesn't work!", seen twice at load average 12).
exec qemu-system-x86_64 -accel tcg -cpu max -m 1024 -smp 1 -nographic -no-reboot \
  -nodefaults -serial stdio -monitor none \
  -kernel "$kernel" -initrd "$kdir/initrd.img" \
  -append "console=ttyS0 panic=-1 no_timer_check quiet loglevel=3 rdmascope.guest=$guest rdmascope.ip=10.9.0.$guest/24 rdmascope.peer=10.9.0.$peer rdmascope.loss=$loss rdmascope.capture=$capture rdmascope.timeout=$timeout" \
  -fsdev local,id=hostroot,path=/,readonly=on,security_model=none,multidevs=remap \
  -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
  -fsdev local,id=results,path="$results",security_model=none,multidevs=remap \
  -device virtio-9p-pci,fsdev=results,mount_tag=results \
  -netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$lport,remote.type=inet,remote.host=127.0.0.1,remote.port=$rport" \
  -device "virtio-net-pci,netdev=n0,mac=52:54:00:9a:00:0$guest,romfile="
