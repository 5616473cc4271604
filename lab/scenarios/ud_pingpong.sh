# rdma-core's ibv_ud_pingpong: server on guest 1, client on guest 2 (GID index 1, RoCEv2).
. "$(dirname "$0")/lib.sh"
if [ "$LAB_GUEST" = 1 ]; then
  exec ibv_ud_pingpong -d rxe0 -g 1 -n 100
else
  client_retry ibv_ud_pingpong -d rxe0 -g 1 -n 100 "$LAB_PEER"
fi
