#!/usr/bin/env bash
# Runs one command in each of two lab guests joined by a private link and collects results.
#
# Usage: lab/run-pair.sh --out DIR [--loss PERCENT] [--capture-on 1|2|none] [--timeout SECONDS]
#                        (--scenario NAME | --guest1 COMMAND --guest2 COMMAND)
#   --scenario NAME   both guests run lab/scenarios/NAME.sh (it branches on $LAB_GUEST)
#   --list            print the scenarios, one "NAME<TAB>description" a line, and exit
#   --guest1/2 CMD    a shell command for each guest (run by /bin/sh inside the guest)
#   --loss PERCENT    netem loss on guest 2's eth0 egress (default 0)
#   --capture-on N    which guest runs tcpdump on eth0 for UDP port 4791 (default 1)
#   --timeout S       bound on each guest's command (default 120); qemu gets 90 s more
#                     When one guest has finished, the other's command is stopped after
#                     $RDMASCOPE_LAB_GRACE seconds (default 30); its results are still collected.
# Guest N is 10.9.0.N/24 with Soft-RoCE device rxe0 (GID index 1 = its IPv4 address). The
# command sees $LAB_GUEST, $LAB_SELF, $LAB_PEER, runs in /results, and the host's files at
# their own paths (read-only). Results: DIR/guestN/{output.txt,exit-code,console.log,
# dmesg.txt, rxe-counters.txt (rxe0's hw_counters at the end), qdisc.txt (`tc -s qdisc show
# dev eth0` on the lossy guest: netem's drop count)}, DIR/capture.pcap, DIR/summary.txt (with
# guestN_rxe_sent_pkts and guest2_netem_dropped). Exit status 0 when both commands exit 0.
set -euo pipefail
source "$(dirname "$0")/common.sh"

out="" loss=0 capture_on=1 timeout=120 scenario="" cmd1="" cmd2=""
while (($#)); do
  (($# >= 2)) || [[ $1 == -h || $1 == --help || $1 == --list ]] || die "run-pair.sh: $1 needs a value"
  case $1 in
    --out) out=$2; shift 2 ;;
    --loss) loss=$2; shift 2 ;;
    --capture-on) capture_on=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --scenario) scenario=$2; shift 2 ;;
    --guest1) cmd1=$2; shift 2 ;;
    --guest2) cmd2=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set /{/^set /!p}' "$0"; exit 0 ;;
    --list)
      for f in "$LAB_DIR"/scenarios/*.sh; do
        n=$(basename "$f" .sh)
        [ "$n" = lib ] || printf '%s\t%s\n' "$n" "$(sed -n '1s/^# //p' "$f")"
      done
      exit 0
      ;;
    *) die "run-pair.sh: unknown argument '$1'" ;;
  esac
done
[ -n "$out" ] || die "run-pair.sh: --out DIR is required"
[[ $loss =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk "BEGIN{exit !($loss < 100)}" ||
  die "run-pair.sh: --loss must be a percentage below 100, got '$loss'"
[[ $capture_on =~ ^(1|2|none)$ ]] || die "run-pair.sh: --capture-on must be 1, 2 or none"
[[ $timeout =~ ^[0-9]+$ ]] || die "run-pair.sh: --timeout must be whole seconds"
if [ -n "$scenario" ]; then
  [[ $scenario =~ ^[A-Za-z0-9_-]+$ ]] || die "run-pair.sh: bad scenario name '$scenario'"
  file=$LAB_DIR/scenarios/$scenario.sh
  [ -f "$file" ] && [ "$scenario" != lib ] ||
    die "run-pair.sh: no scenario '$scenario' (run-pair.sh --list shows them)"
  cmd1="/bin/sh $file"
  cmd2="/bin/sh $file"
fi
[ -n "$cmd1" ] && [ -n "$cmd2" ] || die "run-pair.sh: give --scenario NAME or both --guest1 and --guest2"
require_cmd qemu-system-x86_64 qemu-system-x86
require_cmd python3 python3

t0=${EPOCHREALTIME/./}
"$LAB_DIR/prepare.sh"
t1=${EPOCHREALTIME/./}

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/guest1" "$out/guest2" "$out/capture.pcap" "$out/summary.txt"
mkdir -p "$out/guest1" "$out/guest2"
printf '%s\n' "$cmd1" >"$out/guest1/run.sh"
printf '%s\n' "$cmd2" >"$out/guest2/run.sh"

# Two free UDP ports on 127.0.0.1 (the kernel picks them; the race until qemu binds is short).
read -r port1 port2 < <(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM
for g in 1 2; do
  args=(--guest "$g" --results "$out/guest$g" --timeout "$timeout")
  if [ "$g" = 1 ]; then args+=(--local-port "$port1" --remote-port "$port2"); else
    args+=(--local-port "$port2" --remote-port "$port1" --loss "$loss")
  fi
  [ "$capture_on" = "$g" ] && args+=(--capture)
  timeout --kill-after=5 $((timeout + 90)) "$LAB_DIR/boot-guest.sh" "${args[@]}" \
    </dev/null >"$out/guest$g/console.log" 2>&1 &
  pids+=($!)
done
# Wall times of boot ("ready" on the console) and of the whole guest. When one guest is done,
# the other gets a grace period: a server whose client failed would otherwise wait for the
# whole timeout. Then it is asked to stop (DIR/guestN/stop), and killed 20 s later.
grace=${RDMASCOPE_LAB_GRACE:-30}
declare -A ready_at=() done_at=()
first_done="" stop_at=""
while :; do
  now=${EPOCHREALTIME/./}
  alive=0
  for g in 1 2; do
    p=${pids[g - 1]}
    if [ -z "${ready_at[$g]:-}" ] && grep -qa "lab-init: guest $g ready" "$out/guest$g/console.log" 2>/dev/null; then
      ready_at[$g]=$now
    fi
    if kill -0 "$p" 2>/dev/null; then
      alive=$((alive + 1))
    elif [ -z "${done_at[$g]:-}" ]; then
      done_at[$g]=$now
      [ -n "$first_done" ] || first_done=$now
    fi
  done
  ((alive)) || break
  if [ -n "$first_done" ] && ((now - first_done > grace * 1000000)); then
    if [ -z "$stop_at" ]; then
      # Ask the guest still running to stop its command and hand in what it has.
      stop_at=$now
      for g in 1 2; do [ -n "${done_at[$g]:-}" ] || touch "$out/guest$g/stop"; done
    elif ((now - stop_at > 20 * 1000000)); then
      break
    fi
  fi
  sleep 0.2
done
for p in "${pids[@]}"; do
  kill "$p" 2>/dev/null || true
  wait "$p" 2>/dev/null || true
done
pids=()
status=0
seconds() { printf '%d.%d' $(($1 / 1000000)) $((($1 % 1000000) / 100000)); }
t2=${EPOCHREALTIME/./}

[ "$capture_on" != none ] && [ -f "$out/guest$capture_on/capture.pcap" ] &&
  mv "$out/guest$capture_on/capture.pcap" "$out/capture.pcap"

{
  echo "prepare_seconds $(seconds $((t1 - t0)))"
  echo "guests_seconds $(seconds $((t2 - t1)))"
  echo "loss_percent $loss"
  if [ "$capture_on" != none ] && [ -f "$out/guest$capture_on/tcpdump.log" ]; then
    echo "capture_packets $(sed -n 's/^\([0-9]*\) packets captured$/\1/p' "$out/guest$capture_on/tcpdump.log")"
    echo "capture_dropped $(sed -n 's/^\([0-9]*\) packets dropped by kernel$/\1/p' "$out/guest$capture_on/tcpdump.log")"
  fi
  for g in 1 2; do
    if [ -f "$out/guest$g/exit-code" ]; then
      echo "guest${g}_exit $(cat "$out/guest$g/exit-code")"
    else
      echo "guest${g}_exit none"
    fi
    # The kernel's own counts: RoCE packets rxe sent, and the packets netem dropped.
    [ -f "$out/guest$g/rxe-counters.txt" ] &&
      echo "guest${g}_rxe_sent_pkts $(sed -n 's/^sent_pkts \([0-9]*\)$/\1/p' "$out/guest$g/rxe-counters.txt")"
    [ -f "$out/guest$g/qdisc.txt" ] &&
      echo "guest${g}_netem_dropped $(awk '/^qdisc netem/ { n = 1; next } /^qdisc/ { n = 0 }
        n && /dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }' "$out/guest$g/qdisc.txt")"
    [ -n "${ready_at[$g]:-}" ] && echo "guest${g}_boot_seconds $(seconds $((ready_at[$g] - t1)))"
    [ -n "${done_at[$g]:-}" ] && echo "guest${g}_total_seconds $(seconds $((done_at[$g] - t1)))"
  done
} >"$out/summary.txt"

for g in 1 2; do
  if [ -f "$out/guest$g/init-error" ]; then
    echo "lab: guest $g: $(cat "$out/guest$g/init-error")" >&2
    status=1
  elif [ ! -f "$out/guest$g/exit-code" ]; then
    echo "lab: guest $g did not finish (see $out/guest$g/console.log)" >&2
    status=1
  elif [ -e "$out/guest$g/stop" ]; then
    echo "lab: guest $g's command was stopped: it still ran ${grace} s after guest $((3 - g)) had finished (see $out/guest$g/output.txt)" >&2
    status=1
  elif [ "$(cat "$out/guest$g/exit-code")" != 0 ]; then
    echo "lab: guest $g's command exited with $(cat "$out/guest$g/exit-code") (see $out/guest$g/output.txt)" >&2
    status=1
  fi
done
cat "$out/summary.txt"
exit $status
