#!/usr/bin/env bash
# The switched-fabric incast against ns-3 in one run: 16 senders into one receiver at 100 Gb/s
# for 10 ms simulated, rdmascope's fabric with switch queues, PFC, ECN marking and DCQCN
# (lossless_bench) beside the closest incast Debian's ns-3 builds (ns3_incast: point-to-point
# links, a router node, RED with ECN, DCTCP; no PFC). Prints each one's packets carried over
# links per CPU-second of its simulation and of its whole process (set-up and teardown
# included), and the ratios. Goal: ratio >= 3.
# Usage: bench/lossless/run.sh BUILD_DIR [SENDERS] [DURATION_US]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [SENDERS] [DURATION_US]}
senders=${2:-16}
duration=${3:-10000}
sim=$build/bench/lossless/lossless_bench
ns3=$build/bench/lossless/ns3_incast
[ -x "$sim" ] || { echo "lossless: $sim is not built" >&2; exit 2; }
[ -x "$ns3" ] || { echo "lossless: $ns3 is not built (install libns3-dev)" >&2; exit 2; }

# Runs a command and adds its whole process's CPU seconds (user+sys: start-up, set-up,
# simulation and teardown, what a user waits for) as process_cpu_s=.
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
whole() {
  (
    "$@"
    times >"$times_file"  # in this shell: a pipe would run `times` in a child of its own
    tail -1 "$times_file" | awk '{
      split($1, u, "m"); split($2, s, "m")
      printf " process_cpu_s=%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2]
    }'
  ) | tr -d '\n'
}
sim_out=$(whole "$sim" "$senders" "$duration" dcqcn)
pfc_out=$(whole "$sim" "$senders" "$duration" pfc)
ns3_out=$(whole "$ns3" "$senders" "$duration")
echo "$sim_out"
echo "$pfc_out"
echo "$ns3_out"
rate() { sed -n 's/.*packets_per_cpu_s=\([0-9]*\).*/\1/p' <<<"$1"; }
sim_rate=$(rate "$sim_out")
pfc_rate=$(rate "$pfc_out")
ns3_rate=$(rate "$ns3_out")
for out in "$sim_out" "$pfc_out"; do
  grep -q " drops=0 " <<<"$out" || { echo "lossless: the PFC fabric dropped packets" >&2; exit 1; }
done
whole_rate() {
  awk -v p="$(sed -n 's/.*link_packets=\([0-9]*\).*/\1/p' <<<"$1")" \
      -v c="$(sed -n 's/.*process_cpu_s=\([0-9.]*\).*/\1/p' <<<"$1")" 'BEGIN { printf "%.0f", p / c }'
}
awk -v s="$(whole_rate "$sim_out")" -v n="$(whole_rate "$ns3_out")" 'BEGIN {
  printf "whole processes (set-up and teardown included): rdmascope %.0f packets per CPU-second, ns-3 %.0f, ratio %.1fx (goal >= 3x: %s)\n",
         s, n, s / n, (s / n >= 3 ? "met" : "NOT met")
}'
awk -v s="$sim_rate" -v p="$pfc_rate" -v n="$ns3_rate" -v k="$senders" -v d="$duration" 'BEGIN {
  printf "incast %d:1, %d us simulated: rdmascope (PFC, ECN, DCQCN) %.0f packets per CPU-second, ns-3 %.0f, ratio %.1fx (goal >= 3x: %s)\n",
         k, d, s, n, s / n, (s / n >= 3 ? "met" : "NOT met")
  printf "rdmascope with PFC alone (the senders paused all along): %.0f packets per CPU-second, %.1fx ns-3\n", p, p / n
}'
