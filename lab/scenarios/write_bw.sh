# perftest's ib_write_bw (RC RDMA WRITE bandwidth, 64 KiB messages): server on guest 1.
# shellcheck shell=sh
. "$(dirname "$0")/lib.sh"
if [ "$LAB_GUEST" = 1 ]; then
  exec ib_write_bw -d rxe0 -x 1 -F -n 100 -s 65536
else
  client_retry ib_write_bw -d rxe0 -x 1 -F -n 100 -s 65536 "$LAB_PEER"
fi
