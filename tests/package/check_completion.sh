#!/usr/bin/env bash
# Checks the bash completion of rdmascope-cli and rdmascope against the programs themselves:
# every command and every option their --help lists is offered, and so are the built-in
# scenario names (sim --list), display-filter field keys (fields --keys) and values.
# Usage: check_completion.sh RDMASCOPE_CLI CLI_COMPLETION [RDMASCOPE GUI_COMPLETION]
set -uo pipefail
cli=$1 cli_completion=$2 gui=${3:-} gui_completion=${4:-}
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# shellcheck source=/dev/null
source "$cli_completion" || { echo "FAILED: cannot source $cli_completion"; exit 1; }
complete -p rdmascope-cli >/dev/null || fail "$cli_completion does not register rdmascope-cli"

# offers PROGRAM FUNCTION WORD... : the completions of the last WORD (the line typed so far)
offers() {
  local program=$1 fn=$2
  shift 2
  COMP_WORDS=("$program" "$@")
  COMP_CWORD=$(($# ))
  COMPREPLY=()
  "$fn"
  printf '%s\n' "${COMPREPLY[@]}"
}
# expect WHAT WANTED... -- OFFERED: each WANTED is among OFFERED (one a line)
expect() {
  local what=$1 offered w
  shift
  local wanted=()
  while [ "$1" != -- ]; do wanted+=("$1"); shift; done
  offered=$2
  for w in "${wanted[@]}"; do
    grep -qxF -- "$w" <<<"$offered" || fail "$what: '$w' not offered (offered: $(tr '\n' ' ' <<<"$offered"))"
  done
}
help_listing() {  # the options and subcommands of `cli WORDS... --help`
  "$cli" "$@" --help | awk '
    /^[A-Za-z]+:$/ { section = $1; next }
    section == "Options:" && /^  -/ { n = split($1, names, ","); for (i = 1; i <= n; i++) print names[i] }
    section == "Subcommands:" && /^  [a-z]/ { print "cmd " $1 }'
}

# Every command and, for each leaf command, every option.
mapfile -t commands < <(help_listing | sed -n 's/^cmd //p')
((${#commands[@]} >= 10)) || fail "$cli --help lists only ${commands[*]}"
expect "rdmascope-cli <TAB>" "${commands[@]}" -- "$(offers "$cli" _rdmascope_cli "")"
checked=0
todo=("${commands[@]}")
while ((${#todo[@]})); do
  path=${todo[0]}
  todo=("${todo[@]:1}")
  # shellcheck disable=SC2086
  listing=$(help_listing $path)
  subs=$(sed -n 's/^cmd //p' <<<"$listing")
  if [ -n "$subs" ]; then
    # shellcheck disable=SC2086
    expect "rdmascope-cli $path <TAB>" $subs -- "$(offers "$cli" _rdmascope_cli $path "")"
    for s in $subs; do todo+=("$path $s"); done
    continue
  fi
  mapfile -t options < <(grep -v '^cmd ' <<<"$listing")
  # shellcheck disable=SC2086
  expect "rdmascope-cli $path -<TAB>" "${options[@]}" -- "$(offers "$cli" _rdmascope_cli $path -)"
  checked=$((checked + 1))
done

# Values: scenario names, field keys, formats, files.
mapfile -t scenarios < <("$cli" sim --list | cut -f1)
((${#scenarios[@]} >= 5)) || fail "sim --list names only ${scenarios[*]}"
expect "sim <TAB>" "${scenarios[@]}" -- "$(offers "$cli" _rdmascope_cli sim "")"
expect "verbs --scenario rc-<TAB>" rc-read rc-write -- \
  "$(offers "$cli" _rdmascope_cli verbs --scenario rc-)"
expect "decode -Y infiniband.bth.ps<TAB>" infiniband.bth.psn -- \
  "$(offers "$cli" _rdmascope_cli decode -Y infiniband.bth.ps)"
expect "decode -T fields -e ip.<TAB>" ip.src ip.dst ip.addr -- \
  "$(offers "$cli" _rdmascope_cli decode -T fields -e ip.)"
expect "decode -T <TAB>" fields json text -- "$(offers "$cli" _rdmascope_cli decode -T "")"
expect "sim tour --wire <TAB>" rocev2 rocev1 ib -- \
  "$(offers "$cli" _rdmascope_cli sim tour --wire "")"
expect "--version" --version -- "$(offers "$cli" _rdmascope_cli --ver)"
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
touch "$folder/a.pcap" "$folder/b.pcapng" "$folder/c.txt"
offered=$(offers "$cli" _rdmascope_cli decode "$folder/")
expect "decode FOLDER/<TAB>" "$folder/a.pcap" "$folder/b.pcapng" -- "$offered"
grep -qxF "$folder/c.txt" <<<"$offered" && fail "decode FOLDER/<TAB> offers c.txt"
expect "exec --host 1 -- ibv_rc_<TAB>" "$(compgen -c ibv_rc_ | head -1)" -- \
  "$(offers "$cli" _rdmascope_cli exec --host 1 -- ibv_rc_)"
echo "rdmascope-cli completion: $((${#commands[@]})) commands, $checked leaf commands' options," \
  "${#scenarios[@]} scenarios, field keys"

if [ -n "$gui" ]; then
  # shellcheck source=/dev/null
  source "$gui_completion" || { echo "FAILED: cannot source $gui_completion"; exit 1; }
  mapfile -t gui_options < <(QT_QPA_PLATFORM=offscreen "$gui" --help |
    awk '/^  -/ { for (i = 1; i <= NF; i++) { f = $i; if (f ~ /^-/) { sub(/,$/, "", f); print f } else if (f !~ /^</) break } }')
  ((${#gui_options[@]} >= 10)) || fail "$gui --help lists only ${gui_options[*]}"
  expect "rdmascope -<TAB>" "${gui_options[@]}" -- "$(offers "$gui" _rdmascope -)"
  expect "rdmascope --scenario rc-<TAB>" rc-read -- "$(offers "$gui" _rdmascope --scenario rc-)"
  expect "rdmascope --tab <TAB>" "Flow Graph" Plot -- "$(offers "$gui" _rdmascope --tab "")"
  expect "rdmascope FOLDER/<TAB>" "$folder/a.pcap" -- "$(offers "$gui" _rdmascope "$folder/")"
  echo "rdmascope completion: ${#gui_options[@]} options, scenarios, tabs, captures"
fi
((failures == 0)) || exit 1
