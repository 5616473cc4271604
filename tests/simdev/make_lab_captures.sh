#!/usr/bin/env bash
# Records the lab captures the fabric is compared with (tests/simdev/data/lab_NAME.pcap): each
# program pair of tests/simdev/parity_programs.txt run unmodified on real Soft-RoCE in the qemu
# lab (lab/run-pair.sh), server on guest 1 (10.9.0.1), client on guest 2, captured on guest 1.
# Usage: tests/simdev/make_lab_captures.sh [NAME...]   (default: every pair of the list)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$here/data"
mkdir -p "$out"
failed=()
while IFS='|' read -r name server client; do
  name=${name//[[:space:]]/}
  { [ -z "$name" ] || [ "${name#\#}" != "$name" ]; } && continue
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  subst="s#EXAMPLES#${RDMASCOPE_EXAMPLES:-$root/build/dev/examples}#g"'; s/DEV/rxe0/g; s/SERVER_IP/10.9.0.1/g; s/SERVER/10.9.0.1/g; s/^ *//; s/ *$//'
  server=$(sed "$subst" <<<"$server")
  client=$(sed "$subst" <<<"$client")
  run=$(mktemp -d)
  echo "lab: $name: $server | $client"
  # the client retries until the server (booting in the other guest) is there; rdma_cm clients
  # wait instead (a retry would leave a REJ or a failed SIDR in the capture)
  retry="n=0; until $client; do n=\$((n+1)); [ \$n -ge 60 ] && exit 1; sleep 1; done"
  case "$client" in
    *rping*|*ucmatose*|*udaddy*|*send_recv_cm*) retry="sleep ${RDMASCOPE_LAB_CM_DELAY:-30}; $client" ;;
  esac
  ok=0
  for attempt in 1 2; do  # a guest that did not boot in time (a loaded machine) gets one more go
    if "$root/lab/run-pair.sh" --out "$run" --capture-on 1 --timeout 120 \
      --guest1 "$server" \
      --guest2 "$retry"; then
      ok=1
      break
    fi
    echo "lab: $name: attempt $attempt failed" >&2
  done
  if [ $ok = 0 ]; then
    failed+=("$name")
    continue
  fi
  cp "$run/capture.pcap" "$out/lab_$name.pcap"
  {
    echo "== $name (server: $server; client: $client)"
    cat "$run/guest1/output.txt"
    echo "-- client"
    tail -n 40 "$run/guest2/output.txt"
  } >"$out/lab_$name.txt"
  rm -rf "$run"
done <"$here/parity_programs.txt"
if ((${#failed[@]})); then
  echo "lab: failed: ${failed[*]}" >&2
  exit 1
fi
