#!/usr/bin/env bash
# Writes Sources/paylinks/startup-order.txt: the functions of the paylinks binary that its
# commands run at start, then the variables they read or write, a symbol a line, those
# every command uses first. The release build's linker lays them out together (see
# RELEASEFLAGS in the Makefile), so that a start faults in a few pages of code instead of
# pages spread over the whole binary. The linker moves a variable with the whole data of
# the file that defines it, so the data of the files a start uses lies together too: a
# start then touches fewer pages of variables, each of which costs it a fault or two (one
# to read a page of zeros, one more to write it); purchase --json faults 150 times rather
# than 175.
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
    # The addresses of the data it loads or stores, each once, in the order first touched.
    # shellcheck disable=SC2086
    valgrind --tool=lackey --trace-mem=yes --log-fd=3 "$binary" $arguments 3>&1 >/dev/null 2>/dev/null |
        awk '$1 == "L" || $1 == "S" || $1 == "M" { split($2, a, ","); if (!(a[1] in seen)) { seen[a[1]] = 1; print a[1] } }' \
            >"$profiles/data-$number" || true
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
python3 - "$binary" "$profiles" >Sources/paylinks/startup-order.txt <<'PY'
import bisect, collections, os, re, subprocess, sys

binary, folder = sys.argv[1], sys.argv[2]
numbers = sorted(int(name) for name in os.listdir(folder) if name.isdigit())


def ordered(uses):
    """The names in uses (one set of names, in the order first used, for each command), those
    more commands use first, then in the order first used."""
    runs, first = collections.Counter(), {}
    for names in uses:
        for name in names:
            runs[name] += 1
            first.setdefault(name, len(first))
    return sorted(runs, key=lambda name: (-runs[name], first[name]))


# For each command, the functions of the binary it ran, in the order first seen.
functions_used = []
for number in numbers:
    objects, functions, current, seen = {}, {}, None, {}
    for line in open(os.path.join(folder, str(number)), encoding="utf-8", errors="replace"):
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
            if function and not function.startswith("0x"):
                seen.setdefault(function, None)
    functions_used.append(seen)

# The binary's variables and constants (nm's data, read-only data and zeroed data), by address.
variables = []
listing = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True, check=True)
for line in listing.stdout.splitlines():
    fields = line.split()
    if len(fields) == 4 and fields[2] in "bBdDrRvV" and not fields[3].startswith("_GLOBAL_OFFSET_TABLE_"):
        variables.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
starts = [start for start, _, _ in variables]
# For each command, the variables it touched, in the order first touched.
variables_used = []
for number in numbers:
    seen = {}
    for line in open(os.path.join(folder, "data-%d" % number)):
        address = int(line, 16)
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0:
            start, size, name = variables[index]
            if address < start + max(size, 1):
                seen.setdefault(name, None)
    variables_used.append(seen)

for name in ordered(functions_used) + ordered(variables_used):
    print(name)
PY
echo "Sources/paylinks/startup-order.txt: $(wc -l <Sources/paylinks/startup-order.txt) functions and variables" >&2
