# Sourced by scenarios inside a lab guest. $LAB_GUEST is 1 (server side) or 2 (client side).
# shellcheck shell=sh

# client_retry COMMAND...: runs a client until its server listens. rdma-core's examples and
# perftest exit at once when the TCP connection is refused while the peer is still booting;
# any other failure is final.
client_retry() {
  n=0
  while :; do
    "$@" >/tmp/client.out 2>&1
    rc=$?
    if [ $rc -eq 0 ] || ! grep -qE "Couldn't connect|Unable to open file descriptor for socket" /tmp/client.out || [ $n -ge 120 ]; then
      cat /tmp/client.out
      return $rc
    fi
    n=$((n + 1))
    sleep 0.5
  done
}
