#!/usr/bin/env bash
# The simulator against ns-3 in one run: a 1 GiB RC RDMA WRITE at MTU 4096 (262,144 data
# packets with real headers and computed ICRCs, plus their ACKs) in rdmascope's simulator, and
# the same 262,144 packets of 4096 bytes as UDP over one 100 Gb/s point-to-point link in ns-3.
# Prints both wall times (each program's own timer around its simulation) and the ratio, the
# CPU times of the same timed runs and their ratio, and each whole process's CPU time.
# Usage: bench/sim_vs_ns3/run.sh BUILD_DIR [PACKETS]   Goal: ratio >= 10.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [PACKETS]}
packets=${2:-262144}
sim=$build/bench/sim/sim_write_bench
ns3=$build/bench/sim_vs_ns3/ns3_p2p_udp
[ -x "$sim" ] || { echo "sim_vs_ns3: $sim is not built" >&2; exit 2; }
[ -x "$ns3" ] || { echo "sim_vs_ns3: $ns3 is not built (install libns3-dev)" >&2; exit 2; }

# CPU seconds of one command (user+sys of the child), next to its own output.
run_timed() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stdout.write(p.stdout)
sys.stderr.write(p.stderr)
print(f"process_cpu_s={r.ru_utime + r.ru_stime:.3f}")
sys.exit(p.returncode)
PY
}

sim_out=$(run_timed "$sim" $((packets * 4096)))
ns3_out=$(run_timed "$ns3" "$packets" 4096 100Gbps)
echo "sim:  $(head -1 <<<"$sim_out")"
echo "ns-3: $(head -1 <<<"$ns3_out")"
sim_wall=$(sed -n 's/.* wall \([0-9.]*\) s.*/\1/p' <<<"$sim_out")
ns3_wall=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' <<<"$ns3_out")
sim_run_cpu=$(sed -n 's/.* cpu \([0-9.]*\) s.*/\1/p' <<<"$sim_out")
ns3_run_cpu=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' <<<"$ns3_out")
sim_cpu=$(sed -n 's/^process_cpu_s=//p' <<<"$sim_out")
ns3_cpu=$(sed -n 's/^process_cpu_s=//p' <<<"$ns3_out")
grep -q "completion success data equal" <<<"$sim_out" ||
  { echo "sim_vs_ns3: the simulated WRITE did not complete intact" >&2; exit 1; }
grep -q "packets_received=$packets " <<<"$ns3_out" ||
  { echo "sim_vs_ns3: ns-3 did not deliver every packet" >&2; exit 1; }
awk -v sw="$sim_wall" -v nw="$ns3_wall" -v sc="$sim_cpu" -v nc="$ns3_cpu" -v n="$packets" \
    -v sr="$sim_run_cpu" -v nr="$ns3_run_cpu" 'BEGIN {
  printf "packets %d of 4096 B: simulator wall %.3f s, ns-3 wall %.3f s, ratio %.1fx (goal >= 10x: %s)\n",
         n, sw, nw, nw / sw, (nw / sw >= 10 ? "met" : "NOT met")
  printf "the same timed runs in CPU time (what a loaded machine does not stretch): simulator %.3f s, ns-3 %.3f s, ratio %.1fx\n",
         sr, nr, nr / sr
  printf "whole processes (CPU, incl. setup and 2 GiB of buffers for the simulator): simulator %.3f s, ns-3 %.3f s, ratio %.1fx\n",
         sc, nc, nc / sc
}'
