#!/usr/bin/env bash
# Unmodified perftest on the simulated fabric: ib_send_lat with 2-byte messages (median latency)
# and ib_write_bw with 64 KiB messages (average bandwidth), server on host 1 and client on host
# 2, each program on its own core as far as the machine allows. The whole time the user waits
# (fabric start, both programs' set-up, the run) is printed too. Goals of issue 13: latency
# under 10 us, bandwidth at least 2 GB/s. Each is run on the fabric as started by default, with
# --pcap, and with --mtu 9000.
# Usage: bench/fabric/run.sh [BUILD_DIR]   (default build/dev)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/dev}
cli="$build/app/cli/rdmascope-cli"
[ -x "$cli" ] || { echo "fabric bench: build rdmascope-cli first ($cli)" >&2; exit 2; }
for p in ib_send_lat ib_write_bw; do
  command -v "$p" >/dev/null || { echo "fabric bench: $p missing (apt install perftest)" >&2; exit 2; }
done
work=$(mktemp -d)
fabric=
trap 'kill $fabric 2>/dev/null || true; rm -rf "$work"' EXIT
sock="$work/fabric.sock"
cores=$(nproc)

# fabric ARGS...: (re)starts the fabric with ARGS
start_fabric() {
  [ -n "$fabric" ] && { kill "$fabric" 2>/dev/null || true; wait "$fabric" 2>/dev/null || true; }
  rm -f "$sock" "$work/fabric.pcap"
  "$cli" fabric --socket "$sock" --hosts 2 "$@" >"$work/fabric.txt" 2>&1 &
  fabric=$!
  for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
}

# run NAME SERVER_ARGS...: server on host 1 (core 0), client on host 2 (last core); prints the
# wall time of the whole run
run() {
  local prog=$1
  shift
  local start end
  start=$(date +%s.%N)
  taskset -c 0 "$cli" exec --fabric "$sock" --host 1 -- "$prog" "$@" >"$work/$prog.server" 2>&1 &
  local server=$!
  for _ in $(seq 200); do ss -ltn 2>/dev/null | grep -q ':18515 ' && break; sleep 0.02; done
  taskset -c $((cores - 1)) "$cli" exec --fabric "$sock" --host 2 -- "$prog" "$@" localhost \
    >"$work/$prog.client" 2>&1
  wait $server
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc)"
}

printf '%-46s %12s %12s %8s\n' "pass (fabric, $cores cores)" "measured" "goal" "ratio"
# The fabric as users start it (MTU 1500: perftest's active MTU 1024, as on rxe), then with a
# pcap written as it goes, then with jumbo frames (active MTU 4096).
for mode in "default" "pcap" "mtu9000"; do
  case $mode in
    default) start_fabric ;;
    pcap) start_fabric --pcap "$work/fabric.pcap" ;;
    mtu9000) start_fabric --mtu 9000 ;;
  esac
  lat_wall=$(run ib_send_lat -d rdmascope0 -x 1 -F -s 2 -n 20000)
  # columns: #bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
  read -r _ _ tmin _ ttyp tavg _ p99 _ < <(grep -E '^ *2 +20000' "$work/ib_send_lat.client")
  bw_wall=$(run ib_write_bw -d rdmascope0 -x 1 -F -s 65536 -n 20000)
  # columns: #bytes #iterations BW_peak BW_average MsgRate (MB/s = 10^6 bytes/s)
  read -r _ _ _ bwavg rate < <(grep -E '^ *65536 +20000' "$work/ib_write_bw.client")
  printf '%-46s %9s us %9s us %7.2fx\n' "[$mode] ib_send_lat 2 B median (t_typical)" "$ttyp" 10 \
    "$(echo "10 / $ttyp" | bc -l)"
  printf '%-46s %9s us\n' "[$mode] ib_send_lat 2 B min / avg / 99%" "$tmin / $tavg / $p99"
  printf '%-46s %9.0f MB/s %7s MB/s %6.2fx\n' "[$mode] ib_write_bw 64 KiB average" "$bwavg" 2000 \
    "$(echo "$bwavg / 2000" | bc -l)"
  printf '%-46s %9s Mpps\n' "[$mode] ib_write_bw 64 KiB message rate" "$rate"
  printf '%-46s %9.2f s\n' "[$mode] ib_send_lat 20000 iterations, wall" "$lat_wall"
  printf '%-46s %9.2f s\n' "[$mode] ib_write_bw 20000 x 64 KiB, wall" "$bw_wall"
done
