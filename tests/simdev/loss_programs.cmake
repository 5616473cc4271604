# Debian's RC programs on a fabric that loses 10% of the frames: each still completes (the
# pingpongs and rping check their data), and the capture shows requests sent again. UC and UD
# programs are left out: a lost UC or UD message is gone, as on any network, and their
# pingpongs then wait for it forever (on rxe as here).
set(perftest_report "^[ \\t]*[0-9]+[ \\t]+[0-9]+([ \\t]+[0-9.]+){2,}")
foreach(case
    "rc_pingpong|ibv_rc_pingpong -d rdmascope0 -g 1 -n 50 -s 4096|tcp:18515"
    "srq_pingpong|ibv_srq_pingpong -d rdmascope0 -g 1 -n 50 -s 4096 -q 4|tcp:18515"
    "send_bw|ib_send_bw -d rdmascope0 -x 1 -F -n 100 -s 8192|tcp:18515"
    "write_bw|ib_write_bw -d rdmascope0 -x 1 -F -n 100 -s 8192|tcp:18515"
    "read_bw|ib_read_bw -d rdmascope0 -x 1 -F -n 100 -s 8192|tcp:18515"
    "atomic_bw|ib_atomic_bw -d rdmascope0 -x 1 -F -n 100|tcp:18515"
    "send_lat|ib_send_lat -d rdmascope0 -x 1 -F -n 100|tcp:18515"
    "write_lat|ib_write_lat -d rdmascope0 -x 1 -F -n 100|tcp:18515"
    "read_lat|ib_read_lat -d rdmascope0 -x 1 -F -n 100|tcp:18515")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 command)
  list(GET parts 2 ready)
  rdmascope_fabric_program(loss_${name} SERVER "${command}" CLIENT "${command} localhost"
                           READY ${ready} LOSS 0.1 TIMEOUT 120
                           EXPECT --seed 3 --expect-resends)
endforeach()
