#!/usr/bin/env bash
# `make install PREFIX=...` puts the binary, the manual page and the three completion
# scripts in place, and they work from there; `make uninstall` removes every one.
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
files=(bin/paylinks share/man/man1/paylinks.1 share/bash-completion/completions/paylinks
    share/zsh/site-functions/_paylinks share/fish/vendor_completions.d/paylinks.fish)

make --no-print-directory install PREFIX="$prefix" >/dev/null
for file in "${files[@]}"; do
    [ -s "$prefix/$file" ] || { echo "FAIL: make install did not install $file" >&2; exit 1; }
done
(cd / && "$prefix/bin/paylinks" purchase --sku starter_pack_001 --json --seed 1 >/dev/null) ||
    { echo "FAIL: the installed binary does not run from /" >&2; exit 1; }
# What keeps start-up short: no concurrency runtime, whose libdispatch starts its work
# with the process (Makefile, release), and no string-processing module, whose regular
# expression engine every start would load (Sources/PaylinksKit/Formatting/Occurrences.swift).
if grep -q "BUG in libdispatch" "$prefix/bin/paylinks"; then
    echo "FAIL: the release binary links libdispatch; something reached the concurrency runtime" >&2
    exit 1
fi
if grep -q "RegexOutput" "$prefix/bin/paylinks"; then
    echo "FAIL: the release binary links _StringProcessing; use firstOccurrence(of:) and replacingEvery" >&2
    exit 1
fi
# The libraries the README says the installed binary needs, and no other.
if command -v readelf >/dev/null 2>&1; then
    needed=$(readelf -d "$prefix/bin/paylinks" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
    for library in $needed; do
        case $library in
        libc.so.* | libm.so.* | libgcc_s.so.* | ld-linux*.so.*)
            grep -qF "\`${library%%.so*}\`" README.md || [[ $library == ld-linux* ]] ||
                { echo "FAIL: the README does not name $library among the libraries the binary needs" >&2; exit 1; } ;;
        *) echo "FAIL: the release binary needs $library, which the README does not name" >&2; exit 1 ;;
        esac
    done
fi
if command -v man >/dev/null 2>&1; then
    MANPATH="$prefix/share/man" man paylinks 2>/dev/null | grep -q "checkout simulator" ||
        { echo "FAIL: man paylinks does not show the page" >&2; exit 1; }
fi
make --no-print-directory uninstall PREFIX="$prefix" >/dev/null
for file in "${files[@]}"; do
    [ ! -e "$prefix/$file" ] || { echo "FAIL: make uninstall left $file" >&2; exit 1; }
done
echo "install and uninstall: ok (${#files[@]} files)"
