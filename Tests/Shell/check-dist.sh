#!/usr/bin/env bash
# `make dist` makes the release tarball and its SHA256SUMS; the same commit makes the same
# bytes; and the tarball, unpacked into an empty directory on a PATH that holds nothing
# else of paylinks, runs the README's first command and a sandbox around a command.
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

make --no-print-directory dist DISTDIR="$out/first" >/dev/null
make --no-print-directory dist DISTDIR="$out/second" >/dev/null
tarball=$(cd "$out/first" && ls ./*.tar.gz)
tarball=${tarball#./}
name=${tarball%.tar.gz}
version=$(sed -n 's/.*version = "\([^"]*\)".*/\1/p' Sources/PaylinksCommandLine/CLI/Help.swift | head -n 1)
[ "$name" = "paylinks-$version-$(uname -s | tr 'A-Z' 'a-z')-$(uname -m)" ] || fail "the tarball is named $tarball"
(cd "$out/first" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the tarball"
cmp -s "$out/first/SHA256SUMS" "$out/second/SHA256SUMS" || fail "two runs of make dist made different tarballs"

# What it holds: the one directory, the binary, the manual page, three completions, the docs.
expected="$name/
$name/CHANGELOG.md
$name/README.md
$name/bin/
$name/bin/paylinks
$name/share/
$name/share/bash-completion/
$name/share/bash-completion/completions/
$name/share/bash-completion/completions/paylinks
$name/share/fish/
$name/share/fish/vendor_completions.d/
$name/share/fish/vendor_completions.d/paylinks.fish
$name/share/man/
$name/share/man/man1/
$name/share/man/man1/paylinks.1
$name/share/zsh/
$name/share/zsh/site-functions/
$name/share/zsh/site-functions/_paylinks"
[ -f LICENSE ] && expected=$(printf '%s\n%s' "$expected" "$name/LICENSE" | LC_ALL=C sort)
listed=$(tar -tzf "$out/first/$tarball" | LC_ALL=C sort)
[ "$listed" = "$(printf '%s\n' "$expected" | LC_ALL=C sort)" ] || fail "the tarball holds:
$listed"
owners=$(tar -tvzf "$out/first/$tarball" | awk '{ print $2 }' | sort -u)
[ "$owners" = "0/0" ] || fail "the tarball's files are owned by $owners, not 0/0"

# Unpacked into an empty directory, run from another, with nothing else on PATH.
mkdir "$out/unpacked" "$out/elsewhere"
tar -xzf "$out/first/$tarball" -C "$out/unpacked"
bin="$out/unpacked/$name/bin"
run() { (cd "$out/elsewhere" && env -i HOME="$out/elsewhere" PATH="$bin:/usr/bin:/bin" "$@"); }
[ "$(run sh -c 'command -v paylinks')" = "$bin/paylinks" ] || fail "paylinks on the PATH is not the unpacked one"
first=$(run paylinks purchase --sku starter_pack_001) || fail "paylinks purchase --sku starter_pack_001 exited $?"
grep -q "onPurchaseSuccess" <<<"$first" || fail "paylinks purchase printed no onPurchaseSuccess:
$first"
# A sandbox around a command: the command asks it through the URL it is given, and the
# sandbox's exit is the command's.
run paylinks serve --port 0 -- sh -c 'paylinks health "$PAYLINKS_SANDBOX_URL"' >"$out/health" 2>"$out/log" ||
    fail "paylinks serve -- paylinks health exited $?: $(cat "$out/log")"
grep -q "^ok" "$out/health" || fail "paylinks health said: $(cat "$out/health")"
status=0
run paylinks serve --port 0 -- sh -c 'exit 7' >/dev/null 2>&1 || status=$?
[ "$status" = 7 ] || fail "paylinks serve -- sh -c 'exit 7' exited $status, not 7"
if command -v man >/dev/null 2>&1; then
    MANPATH="$out/unpacked/$name/share/man" man paylinks 2>/dev/null | grep -q "checkout simulator" ||
        fail "man paylinks does not show the unpacked page"
fi
echo "dist: ok ($tarball, $(wc -c <"$out/first/$tarball") bytes, the same from two runs)"
