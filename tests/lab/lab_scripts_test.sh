#!/usr/bin/env bash
# The lab scripts' command-line interface (no qemu is started): --list, and one clear line for
# each kind of bad argument.
set -uo pipefail
lab=$(cd "$(dirname "$0")/../../lab" && pwd)
fail=0
expect() { # expect STATUS TEXT COMMAND...: exit status and a line of output containing TEXT
  local want=$1 text=$2
  shift 2
  local out
  out=$("$@" 2>&1)
  local got=$?
  if [ "$got" != "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL: $*: exit $got (expected $want), output:"
    echo "$out"
    fail=1
  else
    echo "ok: $* -> $text"
  fi
}
expect 0 $'rc_pingpong\trdma-core' "$lab/run-pair.sh" --list
expect 0 $'atomic_lat\tperftest' "$lab/run-pair.sh" --list
expect 1 "--out DIR is required" "$lab/run-pair.sh" --scenario rc_pingpong
expect 1 "--loss must be a percentage below 100, got '100'" "$lab/run-pair.sh" --out /tmp/x --loss 100 --scenario rc_pingpong
expect 1 "--loss must be a percentage below 100, got 'lots'" "$lab/run-pair.sh" --out /tmp/x --loss lots --scenario rc_pingpong
expect 1 "no scenario 'nope'" "$lab/run-pair.sh" --out /tmp/x --scenario nope
expect 1 "no scenario 'lib'" "$lab/run-pair.sh" --out /tmp/x --scenario lib
expect 1 "bad scenario name '../x'" "$lab/run-pair.sh" --out /tmp/x --scenario ../x
expect 1 "give --scenario NAME or both --guest1 and --guest2" "$lab/run-pair.sh" --out /tmp/x --guest1 true
expect 1 "--capture-on must be 1, 2 or none" "$lab/run-pair.sh" --out /tmp/x --capture-on 3 --scenario rc_pingpong
expect 1 "unknown argument '--bogus'" "$lab/run-pair.sh" --bogus x
expect 1 "--timeout needs a value" "$lab/run-pair.sh" --timeout
expect 1 "--guest must be 1 or 2" "$lab/boot-guest.sh" --guest 3
expect 1 "--local-port and --remote-port are required" "$lab/boot-guest.sh" --guest 1 --results /tmp
expect 1 "--results needs a value" "$lab/boot-guest.sh" --guest 1 --results
expect 1 "unknown argument '--x'" "$lab/prepare.sh" --x
exit $fail
