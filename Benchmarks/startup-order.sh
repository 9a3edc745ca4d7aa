#!/usr/bin/env bash
# Writes Sources/paylinks/startup-order.txt: the functions of the paylinks binary that its
# commands run at start, a symbol a line, those every command runs first. The release
# build's linker lays them out together (see RELEASEFLAGS in the Makefile), so that a start
# faults in a few pages of code instead of pages spread over the whole binary.
# Run it (make startup-order) after a change to what a start runs; a stale list costs some
# of that speed, never correctness: a name it lacks is placed as the linker would anyway,
# and a name no longer in the binary is passed over.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null 2>&1; then
    echo "installing valgrind from Debian's packages..." >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi
# The release build with its symbols kept, in a folder of its own.
scratch=.build/startup-order
make --no-print-directory release STRIPFLAGS= SWIFTFLAGS="-Xswiftc -warnings-as-errors --scratch-path $scratch" >/dev/null
binary="$scratch/release/paylinks"
profiles=$(mktemp -d)
trap 'rm -rf "$profiles"' EXIT
number=0
while IFS= read -r arguments; do
    number=$((number + 1))
    # Each command as a user runs it; some end with a callback's exit code, which is fine here.
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$profiles/$number" "$binary" $arguments \
        >/dev/null 2>&1 || true
done <<'COMMANDS'
purchase --sku starter_pack_001 --json
purchase --sku starter_pack_001
cancel --sku starter_pack_001
init
price-points
price-points --json
offers
--version
--help
COMMANDS
python3 - "$binary" "$profiles"/* >Sources/paylinks/startup-order.txt <<'PY'
import collections, re, sys

binary, profiles = sys.argv[1], sys.argv[2:]
# For each function of the binary, how many of the commands ran it, and when it was first seen.
runs, first = collections.Counter(), {}
for profile in profiles:
    objects, functions, current, seen = {}, {}, None, set()
    for line in open(profile, encoding="utf-8", errors="replace"):
        match = re.match(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not match:
            continue
        called, kind, key, name = match.groups()
        table = objects if kind == "ob" else functions
        if name:
            table[key] = name
        if called:
            continue
        if kind == "ob":
            current = objects.get(key, "")
        elif current.endswith("/" + binary.rsplit("/", 1)[-1]) or current == binary:
            function = functions.get(key)
            if function and not function.startswith("0x") and function not in seen:
                seen.add(function)
                runs[function] += 1
                first.setdefault(function, len(first))
for function in sorted(runs, key=lambda name: (-runs[name], first[name])):
    print(function)
PY
echo "Sources/paylinks/startup-order.txt: $(wc -l <Sources/paylinks/startup-order.txt) functions" >&2
