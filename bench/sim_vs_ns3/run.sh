#!/usr/bin/env bash
# The simulator against ns-3 in one run, in the mode users run (payload copied into every frame
# as rxe copies it into its skb). Four comparisons, each on 1 GiB carried at MTU 4096 over one
# 100 Gb/s link (262,144 data packets; the simulator's have real headers and computed ICRCs, and
# are acknowledged):
#   write    one 1 GiB RC RDMA WRITE            ns-3: 262,144 UDP packets of 4096 B
#   perftest 16,384 WRITEs of 64 KiB from one registered buffer, as ib_write_bw -s 65536 runs
#   lossy    the 1 GiB WRITE with 1% of frames lost (go-back-N)   ns-3: the same UDP, 1% dropped
#   64 QPs   64 RC connections writing 16 MiB each                ns-3: 64 UDP flows
# For each: the simulation loop's CPU time against ns-3's timed run (goal of issue 12: >= 10x for
# the WRITE), each whole process's CPU time (set-up and teardown included; goal >= 3x), and the
# packets each carried per CPU-second. ns-3's UDP does not retransmit, so the lossy and 64-QP
# rows compare packets carried per CPU-second, the work both do per packet.
# Usage: bench/sim_vs_ns3/run.sh BUILD_DIR [PACKETS]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [PACKETS]}
packets=${2:-262144}
sim=$build/bench/sim/sim_write_bench
ns3=$build/bench/sim_vs_ns3/ns3_p2p_udp
[ -x "$sim" ] || { echo "sim_vs_ns3: $sim is not built" >&2; exit 2; }
[ -x "$ns3" ] || { echo "sim_vs_ns3: $ns3 is not built (install libns3-dev)" >&2; exit 2; }
bytes=$((packets * 4096))
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT

# Runs a command; prints its output and the whole process's CPU seconds (user+sys), from the
# shell's own account of its children (a subshell whose one child is the command).
run_timed() {
  (
    rc=0
    "$@" || rc=$?
    times >"$times_file"  # in this shell: a pipe would run `times` in a child of its own
    tail -1 "$times_file" | awk '{
      split($1, u, "m"); split($2, s, "m")
      printf "process_cpu_s=%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2]
    }'
    exit $rc
  )
}

field() { sed -n "s/.* $1 \([0-9.]*\).*/\1/p" <<<"$2" | head -1; }
kv() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2" | head -1; }

# compare NAME GOAL_LOOP GOAL_PROCESS "SIM ARGS" "NS3 ARGS"
compare() {
  local name=$1 goal_loop=$2 goal_proc=$3 sim_args=$4 ns3_args=$5
  local s n
  s=$(run_timed "$sim" --bytes "$bytes" $sim_args) ||
    { echo "sim_vs_ns3: $name: the simulator failed: $s" >&2; return 1; }
  n=$(run_timed "$ns3" $ns3_args) || { echo "sim_vs_ns3: $name: ns-3 failed: $n" >&2; return 1; }
  grep -q "completion success data equal" <<<"$s" ||
    { echo "sim_vs_ns3: $name: the simulated WRITEs did not complete intact" >&2; return 1; }
  echo "$name sim:  $(head -1 <<<"$s")"
  echo "$name ns-3: $(head -1 <<<"$n")"
  awk -v name="$name" -v gl="$goal_loop" -v gp="$goal_proc" \
      -v sl="$(field cpu "$s")" -v nl="$(kv cpu_s "$n")" \
      -v sp="$(kv process_cpu_s "$s")" -v np="$(kv process_cpu_s "$n")" \
      -v ss="$(field setup_cpu "$s")" -v sf="$(field frames "$s")" \
      -v nf="$(kv packets_sent "$n")" 'BEGIN {
    printf "%s: loop CPU: simulator %.3f s, ns-3 %.3f s, ratio %.1fx", name, sl, nl, nl / sl
    if (gl > 0) printf " (goal >= %dx: %s)", gl, (nl / sl >= gl ? "met" : "NOT met")
    printf "\n%s: whole process CPU: simulator %.3f s (set-up %.3f s), ns-3 %.3f s, ratio %.1fx",
           name, sp, ss, np, np / sp
    if (gp > 0) printf " (goal >= %dx: %s)", gp, (np / sp >= gp ? "met" : "NOT met")
    printf "\n%s: packets per loop CPU-second: simulator %.0f, ns-3 %.0f, ratio %.1fx\n",
           name, sf / sl, nf / nl, (sf / sl) / (nf / nl)
  }'
}

# The first touch of fresh memory is the kernel's cost, not the simulator's: measured here on
# the same bytes the single WRITE's two buffers take, so the whole-process rows can be read.
python3 - "$bytes" <<'PY'
import mmap, resource, sys, time
n = int(sys.argv[1]) * 2
c0 = resource.getrusage(resource.RUSAGE_SELF)
m = mmap.mmap(-1, n)
step = 1 << 20
block = b"\x5a" * step
for off in range(0, n, step):
    m[off:off + step] = block
c1 = resource.getrusage(resource.RUSAGE_SELF)
cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
print(f"this machine: first touch of {n >> 20} MiB of fresh memory costs {cpu:.3f} s CPU")
PY

compare write 10 3 "" "$packets 4096 100Gbps"
compare perftest 10 3 "--message 65536" "$packets 4096 100Gbps"
compare lossy 0 0 "--loss 0.01" "$packets 4096 100Gbps 0.01"
compare 64qps 0 0 "--qps 64" "$packets 4096 100Gbps 0 64"
