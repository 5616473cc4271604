#!/usr/bin/env bash
# Times `rdmascope-cli decode --verify` against tshark and against a bare ISA-L CRC pass on one
# generated capture of mixed RoCEv2 traffic (>= 1,000,000 frames and >= 1 GiB), then deletes it.
# Usage: bench/decode_vs_tshark/run.sh [BUILD_DIR]
#   BUILD_DIR defaults to $RDMASCOPE_BUILD_DIR, else build/ci, else build/dev.
#   FRAMES and MIB (environment) change the minimum size of the capture.
# Goals (issue 2): >= 50x faster than tshark, >= 0.5 of the bare CRC pass's speed.
set -euo pipefail

bench_name=decode_vs_tshark
# shellcheck source=../build_dir.sh
source "$(dirname "$0")/../build_dir.sh"
cli=$build/app/cli/rdmascope-cli
gen=$build/bench/decode_vs_tshark/make_roce_capture
crc=$build/bench/decode_vs_tshark/bare_crc_pass
for tool in "$cli" "$gen" "$crc"; do
  [[ -x $tool ]] || fail "$tool is missing (build targets rdmascope-cli make_roce_capture bare_crc_pass)"
done
command -v tshark > /dev/null || fail "tshark is not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmascope_decode_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
capture=$tmp/roce.pcap
"$gen" "$capture" "${FRAMES:-1000000}" "${MIB:-1024}"
cat "$capture" > /dev/null # into the page cache, as for every later pass

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }

ours=1e30
for _ in 1 2 3; do
  cat "$capture" > /dev/null # again: this project's VMs page out what is untouched for a minute
  t0=$(now)
  status=0
  "$cli" decode --verify "$capture" > "$tmp/verify.txt" || status=$?
  t1=$(now)
  [[ $status -eq 0 ]] || fail "rdmascope-cli decode --verify exited $status: $(tail -1 "$tmp/verify.txt")"
  ours=$(min "$ours" "$(elapsed "$t0" "$t1")")
done
echo "rdmascope-cli decode --verify: $(tail -1 "$tmp/verify.txt")"

cat "$capture" > /dev/null
t0=$(now)
tshark -r "$capture" -T fields -e infiniband.bth.psn > /dev/null 2> "$tmp/tshark.err" ||
  fail "tshark failed: $(tail -1 "$tmp/tshark.err")"
t1=$(now)
theirs=$(elapsed "$t0" "$t1")

cat "$capture" > /dev/null
read -r bare crc_only _ < <("$crc" "$capture" 3)

size=$(stat -c %s "$capture")
awk -v size="$size" -v ours="$ours" -v theirs="$theirs" -v bare="$bare" -v crc_only="$crc_only" 'BEGIN {
  gib = size / 1073741824
  printf "capture: %.2f GiB\n", gib
  printf "rdmascope-cli decode --verify (best of 3): %8.3f s  %6.2f GiB/s\n", ours, gib / ours
  printf "tshark -T fields -e infiniband.bth.psn:    %8.3f s  %6.2f GiB/s\n", theirs, gib / theirs
  printf "bare ISA-L CRC-32 pass (best of 3):        %8.3f s  %6.2f GiB/s\n", bare, gib / bare
  printf "  of which the CRC alone on the read chunks: %8.3f s  %6.2f GiB/s\n", crc_only,
         gib / crc_only
  vs_tshark = theirs / ours
  vs_crc = bare / ours
  met_tshark = (vs_tshark >= 50) ? "met" : "MISSED"
  met_crc = (vs_crc >= 0.5) ? "met" : "MISSED"
  printf "rdmascope vs tshark:   %.1fx faster (goal >= 50x: %s)\n", vs_tshark, met_tshark
  printf "rdmascope vs bare CRC: %.2f of its speed (goal >= 0.5: %s)\n", vs_crc, met_crc
}'
