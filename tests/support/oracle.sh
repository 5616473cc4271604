# Sourced by the shell test drivers: the oracle rules of tests/support/oracle.h for ctest
# scripts. A missing oracle ends the test: exit 77 (ctest's SKIP_RETURN_CODE of these tests)
# naming what is missing, or exit 1 under RDMASCOPE_REQUIRE_ORACLES=1 (scripts/test.sh, CI).
# shellcheck shell=bash

ORACLE_SUPPORT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# oracle_path NAME: prints where the program NAME (tshark, editcap) is: $RDMASCOPE_<NAME> when
# set (it must be an executable file), else NAME on PATH. Prints nothing when it is missing.
oracle_path() {
  local var
  var=RDMASCOPE_$(tr 'a-z-' 'A-Z_' <<<"$1")
  if [ -n "${!var:-}" ]; then
    if [ -f "${!var}" ] && [ -x "${!var}" ]; then echo "${!var}"; fi
    return 0
  fi
  command -v "$1" 2>/dev/null || true
}

# oracle_missing WHAT...: prints what of WHAT is missing, joined with "; " (nothing when all
# are there). WHAT is a program name (tshark, editcap), "lab" (RDMASCOPE_SKIP_LAB=1 or what
# lab_prerequisites.txt lists), or a path to a built program.
oracle_missing() {
  local what missing=() var lab_missing line name pkg
  for what in "$@"; do
    case $what in
      lab)
        if [ "${RDMASCOPE_SKIP_LAB:-0}" = 1 ]; then
          missing+=("the Soft-RoCE lab (RDMASCOPE_SKIP_LAB=1)")
          continue
        fi
        lab_missing=()
        while read -r name pkg _; do
          case $name in '' | '#'*) continue ;; esac
          if [[ $name == /* ]]; then [ -e "$name" ] && continue; else
            command -v "$name" >/dev/null 2>&1 && continue
          fi
          lab_missing+=("$name (Debian package $pkg)")
        done <"$ORACLE_SUPPORT_DIR/lab_prerequisites.txt"
        if ((${#lab_missing[@]})); then
          line=$(printf '%s, ' "${lab_missing[@]}")
          missing+=("the Soft-RoCE lab (missing ${line%, })")
        fi
        ;;
      */*)
        [ -f "$what" ] && [ -x "$what" ] || missing+=("$what (not built)")
        ;;
      *)
        if [ -z "$(oracle_path "$what")" ]; then
          var=RDMASCOPE_$(tr 'a-z-' 'A-Z_' <<<"$what")
          if [ -n "${!var:-}" ]; then
            missing+=("$what ($var=${!var} is not an executable file)")
          else
            missing+=("$what (not on PATH)")
          fi
        fi
        ;;
    esac
  done
  if ((${#missing[@]})); then
    line=$(printf '%s; ' "${missing[@]}")
    echo "${line%; }"
  fi
}

# oracle_require WHAT...: returns when everything is there; otherwise ends the script, naming
# what is missing (exit 77: skipped; exit 1 under RDMASCOPE_REQUIRE_ORACLES=1).
oracle_require() {
  local missing
  missing=$(oracle_missing "$@")
  [ -z "$missing" ] && return 0
  if [ "${RDMASCOPE_REQUIRE_ORACLES:-0}" = 1 ]; then
    echo "FAILED: RDMASCOPE_REQUIRE_ORACLES=1 and the test needs what is missing: $missing"
    exit 1
  fi
  echo "skipped: missing: $missing"
  exit 77
}
