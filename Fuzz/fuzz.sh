#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for SECONDS (60 by
# default), as many at once as there are cores. Seeds: Fuzz/corpus/<target> plus the real
# fixtures and example scenarios.
# A crash leaves its input in .build/fuzz/artifacts and fails the run; add it to the
# tests as a regression case.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
# FUZZ_RUNS=N runs each target for N executions instead of for a time: 10000000 for a
# long campaign.
runs_wanted=${FUZZ_RUNS:-}
if [ -n "$runs_wanted" ]; then
    limit=(-runs="$runs_wanted")
    budget="$runs_wanted executions"
else
    limit=(-max_total_time="$seconds")
    budget="${seconds}s"
fi
out=.build/fuzz
mkdir -p "$out/artifacts"
modules="$out/modules"
mkdir -p "$modules"
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
# Each module in one optimizing pass over all its files, its code generated on every core:
# a third faster to build than a file at a time, each file type-checking the others again.
flags=(-sanitize=fuzzer,address -parse-as-library -O -wmo -num-threads "$cores" -swift-version 6 -enable-testing
    -package-name paylinks -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
    -I "$modules")

# Static libraries carry no autolink entries for the C library's overlay: name it.
libc=()
[ "$(uname -s)" = Linux ] && libc=(-lswiftGlibc)

# compile ARGUMENTS...: swiftc with the fuzzing flags; its output is shown only when it fails.
compile() {
    if ! swiftc "${flags[@]}" "$@" >"$out/compile.log" 2>&1; then
        grep -v "Cannot export local symbol" "$out/compile.log" >&2
        echo "error: the fuzzers did not build" >&2
        exit 1
    fi
}

# The layers, each a static library instrumented for the fuzzer, in the order they import each other.
for module in PaylinksJSON PaylinksKit PaylinksFixtures PaylinksAppcharge PaylinksHTTP PaylinksDelivery PaylinksSandbox \
    PaylinksCommandLine; do
    echo "== building $module for fuzzing" >&2
    # A static library is added to, not replaced: an object of a file since renamed would stay.
    rm -f "$modules/lib$module.a"
    # shellcheck disable=SC2046
    compile -module-name "$module" -emit-module -emit-module-path "$modules/$module.swiftmodule" \
        -emit-library -static -o "$modules/lib$module.a" $(find "Sources/$module" -name '*.swift' | sort)
done

declare -A seeds=(
    [arguments]="Fuzz/corpus/arguments"
    [fixtures]="Fuzz/corpus/fixtures Fixtures"
    [scenarios]="Fuzz/corpus/scenarios Fixtures/scenarios"
    [responses]="Fuzz/corpus/responses"
    [requests]="Fuzz/corpus/requests"
    [journals]="Fuzz/corpus/journals"
    [awards]="Fuzz/corpus/awards"
    [bodies]="Fuzz/corpus/bodies"
)
declare -A files=([arguments]=ArgumentsFuzzer [fixtures]=FixturesFuzzer [scenarios]=ScenariosFuzzer
    [responses]=HTTPResponseFuzzer [requests]=HTTPRequestFuzzer [journals]=JournalFuzzer
    [awards]=AwardAnswerFuzzer [bodies]=BodiesFuzzer)

# The libraries each target links, each before those it imports: the HTTP parsers' targets
# link the transport alone.
everything="PaylinksCommandLine PaylinksSandbox PaylinksDelivery PaylinksHTTP PaylinksAppcharge PaylinksFixtures
    PaylinksKit PaylinksJSON"
declare -A libraries=([arguments]=$everything [fixtures]=$everything [scenarios]=$everything
    [responses]="PaylinksHTTP" [requests]="PaylinksHTTP"
    [journals]=$everything [awards]="PaylinksAppcharge PaylinksFixtures PaylinksKit PaylinksJSON"
    [bodies]="PaylinksAppcharge PaylinksFixtures PaylinksKit PaylinksJSON")

# The longest input of a target: a journal of 16 KiB holds a dozen records of every kind,
# and is read a few times faster than one of 64 KiB.
declare -A max_len=([journals]=16384)

# FUZZ_TARGETS="fixtures requests" runs only those targets (all eight by default).
targets=${FUZZ_TARGETS:-arguments fixtures scenarios responses requests journals awards bodies}
for target in $targets; do
    [ -n "${files[$target]:-}" ] || { echo "error: no fuzz target '$target'; the targets are: ${!files[*]}" >&2; exit 2; }
done

for target in $targets; do
    echo "== building the $target fuzzer" >&2
    links=()
    for library in ${libraries[$target]}; do links+=("-l$library"); done
    compile -module-name "${files[$target]}" "Fuzz/${files[$target]}.swift" -L "$modules" "${links[@]}" "${libc[@]}" \
        -o "$out/$target"
    corpus="$out/corpus-$target"
    mkdir -p "$corpus"
    for dir in ${seeds[$target]}; do
        find "$dir" -maxdepth 1 -type f -exec cp {} "$corpus/" \;
    done
done

# fuzz TARGET: runs one target for the budget; its summary line goes to $out/TARGET.result.
fuzz() {
    local target=$1 log="$out/$1.log" started result runs crashes
    started=$(date +%s)
    if "$out/$target" "${limit[@]}" -max_len="${max_len[$target]:-65536}" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$out/artifacts/$target-" "$out/corpus-$target" >"$log" 2>&1; then
        result=ok
    else
        result=CRASH
    fi
    runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' || echo "?")
    crashes=$(find "$out/artifacts" -name "$target-*" | wc -l)
    printf 'fuzz %-10s %s: %s executions in %ss, %s crash inputs\n' "$target" "$result" "$runs" \
        "$(($(date +%s) - started))" "$crashes" >"$out/$target.result"
}

# Each fuzzer is one process on one core: as many run at once as there are cores.
echo "== running the fuzzers for $budget each, $cores at a time" >&2
for target in $targets; do
    rm -f "$out/$target.result"
    while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || true; done
    fuzz "$target" &
done
wait
status=0
for target in $targets; do
    cat "$out/$target.result" 2>/dev/null || echo "fuzz $target: no result; see $out/$target.log"
    if ! grep -q " ok:" "$out/$target.result" 2>/dev/null; then
        status=1
        tail -n 30 "$out/$target.log" >&2
    fi
done
exit $status
