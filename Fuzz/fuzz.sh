#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for SECONDS (60 by
# default). Seeds: Fuzz/corpus/<target> plus the real fixtures and example scenarios.
# A crash leaves its input in .build/fuzz/artifacts and fails the run; add it to the
# tests as a regression case.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out/artifacts"
sources=$(find Sources/PaylinksKit -name '*.swift' | sort)

declare -A seeds=(
    [arguments]="Fuzz/corpus/arguments"
    [fixtures]="Fuzz/corpus/fixtures Fixtures"
    [scenarios]="Fuzz/corpus/scenarios Fixtures/scenarios"
)
declare -A files=([arguments]=ArgumentsFuzzer [fixtures]=FixturesFuzzer [scenarios]=ScenariosFuzzer)

status=0
for target in arguments fixtures scenarios; do
    echo "== building the $target fuzzer" >&2
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -parse-as-library -module-name PaylinksKit -O \
        $sources "Fuzz/${files[$target]}.swift" -o "$out/$target" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
    corpus="$out/corpus-$target"
    mkdir -p "$corpus"
    for dir in ${seeds[$target]}; do
        find "$dir" -maxdepth 1 -type f -exec cp {} "$corpus/" \;
    done
    echo "== running the $target fuzzer for ${seconds}s" >&2
    log="$out/$target.log"
    if "$out/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$out/artifacts/$target-" "$corpus" >"$log" 2>&1; then
        result=ok
    else
        result=CRASH
        status=1
    fi
    runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' || echo "?")
    crashes=$(find "$out/artifacts" -name "$target-*" | wc -l)
    printf 'fuzz %-10s %s: %s executions in %ss, %s crash inputs\n' "$target" "$result" "$runs" "$seconds" "$crashes"
    [ "$result" = ok ] || tail -n 30 "$log" >&2
done
exit $status
