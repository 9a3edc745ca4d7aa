#!/usr/bin/env bash
# Writes Sources/paylinks/startup-order.txt: the functions of the paylinks binary that its
# commands run at start, then the variables they read or write, a symbol a line: those the
# main job (purchase --json, the first command below) uses first, then those more commands
# use. The release build's linker lays them out together (see RELEASEFLAGS in the
# Makefile), so that a start faults in a few pages of code instead of pages spread over the
# whole binary. The linker moves a variable with the whole data of the file that defines
# it, so the data of the files a start uses lies together too: a start then touches fewer
# pages of variables, each of which costs it a fault or two (one to read a page of zeros,
# one more to write it). What a command uses is read from one trace of every address it
# runs or touches (valgrind's lackey), so that a function no profile names, a tail call's
# target say, is not left out. Laid out so, purchase --json faults 143 times, where the
# main job placed among the other commands faulted 155 times.
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
    # The addresses of the instructions it runs and of the data it loads or stores, each
    # once, in the order first reached.
    # shellcheck disable=SC2086
    valgrind --tool=lackey --trace-mem=yes --log-fd=3 "$binary" $arguments 3>&1 >/dev/null 2>/dev/null |
        awk -v code="$profiles/code-$number" -v data="$profiles/data-$number" '
            $1 == "I" || $1 == "L" || $1 == "S" || $1 == "M" {
                split($2, a, ","); if (a[1] in seen) next; seen[a[1]] = 1
                print a[1] > ($1 == "I" ? code : data)
            }' || true
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
import bisect, collections, os, subprocess, sys

binary, folder = sys.argv[1], sys.argv[2]
numbers = sorted(int(name.split("-")[1]) for name in os.listdir(folder) if name.startswith("code-"))


def ordered(uses):
    """The names in uses (one set of names, in the order first used, for each command): those
    the first command (the main job) uses first, then those more commands use, then in the
    order first used."""
    runs, first = collections.Counter(), {}
    for names in uses:
        for name in names:
            runs[name] += 1
            first.setdefault(name, len(first))
    main = uses[0] if uses else {}
    return sorted(runs, key=lambda name: (name not in main, -runs[name], first[name]))


# The binary's symbols, by address: its functions (nm's text and weak symbols) and its
# variables and constants (data, read-only data and zeroed data).
symbols = {"code": [], "data": []}
listing = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True, check=True)
for line in listing.stdout.splitlines():
    fields = line.split()
    if len(fields) != 4 or fields[3].startswith("_GLOBAL_OFFSET_TABLE_"):
        continue
    kind = "code" if fields[2] in "tTwW" else "data" if fields[2] in "bBdDrRvV" else None
    if kind:
        symbols[kind].append((int(fields[0], 16), int(fields[1], 16), fields[3]))


def used(kind, number):
    """The symbols of kind that command number reached, in the order first reached."""
    table = symbols[kind]
    starts = [start for start, _, _ in table]
    seen = {}
    for line in open(os.path.join(folder, "%s-%d" % (kind, number))):
        address = int(line, 16)
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0:
            start, size, name = table[index]
            if address < start + max(size, 1):
                seen.setdefault(name, None)
    return seen


functions_used = [used("code", number) for number in numbers]
variables_used = [used("data", number) for number in numbers]
for name in ordered(functions_used) + ordered(variables_used):
    print(name)
PY
echo "Sources/paylinks/startup-order.txt: $(wc -l <Sources/paylinks/startup-order.txt) functions and variables" >&2
