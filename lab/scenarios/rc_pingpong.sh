# rdma-core's ibv_rc_pingpong (100 iterations, 4 KiB): server on guest 1, client on guest 2.
# shellcheck shell=sh
. "$(dirname "$0")/lib.sh"
if [ "$LAB_GUEST" = 1 ]; then
  exec ibv_rc_pingpong -d rxe0 -g 1 -n 100
else
  client_retry ibv_rc_pingpong -d rxe0 -g 1 -n 100 "$LAB_PEER"
fi
