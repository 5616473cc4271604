# perftest's ib_read_lat (RC RDMA READ latency, 64-byte reads): server on guest 1.
# shellcheck shell=sh
. "$(dirname "$0")/lib.sh"
if [ "$LAB_GUEST" = 1 ]; then
  exec ib_read_lat -d rxe0 -x 1 -F -n 100
else
  client_retry ib_read_lat -d rxe0 -x 1 -F -n 100 "$LAB_PEER"
fi
