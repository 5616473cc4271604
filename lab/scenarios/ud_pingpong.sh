# rdma-core's ibv_ud_pingpong (100 iterations of 1 KiB: a UD message fits one MTU): server on guest 1.
# shellcheck shell=sh
. "$(dirname "$0")/lib.sh"
if [ "$LAB_GUEST" = 1 ]; then
  exec ibv_ud_pingpong -d rxe0 -g 1 -n 100 -s 1024
else
  client_retry ibv_ud_pingpong -d rxe0 -g 1 -n 100 -s 1024 "$LAB_PEER"
fi
