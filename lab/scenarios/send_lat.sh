# perftest's ib_send_lat (RC SEND latency, 64-byte messages): server on guest 1.
# shellcheck shell=sh
. "$(dirname "$0")/lib.sh"
if [ "$LAB_GUEST" = 1 ]; then
  exec ib_send_lat -d rxe0 -x 1 -F -n 100
else
  client_retry ib_send_lat -d rxe0 -x 1 -F -n 100 "$LAB_PEER"
fi
