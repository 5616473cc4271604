#!/usr/bin/env bash
# The Debian package, end to end: cpack builds it from this build tree into a scratch folder;
# dpkg-deb checks its control fields (dependencies from the linked libraries, tshark and qemu
# recommended) and apt-get --simulate that this system can satisfy them; lintian reports no
# error; dpkg-deb -x unpacks it into a fresh root, where the installed programs, found only
# relative to themselves, run: rdmascope-cli --version, decode --verify of every installed
# example, sim tour, lab list, fabric + exec (the private drop-in libraries, with ibv_devinfo
# when present), rdmascope --screenshot offscreen; the installed man pages render and name
# every command and option, the installed completion completes with them.
# Unpacking rather than `dpkg -i`: installing into the live system is not a test's to do, and
# dpkg --root needs a whole second system for its dependencies; dpkg-deb -x lays out exactly the
# files dpkg would install, and apt-get -s checks the dependencies against this system.
# Then `cmake --install --prefix` into another fresh folder: the same programs find the same
# files there.
# Usage: package_test.sh CMAKE CPACK BUILD_DIR SOURCE_DIR
set -euo pipefail
cmake=$1 cpack=$2 build=$3 source_dir=$4
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/oracle.sh
source "$here/../support/oracle.sh"
oracle_require dpkg-deb dpkg-shlibdeps lintian man python3 "$cmake" "$cpack"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rdmascope-package.XXXXXX")
fabric_pid=
cleanup() {
  [ -n "$fabric_pid" ] && kill "$fabric_pid" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
step() { printf '== %s (%ss)\n' "$*" "$SECONDS"; }

step "cpack -G DEB"
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/out" >"$scratch/cpack.log" 2>&1 ||
  { cat "$scratch/cpack.log"; echo "FAILED: cpack"; exit 1; }
debs=("$scratch"/out/rdmascope_*.deb)
[ -f "${debs[0]}" ] || { cat "$scratch/cpack.log"; echo "FAILED: cpack made no .deb"; exit 1; }
deb=${debs[0]}
echo "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB"

step "control fields"
info=$(dpkg-deb --field "$deb" Package Version Architecture Depends Recommends)
echo "$info"
depends=$(dpkg-deb --field "$deb" Depends)
for lib in libqt6widgets6 libpcap0.8 libisal2 libibverbs1 librdmacm1 libfmt9 libstdc++6 libc6 \
  python3; do
  [[ ", $depends," =~ ,\ ${lib//+/\\+}[\ ,] ]] || fail "Depends does not name $lib: $depends"
done
grep -q rdmascope <<<"$depends" && fail "Depends names the package's own private libraries"
recommends=$(dpkg-deb --field "$deb" Recommends)
for pkg in tshark qemu-system-x86; do
  grep -qw -- "$pkg" <<<"$recommends" || fail "Recommends does not name $pkg: $recommends"
done

step "apt-get --simulate install"
if command -v apt-get >/dev/null; then
  apt-get --simulate --no-install-recommends install "$deb" >"$scratch/apt.log" 2>&1 ||
    { cat "$scratch/apt.log"; fail "apt-get --simulate install cannot satisfy the dependencies"; }
  grep -q '^Inst rdmascope ' "$scratch/apt.log" ||
    { cat "$scratch/apt.log"; fail "apt-get --simulate does not install rdmascope"; }
fi

step "lintian"
lintian --tag-display-limit 0 --fail-on error "$deb" >"$scratch/lintian.log" 2>&1 ||
  fail "lintian reports errors"
cat "$scratch/lintian.log"
grep -q '^E: ' "$scratch/lintian.log" && fail "lintian reports errors"

step "files"
dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$scratch/files"
for f in /usr/bin/rdmascope /usr/bin/rdmascope-cli /usr/lib/rdmascope/simdev/libibverbs.so.1 \
  /usr/lib/rdmascope/simdev/librdmacm.so.1 /usr/share/rdmascope/lab/run-pair.sh \
  /usr/share/rdmascope/examples/index.tsv /usr/share/applications/rdmascope.desktop \
  /usr/share/icons/hicolor/scalable/apps/rdmascope.svg /usr/share/man/man1/rdmascope.1.gz \
  /usr/share/man/man1/rdmascope-cli.1.gz /usr/share/bash-completion/completions/rdmascope-cli \
  /usr/share/bash-completion/completions/rdmascope /usr/share/doc/rdmascope/copyright \
  /usr/share/rdmascope/congestion/incast-pfc.json \
  /usr/share/rdmascope/congestion-scenario.schema.json; do
  grep -qxF "$f" "$scratch/files" || fail "the package does not hold $f"
done
grep -vE '^/usr/(bin|lib/rdmascope|share)/|^/usr/(lib|share)?/?$|^/$|^/usr/$' "$scratch/files" |
  grep . && fail "the package installs outside /usr/bin, /usr/lib/rdmascope and /usr/share"
grep -E '^/usr/lib/[^/]*/?lib(ibverbs|rdmacm)' "$scratch/files" &&
  fail "the package puts a drop-in library on the loader's path"

step "dpkg-deb -x into a fresh root"
root=$scratch/root
dpkg-deb -x "$deb" "$root"
bin=$root/usr/bin
cli=$bin/rdmascope-cli
for program in "$bin/rdmascope" "$cli"; do
  for tree in "$build" "$source_dir"; do
    grep -qF "$tree" "$program" && fail "$(basename "$program") holds the path $tree"
  done
done

step "rdmascope-cli --version"
version=$("$cli" --version)
echo "$version"
expected_commit=$(git -C "$source_dir" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[[ $version =~ ^rdmascope-cli\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{12}|unknown)\)$ ]] ||
  fail "--version printed '$version'"
[[ $version == *"(commit $expected_commit)" ]] ||
  echo "note: built from commit ${version##*commit } while the tree is at $expected_commit"

step "decode --verify every installed example"
examples=0
while IFS=$'\t' read -r name text; do
  [[ $name == '#'* || -z $name ]] && continue
  [ -n "$text" ] || fail "examples/index.tsv: $name has no description"
  out=$("$cli" decode --verify "$root/usr/share/rdmascope/examples/$name") ||
    fail "decode --verify $name: exit $?"
  [[ $(tail -1 <<<"$out") =~ ^([0-9]+)\ frames:\ ([0-9]+)\ good\ CRC ]] &&
    [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -gt 0 ] ||
    fail "decode --verify $name: $(tail -1 <<<"$out")"
  examples=$((examples + 1))
done <"$root/usr/share/rdmascope/examples/index.tsv"
echo "$examples examples decoded, every CRC good"
((examples >= 5)) || fail "only $examples examples installed"

step "sim tour"
"$cli" sim tour --trace none >"$scratch/tour.txt" || fail "sim tour: exit $?"
grep -q '^host-a wr_id [0-9]* SUCCESS' "$scratch/tour.txt" ||
  fail "sim tour printed no completion: $(head -5 "$scratch/tour.txt")"

step "lab list"
"$cli" lab list >"$scratch/lab.txt" 2>&1 || true
grep -q '^# lab scenarios' "$scratch/lab.txt" && grep -q '^rc-send-recv' "$scratch/lab.txt" ||
  fail "lab list did not find the installed lab: $(head -3 "$scratch/lab.txt")"

step "fabric and exec"
socket=$scratch/fabric.sock
"$cli" fabric --socket "$socket" >"$scratch/fabric.txt" 2>&1 &
fabric_pid=$!
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
env_out=$("$cli" exec --fabric "$socket" --host 1 --env) || fail "exec --env: exit $?"
grep -qF "LD_LIBRARY_PATH=$root/usr/lib/rdmascope/simdev" <<<"$env_out" ||
  fail "exec does not use the installed drop-in libraries: $env_out"
if command -v ibv_devinfo >/dev/null; then
  devinfo=$("$cli" exec --fabric "$socket" --host 1 -- ibv_devinfo -d rdmascope0 2>&1) ||
    fail "exec -- ibv_devinfo: $devinfo"
  grep -q 'hca_id:.*rdmascope0' <<<"$devinfo" || fail "ibv_devinfo on the fabric: $devinfo"
fi
# A copy of the program with no drop-in libraries beside it says so in one line.
mkdir -p "$scratch/lone/bin"
cp "$cli" "$scratch/lone/bin/"
if lone=$("$scratch/lone/bin/rdmascope-cli" exec --fabric "$socket" --host 1 --env 2>&1); then
  fail "exec without drop-in libraries succeeded: $lone"
elif [ "$(wc -l <<<"$lone")" != 1 ] || [[ $lone != *"libibverbs.so.1 is neither installed"* ]]; then
  fail "exec without drop-in libraries: $lone"
fi
kill "$fabric_pid"
wait "$fabric_pid" 2>/dev/null || true
fabric_pid=

step "rdmascope --version, --screenshot (offscreen)"
gui_version=$(QT_QPA_PLATFORM=offscreen "$bin/rdmascope" --version)
[[ $gui_version == "rdmascope ${version#rdmascope-cli }" ]] ||
  fail "rdmascope --version printed '$gui_version', rdmascope-cli '$version'"
QT_QPA_PLATFORM=offscreen "$bin/rdmascope" --size 1280x720 --frame 3 \
  --screenshot "$scratch/shot.png" "$root/usr/share/rdmascope/examples/rc-pingpong.pcap" ||
  fail "rdmascope --screenshot: exit $?"
[ "$(head -c 8 "$scratch/shot.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
  [ "$(stat -c %s "$scratch/shot.png")" -gt 20000 ] || fail "rdmascope --screenshot wrote no PNG"

step "man pages"
for page in rdmascope rdmascope-cli; do
  kind=--cli
  [ $page = rdmascope ] && kind=--gui
  python3 "$here/check_man_page.py" "$kind" "$bin/$page" "$root/usr/share/man/man1/$page.1.gz" ||
    fail "man page $page.1"
done

step "bash completion"
# package.completion checks these files in full against the programs' --help; here: they are
# the ones installed, and they complete with the installed programs.
completions=$root/usr/share/bash-completion/completions
for program in rdmascope-cli rdmascope; do
  cmp -s "$completions/$program" "$source_dir/packaging/completion/$program" ||
    fail "the installed completion of $program is not packaging/completion/$program"
done
offered=$(
  # shellcheck source=/dev/null
  source "$completions/rdmascope-cli"
  COMP_WORDS=("$cli" sim r) COMP_CWORD=2
  _rdmascope_cli
  printf '%s\n' "${COMPREPLY[@]}"
  COMP_WORDS=("$cli" decode -Y infiniband.bth.ps) COMP_CWORD=3
  _rdmascope_cli
  printf '%s\n' "${COMPREPLY[@]}"
)
for word in rc-read rnr-retry infiniband.bth.psn; do
  grep -qxF "$word" <<<"$offered" || fail "the installed completion does not offer $word: $offered"
done

step "cmake --install --prefix elsewhere"
prefix=$scratch/elsewhere/opt
"$cmake" --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
  { cat "$scratch/install.log"; fail "cmake --install"; }
"$prefix/bin/rdmascope-cli" decode --verify "$prefix/share/rdmascope/examples/rping.pcap" \
  >/dev/null || fail "decode --verify from the prefix: exit $?"
lab_list=$("$prefix/bin/rdmascope-cli" lab list 2>&1 || true)
grep -q '^rc-send-recv' <<<"$lab_list" || fail "lab list from the prefix: $(head -3 <<<"$lab_list")"
[ -f "$prefix/lib/rdmascope/simdev/libibverbs.so.1" ] ||
  fail "cmake --install put no drop-in libibverbs.so.1 in $prefix/lib/rdmascope/simdev"

step "done"
((failures == 0)) || { echo "$failures failures"; exit 1; }
