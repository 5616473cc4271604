# perftest's ib_atomic_lat (RC FETCH_ADD latency): server on guest 1.
# shellcheck shell=sh
. "$(dirname "$0")/lib.sh"
if [ "$LAB_GUEST" = 1 ]; then
  exec ib_atomic_lat -d rxe0 -x 1 -F -n 100
else
  client_retry ib_atomic_lat -d rxe0 -x 1 -F -n 100 "$LAB_PEER"
fi
