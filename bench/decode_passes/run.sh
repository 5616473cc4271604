#!/usr/bin/env bash
# Times every pass of `rdmascope-cli decode`/`analyze` a user waits for (the whole process) on
# a 200,000-frame capture of real Soft-RoCE traffic (the captures of tests/lab/captures
# repeated) against the matching tshark pass in the same run, and the resident set of the
# streaming passes on a 2 GiB capture of the same traffic. Every file is made in a temporary
# folder and deleted.
# Usage: bench/decode_passes/run.sh [BUILD_DIR]
#   BUILD_DIR defaults to $RDMASCOPE_BUILD_DIR, else build/ci, else build/dev.
#   FRAMES (default 200000) and BIG_MIB (default 2048; 0 skips the memory part) in the
#   environment change the sizes.
# Goals (issue 12): each pass >= 50x faster than its tshark pass and <= 3x the time of
# `decode --verify`; a streaming pass's resident set < 100 MB on the 2 GiB file.
set -euo pipefail
shopt -s inherit_errexit # a failed pass inside $(...) stops the script

bench_name=decode_passes
# shellcheck source=../build_dir.sh
source "$(dirname "$0")/../build_dir.sh"
cli=$build/app/cli/rdmascope-cli
gen=$build/bench/decode_passes/make_real_capture
for tool in "$cli" "$gen"; do
  [[ -x $tool ]] || fail "$tool is missing (build targets rdmascope-cli make_real_capture)"
done
command -v tshark > /dev/null || fail "tshark is not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmascope_passes_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
capture=$tmp/real.pcap
"$gen" "$capture" "${FRAMES:-200000}" 0 "$root"/tests/lab/captures/*.pcap
cat "$capture" > /dev/null # into the page cache, as for every later pass

now() { date +%s.%N; }
# Wall time of one run of the command (stdout to /dev/null); fails on a non-zero exit unless
# the command is `decode --verify`, whose exit 1 reports bad CRCs (the lab captures carry some).
# The capture is read into the page cache again before each run: this project's VMs page out
# memory left untouched for a minute (a DAMON "pageout" scheme), so a pass timed after a long
# tshark run would otherwise read part of the file from the disk.
timed() {
  local t0 t1 status=0
  cat "$capture" > /dev/null
  t0=$(now)
  "$@" > /dev/null 2> "$tmp/err" || status=$?
  t1=$(now)
  if ((status != 0)) && ! [[ $status -eq 1 && " $* " == *" --verify "* ]]; then
    fail "$* exited $status: $(tail -1 "$tmp/err")"
  fi
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
best3() {
  local best=1e30 t
  for _ in 1 2 3; do
    t=$(timed "$@")
    best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
  done
  echo "$best"
}

filter='infiniband.aeth.syndrome == 96'
fields=(-T fields -e frame.number -e ip.src -e ip.dst -e infiniband.bth.opcode -e infiniband.bth.destqp
  -e infiniband.bth.psn -e infiniband.aeth.syndrome)
verify=$(best3 "$cli" decode --verify "$capture")

# name | rdmascope command | tshark command. Each side's best of three runs (tshark's spread
# between runs on this project's VMs reaches a third), but tshark's -T json pass, which runs
# for half a minute, once.
rows=()
add() { rows+=("$1"); }
run_row() {
  local name=$1 ours theirs
  shift
  local -a a b
  local sep=0
  for x in "$@"; do
    if [[ $x == "::" ]]; then sep=1; continue; fi
    if ((sep)); then b+=("$x"); else a+=("$x"); fi
  done
  ours=$(best3 "${a[@]}")
  if [[ " ${b[*]} " == *" json "* ]]; then
    theirs=$(timed "${b[@]}")
  else
    theirs=$(best3 "${b[@]}")
  fi
  printf '%s\t%s\t%s\n' "$name" "$theirs" "$ours" >> "$tmp/table"
}
: > "$tmp/table"
run_row "summary (decode FILE)" "$cli" decode "$capture" :: tshark -r "$capture"
run_row "-Y \"$filter\"" "$cli" decode "$capture" -Y "$filter" :: tshark -r "$capture" -Y "$filter"
run_row "-T fields (7 -e keys)" "$cli" decode "$capture" "${fields[@]}" :: tshark -r "$capture" "${fields[@]}"
run_row "-T json" "$cli" decode "$capture" -T json :: tshark -r "$capture" -T json
run_row "-V, first 20,000 frames" "$cli" decode "$capture" -V -c 20000 :: tshark -r "$capture" -V -c 20000
run_row "analyze (tshark: -q -z conv,udp)" "$cli" analyze "$capture" :: tshark -r "$capture" -q -z conv,udp
run_row "analyze --json (tshark: -q -z conv,udp)" "$cli" analyze --json "$capture" :: tshark -r "$capture" -q -z conv,udp

frames=$("$cli" decode --verify "$capture" | tail -1 | cut -d' ' -f1 || true)
echo "capture: $frames frames, $(($(stat -c %s "$capture") / 1048576)) MiB (tests/lab/captures repeated)"
echo "rdmascope-cli decode --verify (best of 3): ${verify} s"
awk -F'\t' -v verify="$verify" 'BEGIN {
  printf "| %-40s | %9s | %9s | %-24s | %-22s |\n", "pass", "tshark s", "ours s", "vs tshark (goal >= 50x)", "vs --verify (goal <= 3x)"
  printf "|%s|%s|%s|%s|%s|\n", "------------------------------------------", "-----------", "-----------", "--------------------------", "--------------------------"
}
{
  r = $2 / $3; v = $3 / verify
  printf "| %-40s | %9.3f | %9.3f | %7.1fx %-15s | %7.1fx %-15s |\n", $1, $2, $3, r, (r >= 50 ? "met" : "MISSED"), v, (v <= 3 ? "met" : "MISSED")
}' "$tmp/table"

big_mib=${BIG_MIB:-2048}
if ((big_mib > 0)); then
  big=$tmp/big.pcap
  "$gen" "$big" 0 "$big_mib" "$root"/tests/lab/captures/*.pcap
  echo "resident set (max RSS) of the streaming passes on the $big_mib MiB capture (goal < 100 MB):"
  rss() {
    local status=0
    /usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2> "$tmp/err" || status=$?
    ((status <= 1)) || fail "$* exited $status: $(tail -1 "$tmp/err")"
    awk '{ printf "%.1f", $1 / 1024 }' "$tmp/rss"
  }
  printf '| %-40s | %10s |\n' "pass" "max RSS MB"
  printf '|%s|%s|\n' "------------------------------------------" "------------"
  printf '| %-40s | %10s |\n' "decode --verify" "$(rss "$cli" decode --verify "$big")"
  printf '| %-40s | %10s |\n' "summary" "$(rss "$cli" decode "$big")"
  printf '| %-40s | %10s |\n' "-Y \"$filter\"" "$(rss "$cli" decode "$big" -Y "$filter")"
  printf '| %-40s | %10s |\n' "-T fields (7 -e keys)" "$(rss "$cli" decode "$big" "${fields[@]}")"
  printf '| %-40s | %10s |\n' "analyze" "$(rss "$cli" analyze "$big")"
  printf '| %-40s | %10s |\n' "analyze --json" "$(rss "$cli" analyze --json "$big")"
  rm -f "$big"
fi
