#!/usr/bin/env bash
# paylinks' benchmark: start-up against a trivial static Swift program, bulk throughput
# and peak memory, both jobs against a hand-written Python reference, award and event
# loads against wrk, the sandbox server against nginx (fresh, as users run it, after 10^6
# sessions, its control API, its price lookup, serve --data), the virtual clock over
# 10,000 pending timers, a whole `serve -- true`, scenario runs on one process and on two,
# and check-books against the example game server.
# It installs what it needs (hyperfine, GNU time, wrk, nginx) and prints every figure with
# its target.
#
# BENCH_ROUNDS=N   rounds of every comparison (5 by default, and at least 5)
# BENCH_ONLY=a,e   only these sections (a b c d g e f h i j k); all by default
# BENCH_QUICK=1    a smoke run: every duration, count and round count cut short (any
#                  BENCH_ROUNDS, fewer than 5 included); its figures mean nothing
set -euo pipefail
cd "$(dirname "$0")/.."

quick=${BENCH_QUICK:-0}
[ "$quick" = 1 ] && rounds=${BENCH_ROUNDS:-2} || rounds=${BENCH_ROUNDS:-5}
if ! [[ "$rounds" =~ ^[0-9]+$ ]] || [ "$rounds" -lt 1 ]; then
    echo "error: BENCH_ROUNDS must be a whole number of rounds, got '$rounds'" >&2
    exit 1
fi
if [ "$quick" != 1 ] && [ "$rounds" -lt 5 ]; then
    echo "error: BENCH_ROUNDS must be at least 5 (fewer only with BENCH_QUICK=1), got $rounds" >&2
    exit 1
fi
only=${BENCH_ONLY:-}
if [ -n "$only" ] && ! [[ "$only" =~ ^[abcdefghijk](,[abcdefghijk])*$ ]]; then
    echo "error: BENCH_ONLY is a comma list of section letters (a b c d g e f h i j k), got '$only'" >&2
    exit 1
fi
# section LETTER: whether the run measures that section.
section() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
# pick FULL QUICK: the figure a full run uses, or a quick run's.
pick() { [ "$quick" = 1 ] && echo "$2" || echo "$1"; }
# Every duration and count, cut short by BENCH_QUICK=1.
secs=$(pick 3 1)                      # each wrk run of a round
startup_warmup=$(pick 20 3)
startup_runs=$(pick 200 20)
bulk_n=$(pick 1000000 100000)
# Awards in each paylinks run of a round, and orders in each run of events (three events an
# order): enough that a run lasts about as long as wrk's $secs seconds, so that each side's
# start (threads, 32 connections) weighs as little in its rate as the other's: a run of a
# tenth of that, 0.3 s, counted its start into its rate and read lower than its steady one.
award_n=$(pick 200000 2000)
event_orders=$(pick 70000 700)
peak_small_n=$(pick 10000 1000)
peak_large_n=$(pick 100000 10000)
sessions_small=$(pick 10000 1000)
sessions_large=$(pick 1000000 20000)
scenario_n=$(pick 10000 500)
books_orders=$(pick 2000 200)
timers=$(pick 10000 500)

need() { command -v "$1" >/dev/null 2>&1; }
have_nginx() { need nginx || [ -x /usr/sbin/nginx ]; }
if ! need hyperfine || [ ! -x /usr/bin/time ] || ! need wrk || ! have_nginx; then
    if need apt-get; then
        echo "installing hyperfine, time, wrk and nginx from Debian's packages..." >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine time wrk nginx-light >/dev/null
    else
        echo "error: the benchmark needs hyperfine, /usr/bin/time, wrk and nginx; install them" >&2
        exit 1
    fi
fi
need python3 || { echo "error: python3 is needed for the reference implementation" >&2; exit 1; }

work=$(mktemp -d)
# Servers the run started, each stopped at the end whatever happens.
server_pids=()
stop_all() {
    for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for file in "$work"/*/nginx.pid; do [ -s "$file" ] && kill "$(cat "$file")" 2>/dev/null || true; done
    rm -rf "$work"
}
trap stop_all EXIT

echo "building the release binary and the baseline..." >&2
# Only the product measured: the release build of every target would build test support too.
make --no-print-directory release SWIFTFLAGS="-Xswiftc -warnings-as-errors --product paylinks" >/dev/null
# The baseline is built the way the release binary is: optimized, stripped, and on Linux
# statically linked (the C++ library the Swift runtime uses too, from the archive the
# release build links, by lld), at a fixed address, exporting no symbols.
static=()
[ "$(uname -s)" = Linux ] && static=(-static-stdlib -Xclang-linker -no-pie -Xlinker --no-export-dynamic
    -L"$PWD/.build/libstdc++-archive" -use-ld=lld)
swiftc -O "${static[@]}" -Xlinker -s Benchmarks/hello.swift -o "$work/hello.built"
# Both programs are measured as installed: copied, as `make install` copies. A file the
# linker has just written sits in the page cache in small pieces, so each page fault maps
# less of it; that makes a start from .build a tenth slower than from the same file
# installed, and costs the larger program more.
install -m 755 "$(swift build -c release --show-bin-path)/paylinks" "$work/paylinks"
install -m 755 "$work/hello.built" "$work/hello"
paylinks="$work/paylinks"
# The interpreter itself, not a version manager's shim in front of it.
python=$(python3 -c 'import sys; print(sys.executable)')
reference="$python Benchmarks/reference.py"
# Logs written as users write them: to a file on the build's disk, not the temporary
# directory, which may live in memory.
disk="$PWD/.build/bench-$$"
mkdir -p "$disk"
trap 'stop_all; rm -rf "$disk"' EXIT

single="$paylinks purchase --sku starter_pack_001 --json"
bulk="$paylinks purchase --sku starter_pack_001 --json --count"

# median_ms JSON INDEX: the median wall time of a hyperfine result, in milliseconds.
median_ms() { "$python" -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"]*1000))' "$1" "$2"; }
# peak_kb COMMAND...: the peak resident memory of a command, in KiB.
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
ratio() { "$python" -c 'import sys; b=float(sys.argv[2]); print("%.2f" % (float(sys.argv[1]) / b if b else 0))' "$1" "$2"; }
# median_round RESULT...: each RESULT "OURS THEIRS" is one round's two figures, measured back
# to back, in round order; prints the round whose ratio OURS/THEIRS is the median, as
# "OURS THEIRS RATIO ROUND", then every round's figures and ratio in round order
# ("1: 42319/96589 0.44  2: ..."). A shared machine's speed drifts from one minute to the
# next, so a single pair of runs can land on either side of a drift.
median_round() {
    "$python" - "$@" <<'PY'
import sys
def show(x):
    return "%d" % x if x == int(x) or abs(x) >= 100 else "%.3f" % x
rounds = [(n + 1, *map(float, r.split())) for n, r in enumerate(sys.argv[1:])]
rounds = [(n, a, b, a / b if b else 0.0) for n, a, b in rounds]
n, ours, theirs, ratio = sorted(rounds, key=lambda r: r[3])[len(rounds) // 2]
print(show(ours), show(theirs), "%.2f" % ratio, n,
      "  ".join("%d: %s/%s %.2f" % (m, show(a), show(b), r) for m, a, b, r in rounds))
PY
}
# peer_rounds NAME OURS THEIRS: $rounds rounds of two measurements back to back, OURS and
# THEIRS (shell functions, each given a file for its raw output, "$work/NAME-ours-ROUND"
# or "$work/NAME-theirs-ROUND", and printing one figure), the first of the two alternating
# from round to round, so that neither always runs on a machine the other has warmed or
# left busy; prints what median_round prints.
peer_rounds() {
    local name=$1 ours=$2 theirs=$3 round a b results=()
    for round in $(seq "$rounds"); do
        if [ $((round % 2)) = 1 ]; then
            a=$("$ours" "$work/$name-ours-$round"); b=$("$theirs" "$work/$name-theirs-$round")
        else
            b=$("$theirs" "$work/$name-theirs-$round"); a=$("$ours" "$work/$name-ours-$round")
        fi
        results+=("${a:-0} ${b:-0}")
    done
    median_round "${results[@]}"
}
verdict() { "$python" -c 'import sys; a,op,b=float(sys.argv[1]),sys.argv[2],float(sys.argv[3]); print("met" if (a<=b if op=="<=" else a<b if op=="<" else a>=b) else "MISSED")' "$1" "$2" "$3"; }
# wrk_file SCRIPT URL FILE [THREADS]: a wrk run of $secs seconds over 32 connections with
# its latencies, its output in FILE; prints its requests a second.
wrk_file() { wrk -t"${4:-2}" -c32 -d"$secs"s --latency ${1:+-s "$1"} "$2" >"$3" 2>&1 || true; rate_of "$3"; }
rate_of() { awk '/Requests\/sec/ {print int($2)}' "$1"; }
p99_of() {
    awk '$1 == "99%" { value = $2; unit = value; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", value);
        if (unit == "us") value /= 1000; else if (unit == "s") value *= 1000; printf "%.2f", value }' "$1"
}
# worst_p99 NAME: the highest p99 of every round of NAME's OURS.
worst_p99() { for round in $(seq "$rounds"); do p99_of "$work/$1-ours-$round"; echo; done | sort -g | tail -n 1; }
# every LIST: a round list from median_round, wrapped to the report's indent.
every() { echo "$1" | sed 's/  /\n/g' | paste -d'|' - - - | sed 's/|*$//; s/|/    /g; s/^/      /'; }

echo "measuring..." >&2
echo "paylinks benchmark ($(nproc) cores, $(uname -m), $(swift --version 2>/dev/null | head -n 1))"
echo "every comparison: the median of $rounds rounds, the two back to back in each, the first alternating$([ "$quick" = 1 ] && echo "; BENCH_QUICK=1: short runs, figures for a smoke test only")"

# (a) start-up: hyperfine on each program in turn, round by round; the median round counts.
# start_hello FILE, start_single FILE: one program's median wall time, in milliseconds.
start_hello() { hyperfine -N --warmup "$startup_warmup" --runs "$startup_runs" --export-json "$1" "$work/hello" >/dev/null 2>&1; median_ms "$1" 0; }
start_single() { hyperfine -N --warmup "$startup_warmup" --runs "$startup_runs" --export-json "$1" "$single" >/dev/null 2>&1; median_ms "$1" 0; }
single_ms=""
if section a; then
    read -r single_ms hello_ms startup_ratio _ startup_rounds < <(peer_rounds startup start_single start_hello)
    cat <<REPORT

(a) start-up, median wall time of $startup_runs runs a round                      target
    static Swift hello                   ${hello_ms} ms
    paylinks purchase --json             ${single_ms} ms
    ratio                                ${startup_ratio}x                  <= 1.10x  $(verdict "$startup_ratio" "<=" 1.10)
    every round, paylinks/hello ms and their ratio:
$(every "$startup_rounds")
REPORT
fi

bulk_rate=""
# measure_bulk: $bulk_rate, orders a second at N = $bulk_n.
measure_bulk() {
    hyperfine --warmup 1 --runs "$(pick 5 2)" --export-json "$work/bulk.json" "$bulk $bulk_n" >/dev/null 2>&1
    bulk_rate=$("$python" -c 'import sys; print(int(int(sys.argv[2]) / (float(sys.argv[1]) / 1000)))' "$(median_ms "$work/bulk.json" 0)" "$bulk_n")
}
if section b; then
    measure_bulk
    peak_small=$(peak_kb $bulk "$peak_small_n")
    peak_large=$(peak_kb $bulk "$bulk_n")
    memory_growth=$("$python" -c 'import sys; print("%.1f" % ((float(sys.argv[2]) / float(sys.argv[1]) - 1) * 100))' "$peak_small" "$peak_large")
    cat <<REPORT

(b) bulk: purchase --count N --json > /dev/null
    throughput at N = $bulk_n          ${bulk_rate} orders/s    >= 2,000,000   $(verdict "$bulk_rate" ">=" 2000000)
    peak memory at N = $peak_small_n            ${peak_small} KiB
    peak memory at N = $bulk_n         ${peak_large} KiB
    growth                               ${memory_growth}%                  <= 10%    $(verdict "$memory_growth" "<=" 10)
REPORT
fi

if section c; then
    [ -n "$single_ms" ] || { hyperfine -N --warmup 5 --runs 50 --export-json "$work/single.json" "$single" >/dev/null 2>&1; single_ms=$(median_ms "$work/single.json" 0); }
    [ -n "$bulk_rate" ] || measure_bulk
    hyperfine -N --warmup "$(pick 5 1)" --runs "$(pick 50 5)" --export-json "$work/ref-single.json" "$reference" >/dev/null 2>&1
    ref_single_ms=$(median_ms "$work/ref-single.json" 0)
    hyperfine --runs "$(pick 3 1)" --export-json "$work/ref-bulk.json" "$reference $bulk_n" >/dev/null 2>&1
    ref_rate=$("$python" -c 'import sys; print(int(int(sys.argv[2]) / (float(sys.argv[1]) / 1000)))' "$(median_ms "$work/ref-bulk.json" 0)" "$bulk_n")
    single_speedup=$(ratio "$ref_single_ms" "$single_ms")
    bulk_speedup=$(ratio "$bulk_rate" "$ref_rate")
    cat <<REPORT

(c) against the Python reference (json.dumps), Benchmarks/reference.py
    single purchase                      ${ref_single_ms} ms  vs  ${single_ms} ms: ${single_speedup}x     >= 10x   $(verdict "$single_speedup" ">=" 10)
    bulk, $bulk_n orders               ${ref_rate} orders/s  vs  ${bulk_rate}: ${bulk_speedup}x   >= 10x   $(verdict "$bulk_speedup" ">=" 10)
REPORT
fi

# The peers: nginx at its best on this machine (a worker per core, which the targets are
# measured against) and on one worker (the figures of earlier runs, kept comparable).
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
# start_nginx NAME WORKERS PORT [STATUS BODYFILE]: an nginx in $work/NAME answering as the
# game's server and as Appcharge's session API would, or with STATUS and BODYFILE's bytes
# to every request.
start_nginx() {
    local locations
    if [ -n "${5:-}" ]; then
        if grep -q "[\$'\\\\]" "$5"; then echo "error: nginx cannot return $5 as it is" >&2; exit 1; fi
        locations="location / { default_type application/json; return $4 '$(cat "$5")'; }"
    else
        locations="location / { default_type application/json; return 200 '{\"publisherPurchaseId\":\"bench\"}'; }
        location = /checkout/v1/session {
            default_type application/json;
            return 201 '{\"checkoutSessionToken\":\"3ca9f9b79a8f7a314612ec853f586024\",\"purchaseId\":\"pr_b6pu3vuq0dhoz2scxoyr2a9h\",\"url\":\"http://127.0.0.1/checkout\",\"parsedUrl\":\"http://127.0.0.1/checkout/3ca9f9b79a8f7a314612ec853f586024#boot=pr_b6pu3vuq0dhoz2scxoyr2a9h\"}';
        }"
    fi
    mkdir -p "$work/$1"
    cat >"$work/$1/nginx.conf" <<NGINX
worker_processes $2;
pid $work/$1/nginx.pid;
error_log $work/$1/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/$1;
    server {
        listen 127.0.0.1:$3;
        keepalive_requests 1000000;
        $locations
    }
}
NGINX
    "$nginx_bin" -c "$work/$1/nginx.conf" -p "$work/$1" 2>/dev/null
    for _ in $(seq 50); do [ -s "$work/$1/nginx.pid" ] && break; sleep 0.1; done
}
# stop_nginx NAME: stops the nginx start_nginx NAME started.
stop_nginx() { kill "$(cat "$work/$1/nginx.pid")" 2>/dev/null || true; rm -f "$work/$1/nginx.pid"; }
port=18998
one_port=18999
if section d || section g || section e; then
    start_nginx nginx auto "$port"
    start_nginx nginx-one 1 "$one_port"
fi

# (d) awards: paylinks building, signing and sending every award, against wrk posting one
# pre-signed body, both to an nginx that answers a fixed publisherPurchaseId.
award_url="http://127.0.0.1:$port/award"
one_award_url="http://127.0.0.1:$one_port/award"
# award_rate N [URL]: awards a second over 32 connections, to nginx on every core by default.
award_rate() { "$paylinks" purchase --sku starter_pack_001 --count "$1" --award-url "${2:-$award_url}" --concurrency 32 --json 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) awards\/s.*/\1/p' | tail -n 1; }
# The four sides of (d)'s two comparisons, for peer_rounds.
award_ours() { award_rate "$award_n"; }
award_wrk() { wrk_file "$work/post.lua" "$award_url" "$1"; }
award_one_ours() { award_rate "$award_n" "$one_award_url"; }
award_one_wrk() { wrk_file "$work/post.lua" "$one_award_url" "$1"; }
if section d; then
    "$python" - "$work/post.lua" <<'PY'
import hashlib, hmac, json, sys, time
body = json.dumps({"orderId": "6892374487", "purchaseId": "pr_asvduvhtnn2i4wp4s6sccct5",
    "appChargePaymentId": "pay_1234567890", "purchaseDateAndTimeUtc": "2024-06-12T08:51:52.000Z",
    "playerId": "cust_98765", "bundleName": "Starter Pack", "bundleId": "684044555ed01178ed2c0b3b",
    "sku": "starter_pack_001", "products": [{"amount": 100, "sku": "gem_01", "name": "Gems"}],
    "priceInCents": 499, "subTotal": 499, "tax": 0, "taxRate": 0, "priceInDollar": 499, "taxInDollar": 0,
    "originalPriceInDollar": 499, "paymentPriceInDollar": 499, "priceTotalInDollar": 499,
    "pricePointMetadata": 499, "currency": "USD", "currencyExchangeCost": 0, "estimatedAppchargeFee": 74.8,
    "estimatedPublisherNetAmount": 424.1, "action": "purchase", "actionStatus": "completed",
    "paymentMethod": "card", "countryCode2": "US", "receiptId": "rcpt_0123456789abcdef", "awardFlow": "auto"},
    separators=(",", ":"))
t = str(int(time.time() * 1000))
v1 = hmac.new(b"paylinks-demo-main-key", (t + "." + body).encode(), hashlib.sha256).hexdigest()
with open(sys.argv[1], "w") as script:
    script.write('wrk.method = "POST"\n')
    script.write("wrk.body = %s\n" % json.dumps(body))
    script.write('wrk.headers["Content-Type"] = "application/json"\n')
    script.write('wrk.headers["x-publisher-token"] = "paylinks-demo-publisher-token"\n')
    script.write('wrk.headers["signature"] = "t=%s,v1=%s"\n' % (t, v1))
PY
    read -r paylinks_rate wrk_rate award_ratio _ award_rounds < <(peer_rounds award award_ours award_wrk)
    read -r one_paylinks_rate one_wrk_rate one_award_ratio _ award_one_rounds < <(peer_rounds award-one award_one_ours award_one_wrk)
    award_peak() { /usr/bin/time -f %M "$paylinks" purchase --sku starter_pack_001 --count "$1" --award-url "$award_url" --concurrency 32 --json 2>&1 >/dev/null | tail -n 1; }
    award_small=$(award_peak "$peak_small_n")
    award_large=$(award_peak "$peak_large_n")
    award_growth=$("$python" -c 'import sys; print("%.1f" % ((float(sys.argv[2]) / float(sys.argv[1]) - 1) * 100))' "$award_small" "$award_large")
    cat <<REPORT

(d) awards to nginx (a worker per core) over 32 connections: purchase --count $award_n --award-url URL --concurrency 32
    wrk, one pre-signed body             ${wrk_rate} requests/s
    paylinks, each award built and signed ${paylinks_rate} awards/s: ${award_ratio}x of wrk   >= 0.75x  $(verdict "$award_ratio" ">=" 0.75)
    every round, paylinks/wrk and their ratio:
$(every "$award_rounds")
    against nginx on one worker          wrk ${one_wrk_rate}, paylinks ${one_paylinks_rate}: ${one_award_ratio}x
$(every "$award_one_rounds")
    peak memory at $peak_small_n awards         ${award_small} KiB
    peak memory at $peak_large_n awards        ${award_large} KiB
    growth                               ${award_growth}%                  <= 10%    $(verdict "$award_growth" "<=" 10)
REPORT
fi

# (g) events: paylinks building, signing and sending every order's events (three a
# purchase), against wrk posting one signed event body, the one trigger shows, to the
# same nginx answering a fixed 200.
events_url="http://127.0.0.1:$port/events"
one_events_url="http://127.0.0.1:$one_port/events"
# event_rate N [URL]: events a second over 32 connections, to nginx on every core by default.
event_rate() { "$paylinks" purchase --sku starter_pack_001 --count "$1" --events-url "${2:-$events_url}" --concurrency 32 --json 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) events\/s.*/\1/p' | tail -n 1; }
event_ours() { event_rate "$event_orders"; }
event_wrk() { wrk_file "$work/event.lua" "$events_url" "$1"; }
event_one_ours() { event_rate "$event_orders" "$one_events_url"; }
event_one_wrk() { wrk_file "$work/event.lua" "$one_events_url" "$1"; }
if section g; then
    "$paylinks" trigger order.completed --seed 1 --json >"$work/trigger.ndjson" 2>/dev/null
    "$python" - "$work/trigger.ndjson" "$work/event.lua" <<'PY'
import json, sys
event = [json.loads(line)["event"] for line in open(sys.argv[1]) if line.startswith('{"event"')][-1]
with open(sys.argv[2], "w") as script:
    script.write('wrk.method = "POST"\n')
    script.write("wrk.body = %s\n" % json.dumps(event["body"]))
    for name, value in event["headers"].items():
        script.write("wrk.headers[%s] = %s\n" % (json.dumps(name), json.dumps(value)))
PY
    read -r paylinks_event_rate wrk_event_rate event_ratio _ event_rounds < <(peer_rounds event event_ours event_wrk)
    read -r one_paylinks_event_rate one_wrk_event_rate one_event_ratio _ event_one_rounds < <(peer_rounds event-one event_one_ours event_one_wrk)
    event_peak() { /usr/bin/time -f %M "$paylinks" purchase --sku starter_pack_001 --count "$1" --events-url "$events_url" --concurrency 32 --json 2>&1 >/dev/null | tail -n 1; }
    event_small=$(event_peak "$peak_small_n")
    event_large=$(event_peak "$peak_large_n")
    event_growth=$("$python" -c 'import sys; print("%.1f" % ((float(sys.argv[2]) / float(sys.argv[1]) - 1) * 100))' "$event_small" "$event_large")
    cat <<REPORT

(g) events to nginx (a worker per core) over 32 connections: purchase --count $event_orders --events-url URL --concurrency 32
    wrk, one signed event body           ${wrk_event_rate} requests/s
    paylinks, each event built and signed ${paylinks_event_rate} events/s: ${event_ratio}x of wrk   >= 0.75x  $(verdict "$event_ratio" ">=" 0.75)
    every round, paylinks/wrk and their ratio:
$(every "$event_rounds")
    against nginx on one worker          wrk ${one_wrk_event_rate}, paylinks ${one_paylinks_event_rate}: ${one_event_ratio}x
$(every "$event_one_rounds")
    peak memory at $peak_small_n orders         ${event_small} KiB
    peak memory at $peak_large_n orders        ${event_large} KiB
    growth                               ${event_growth}%                  <= 10%    $(verdict "$event_growth" "<=" 10)
REPORT
fi

# start_serve NAME LOG ARG...: paylinks serve on a free port with ARGs, its standard error
# in LOG; its base URL in $serve_url, its pid in $serve_pid.
start_serve() {
    local name=$1 log=$2
    shift 2
    rm -f "$work/$name.url"
    "$paylinks" serve --port 0 --port-file "$work/$name.url" "$@" >/dev/null 2>"$log" &
    serve_pid=$!
    server_pids+=("$serve_pid")
    for _ in $(seq 200); do [ -s "$work/$name.url" ] && break; sleep 0.05; done
    serve_url=$(cat "$work/$name.url")
}
# stop_serve PID: SIGTERM, and the wait for its end.
stop_serve() { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
cat >"$work/session.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"priceDetails":{"price":499,"currency":"USD"},"offer":{"name":"Starter Pack","sku":"starter_pack_001","pricePointMetadata":499},"items":[{"name":"Gems","sku":"gem_01","quantity":100}],"customer":{"id":"cust_98765"},"countryCode2":"US"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["x-publisher-token"] = "paylinks-demo-publisher-token"
LUA
# The same requests from one thread, which ends wrk once $SESSIONS have been answered.
cp "$work/session.lua" "$work/sessions.lua"
cat >>"$work/sessions.lua" <<'LUA'
local limit = tonumber(os.getenv("SESSIONS") or "0")
local count = 0
function response(status, headers, body)
    count = count + 1
    if count >= limit then os.exit(0) end
end
LUA
# The sides of the sandbox's comparisons, for peer_rounds: serve at $sandbox_url, nginx on
# every core and on one worker answering a fixed 201, and nginx at $fixed_url answering
# what the sandbox answers.
sandbox_ours() { wrk_file "$work/session.lua" "$sandbox_url/checkout/v1/session" "$1"; }
sandbox_nginx() { wrk_file "$work/session.lua" "http://127.0.0.1:$port/checkout/v1/session" "$1"; }
sandbox_nginx_one() { wrk_file "$work/session.lua" "http://127.0.0.1:$one_port/checkout/v1/session" "$1"; }
fixed_port=18997
lookup_port=18996
# sandbox_figures NAME: "RATE NGINX RATIO P99 WORST-P99 ROUNDS" of $rounds rounds of serve
# at $sandbox_url against nginx on every core; NAME names the rounds' files.
sandbox_figures() {
    local rate nginx ratio round list
    read -r rate nginx ratio round list < <(peer_rounds "$1" sandbox_ours sandbox_nginx)
    echo "$rate $nginx $ratio $(p99_of "$work/$1-ours-$round") $(worst_p99 "$1") $list"
}
if section e; then
    # Fresh, its log discarded: the server at its fastest.
    start_serve fresh /dev/null --seed 1
    sandbox_url=$serve_url
    read -r fresh_rate fresh_nginx fresh_ratio fresh_p99 fresh_worst fresh_rounds < <(sandbox_figures fresh)
    read -r _ one_nginx_rate one_serve_ratio _ fresh_one_rounds < <(peer_rounds fresh-one sandbox_ours sandbox_nginx_one)
    stop_serve "$serve_pid"
    # As users run it: default options, its log written to a file on disk.
    start_serve user "$disk/serve.log"
    sandbox_url=$serve_url
    read -r user_rate user_nginx user_ratio user_p99 user_worst user_rounds < <(sandbox_figures user)
    user_log=$(du -k "$disk/serve.log" | cut -f1)
    # The control API on the same server: one session's state, against nginx answering the
    # same bytes.
    purchase=$(curl -s -X POST "$sandbox_url/checkout/v1/session" -H 'Content-Type: application/json' \
        -H 'x-publisher-token: paylinks-demo-publisher-token' --data-binary @- <<<"$(sed -n "s/^wrk.body = '\(.*\)'$/\1/p" "$work/session.lua")" |
        sed 's/.*"purchaseId":"\([^"]*\)".*/\1/')
    curl -s "$sandbox_url/control/v1/sessions/$purchase" >"$work/state.json"
    start_nginx nginx-state auto "$fixed_port" 200 "$work/state.json"
    control_ours() { wrk_file "" "$sandbox_url/control/v1/sessions/$purchase" "$1"; }
    control_nginx() { wrk_file "" "http://127.0.0.1:$fixed_port/control/v1/sessions/$purchase" "$1"; }
    read -r control_rate control_nginx control_ratio control_round control_rounds < <(peer_rounds control control_ours control_nginx)
    control_p99=$(p99_of "$work/control-ours-$control_round")
    control_worst=$(worst_p99 control)
    control_bytes=$(wc -c <"$work/state.json")
    stop_nginx nginx-state
    stop_serve "$serve_pid"
    # Resident memory after 10^4 sessions and after 10^6, its log discarded as at first;
    # then the rate again, with every one of them held.
    start_serve large /dev/null --seed 1
    sandbox_url=$serve_url
    rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$serve_pid/status"; }
    SESSIONS=$sessions_small wrk -t1 -c32 -d60s -s "$work/sessions.lua" "$sandbox_url/checkout/v1/session" >/dev/null 2>&1 || true
    serve_small=$(rss_kb)
    SESSIONS=$((sessions_large - sessions_small)) wrk -t1 -c32 -d300s -s "$work/sessions.lua" "$sandbox_url/checkout/v1/session" >/dev/null 2>&1 || true
    serve_large=$(rss_kb)
    serve_growth=$(ratio "$serve_large" "$serve_small")
    read -r large_rate large_nginx large_ratio large_p99 large_worst large_rounds < <(sandbox_figures large)
    stop_serve "$serve_pid"
    # serve --data, each session on the disk before its answer, against serve in memory,
    # both as users run them (their logs on disk), side by side.
    start_serve memory "$disk/memory.log"
    memory_url=$serve_url
    memory_pid=$serve_pid
    start_serve durable "$disk/durable.log" --data "$disk/data"
    durable_url=$serve_url
    durable_pid=$serve_pid
    durable_ours() { wrk_file "$work/session.lua" "$durable_url/checkout/v1/session" "$1"; }
    durable_memory() { wrk_file "$work/session.lua" "$memory_url/checkout/v1/session" "$1"; }
    read -r durable_rate memory_rate durable_ratio durable_round durable_rounds < <(peer_rounds durable durable_ours durable_memory)
    durable_p99=$(p99_of "$work/durable-ours-$durable_round")
    durable_worst=$(worst_p99 durable)
    stop_serve "$durable_pid"
    stop_serve "$memory_pid"
    durable_journal=$(du -k "$disk/data/sandbox.jsonl" | cut -f1)
    durable_cost=$(awk -v d="$durable_rate" -v m="$memory_rate" 'BEGIN { if (d > 0 && m > 0) printf "%.0f", 1e6 / d - 1e6 / m; else print "?" }')
    cat <<REPORT

(e) the sandbox over 32 connections, $secs s a run: wrk posting Create Checkout Session bodies
    against nginx (a worker per core) answering a fixed 201
    fresh, its log discarded             ${fresh_rate} requests/s, nginx ${fresh_nginx}: ${fresh_ratio}x
      p99 ${fresh_p99} ms (the worst round's ${fresh_worst} ms); every round, serve/nginx and their ratio:
$(every "$fresh_rounds")
      against nginx on one worker        ${one_nginx_rate} requests/s: ${one_serve_ratio}x
$(every "$fresh_one_rounds")
    as users run it (default options, its log to a file on disk: ${user_log} KiB after the rounds)
      session creation                   ${user_rate} requests/s, nginx ${user_nginx}: ${user_ratio}x   >= 0.5x   $(verdict "$user_ratio" ">=" 0.5)
      p99 latency                        ${user_p99} ms (the worst round's ${user_worst} ms)   < 10 ms   $(verdict "$user_p99" "<" 10)
      every round, serve/nginx and their ratio:
$(every "$user_rounds")
      control API, GET /control/v1/sessions/ID against nginx answering its ${control_bytes} bytes
                                         ${control_rate} requests/s, nginx ${control_nginx}: ${control_ratio}x   >= 0.5x   $(verdict "$control_ratio" ">=" 0.5)
      its p99 latency                    ${control_p99} ms (the worst round's ${control_worst} ms)   < 10 ms   $(verdict "$control_p99" "<" 10)
      every round, serve/nginx and their ratio:
$(every "$control_rounds")
    resident after $sessions_small sessions        ${serve_small} KiB
    resident after $sessions_large sessions      ${serve_large} KiB: ${serve_growth}x   <= 2x   $(verdict "$serve_growth" "<=" 2)
    after $sessions_large sessions, its log discarded ${large_rate} requests/s, nginx ${large_nginx}: ${large_ratio}x   >= 0.5x   $(verdict "$large_ratio" ">=" 0.5)
      p99 ${large_p99} ms (the worst round's ${large_worst} ms); every round, serve/nginx and their ratio:
$(every "$large_rounds")
    serve --data (on disk before each answer) against serve in memory, both logging to disk
      durable rate                       ${durable_rate} requests/s, in memory ${memory_rate}: ${durable_ratio}x   >= 0.5x   $(verdict "$durable_ratio" ">=" 0.5)
      its p99 latency                    ${durable_p99} ms (the worst round's ${durable_worst} ms)   < 10 ms   $(verdict "$durable_p99" "<" 10)
      every round, durable/in memory and their ratio:
$(every "$durable_rounds")
      what durability costs              ${durable_cost} us a request; the journal after the rounds: ${durable_journal} KiB
REPORT
fi

# (f) scenario runs: $scenario_n scenario files (copies of the examples) on one process and
# on two; as rates, --jobs 2 over --jobs 1 is the speed-up.
run_command() { echo "$paylinks run $work/scenarios --seed 1 --now 1718182312 --jobs $1 --report json=$work/report-$1.json"; }
# run_rate JOBS FILE: scenarios a second of one run with --jobs JOBS.
run_rate() {
    hyperfine -N --runs 1 --export-json "$2" "$(run_command "$1")" >/dev/null 2>&1 || true
    "$python" -c 'import sys; print(int(int(sys.argv[2]) / (float(sys.argv[1]) / 1000)))' "$(median_ms "$2" 0)" "$scenario_n"
}
run_two() { run_rate 2 "$1"; }
run_one() { run_rate 1 "$1"; }
if section f; then
    mkdir -p "$work/scenarios"
    examples=(Fixtures/scenarios/*.json)
    for index in $(seq 0 $((scenario_n - 1))); do
        cp "${examples[$((index % ${#examples[@]}))]}" "$work/scenarios/s$(printf %05d "$index").json"
    done
    hyperfine -N --runs 1 "$(run_command 1)" "$(run_command 2)" >/dev/null 2>&1 || true
    read -r run_two_rate run_one_rate run_speedup _ run_rounds < <(peer_rounds run run_two run_one)
    run_same=$(cmp -s "$work/report-1.json" "$work/report-2.json" && echo "the same bytes" || echo "DIFFERENT")
    cat <<REPORT

(f) scenario runs: $scenario_n scenario files, run --jobs N
    --jobs 1                             ${run_one_rate} scenarios/s
    --jobs 2                             ${run_two_rate} scenarios/s   >= 5,000   $(verdict "$run_two_rate" ">=" 5000)
    speed-up (the median round)          ${run_speedup}x                  >= 1.6x   $(verdict "$run_speedup" ">=" 1.6)
    every round, --jobs 2/--jobs 1 scenarios/s and the speed-up:
$(every "$run_rounds")
    reports of --jobs 1 and 2            ${run_same}
REPORT
fi

# (h) check-books against the example game server (Python's standard library, one thread a
# connection): orders played a second, $books_orders orders over 100 players, against a fresh
# server each round (a seed is played once per server); and the time to shrink one finding,
# against a fresh server with the flaw no-revoke, as check-books reports it on standard
# error. Each round plays both; the median of each counts.
# example_server [FLAW]: starts the example on a free port: its base URL in $base, its pid in
# $example_pid.
example_server() {
    rm -f "$work/example.port"
    "$python" Examples/game-server/server.py 0 ${1:+--flaw "$1"} > "$work/example.port" 2>/dev/null &
    example_pid=$!
    for _ in $(seq 100); do [ -s "$work/example.port" ] && break; sleep 0.05; done
    base="http://127.0.0.1:$(head -n 1 "$work/example.port")"
}
if section h; then
    books_rounds=()
    for round in $(seq "$rounds"); do
        example_server
        start=$(date +%s%N)
        "$paylinks" check-books --award-url "$base/award" --events-url "$base/events" --ledger-url "$base/ledger" \
            --seed "$round" --orders "$books_orders" --players 100 > "$work/books.txt" 2>/dev/null || true
        end=$(date +%s%N)
        kill "$example_pid" 2>/dev/null; wait "$example_pid" 2>/dev/null || true
        books_balance=$(tail -n 1 "$work/books.txt" | grep -q 'books balance$' && echo "books balance" || echo "NOT BALANCED")
        example_server no-revoke
        shrink=$("$paylinks" check-books --award-url "$base/award" --events-url "$base/events" --ledger-url "$base/ledger" \
            --seed 1 --orders 20 --players 1 --ledger-wait 1 2>&1 >/dev/null |
            sed -n 's/^note: shrinking .* took \([0-9.]*\) \(m*s\) and .*$/\1 \2/p' | head -n 1 |
            awk '{ if ($2 == "s") print $1 * 1000; else print $1 }' || true)
        kill "$example_pid" 2>/dev/null; wait "$example_pid" 2>/dev/null || true
        books_rounds+=("$(awk -v s="$start" -v e="$end" -v n="$books_orders" 'BEGIN { printf "%d", n / ((e - s) / 1e9) }') ${shrink:-0}")
    done
    read -r books_rate shrink_ms < <("$python" - "${books_rounds[@]}" <<'PY'
import statistics, sys
rounds = [tuple(map(float, r.split())) for r in sys.argv[1:]]
print("%d %d" % (statistics.median_low(r[0] for r in rounds), statistics.median_low(r[1] for r in rounds)))
PY
)
    books_all=$(printf '%s\n' "${books_rounds[@]}" | awk '{ printf "%s%d: %s orders/s, shrink %s ms", (NR > 1 ? "  " : ""), NR, $1, $2 }')
    cat <<REPORT

(h) check-books against the example game server: $books_orders orders over 100 players, --seed 1..$rounds
    orders played and reconciled         ${books_rate} orders/s (the last round: ${books_balance})
    shrinking one finding (no-revoke)    ${shrink_ms} ms
    every round, a fresh server each:
$(echo "$books_all" | sed 's/  /\n/g' | sed 's/^/      /')
REPORT
fi

# (i) the price lookup: wrk posting a lookup of 8 prices in one country to serve as users
# run it, against nginx answering the same bytes.
if section i; then
    cat >"$work/lookup.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"pricesInUsdCents":[99,199,299,499,999,1999,4999,9999],"countryCode2":"DE"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["x-publisher-token"] = "paylinks-demo-publisher-token"
LUA
    start_serve lookup "$disk/lookup.log"
    sandbox_url=$serve_url
    curl -s -X POST "$sandbox_url/v1/price-points/localized/lookup" -H 'Content-Type: application/json' \
        -H 'x-publisher-token: paylinks-demo-publisher-token' \
        -d '{"pricesInUsdCents":[99,199,299,499,999,1999,4999,9999],"countryCode2":"DE"}' >"$work/lookup.json"
    start_nginx nginx-lookup auto "$lookup_port" 200 "$work/lookup.json"
    lookup_ours() { wrk_file "$work/lookup.lua" "$sandbox_url/v1/price-points/localized/lookup" "$1"; }
    lookup_nginx() { wrk_file "$work/lookup.lua" "http://127.0.0.1:$lookup_port/v1/price-points/localized/lookup" "$1"; }
    read -r lookup_rate lookup_nginx lookup_ratio lookup_round lookup_rounds < <(peer_rounds lookup lookup_ours lookup_nginx)
    lookup_p99=$(p99_of "$work/lookup-ours-$lookup_round")
    lookup_worst=$(worst_p99 lookup)
    stop_nginx nginx-lookup
    stop_serve "$serve_pid"
    cat <<REPORT

(i) the price lookup over 32 connections, $secs s a run: POST /v1/price-points/localized/lookup, 8 prices in DE,
    against nginx (a worker per core) answering its $(wc -c <"$work/lookup.json") bytes; serve as users run it
    lookups                              ${lookup_rate} requests/s, nginx ${lookup_nginx}: ${lookup_ratio}x   >= 0.5x   $(verdict "$lookup_ratio" ">=" 0.5)
    p99 latency                          ${lookup_p99} ms (the worst round's ${lookup_worst} ms)   < 10 ms   $(verdict "$lookup_p99" "<" 10)
    every round, serve/nginx and their ratio:
$(every "$lookup_rounds")
REPORT
fi

# (j) the virtual clock: each round creates $timers sessions over one kept-alive connection,
# each left pending with its payment scheduled to resolve 5 minutes on, then moves the clock
# 10 minutes, past them all, in one POST /control/v1/clock. The move fires every timer (a
# payment paid, its award granted at once, no award URL being set) and answers once all
# have fired. Its reference is the time the sessions took to create and schedule: a timer
# costs the sandbox no more than the two requests that set it, so the move should take no
# longer than they did. The creation must come first, so these rounds cannot alternate.
if section j; then
    start_serve clock "$disk/clock.log" --clock virtual --now 2026-12-01T10:00:00Z --seed 1
    clock_results=()
    for round in $(seq "$rounds"); do
        clock_results+=("$("$python" - "$serve_url" "$timers" <<'PY'
import http.client, json, sys, time, urllib.parse
url, count = urllib.parse.urlparse(sys.argv[1]), int(sys.argv[2])
connection = http.client.HTTPConnection(url.hostname, url.port)
def post(path, body, token=False):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["x-publisher-token"] = "paylinks-demo-publisher-token"
    connection.request("POST", path, json.dumps(body), headers)
    answer = connection.getresponse()
    return answer.status, answer.read()
session = {"priceDetails": {"price": 499, "currency": "USD"},
    "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
    "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}], "customer": {"id": "cust_98765"}, "countryCode2": "US"}
start = time.perf_counter()
for _ in range(count):
    status, body = post("/checkout/v1/session", session, token=True)
    purchase = json.loads(body)["purchaseId"]
    status, body = post("/control/v1/sessions/%s/complete" % purchase,
        {"choice": "pending", "resolve": {"outcome": "succeeded", "after": "PT5M"}})
    if status != 200:
        sys.exit("complete answered %d: %s" % (status, body[:200]))
created = time.perf_counter() - start
start = time.perf_counter()
status, body = post("/control/v1/clock", {"advance": "PT10M"})
moved = time.perf_counter() - start
fired = sum(1 for timer in json.loads(body).get("fired", []) if timer.get("timer") == "resolution")
if status != 200 or fired != count:
    sys.exit("the clock answered %d, firing %d resolutions of %d" % (status, fired, count))
print("%.3f %.3f" % (moved * 1000, created * 1000))
PY
)")
    done
    stop_serve "$serve_pid"
    read -r advance_ms create_ms clock_ratio _ clock_rounds < <(median_round "${clock_results[@]}")
    timer_rate=$("$python" -c 'import sys; print(int(int(sys.argv[2]) / (float(sys.argv[1]) / 1000)))' "$advance_ms" "$timers")
    cat <<REPORT

(j) the virtual clock: one POST /control/v1/clock past $timers pending payments, each scheduled to resolve
    creating and scheduling them         ${create_ms} ms (a session and its complete, over one connection)
    the move, every timer fired          ${advance_ms} ms: ${timer_rate} timers/s, ${clock_ratio}x the creation   <= 1.0x   $(verdict "$clock_ratio" "<=" 1.0)
    every round, move/creation ms and their ratio:
$(every "$clock_rounds")
REPORT
fi

# (k) a whole `serve --port 0 -- true`: start, listen, run the command, stop; against the
# static hello's whole run, each timed by hyperfine in turn; and serve until it answers.
serve_true_ours() { hyperfine -N --warmup "$(pick 5 1)" --runs "$(pick 50 5)" --export-json "$1" "$paylinks serve --port 0 -- true" >/dev/null 2>&1; median_ms "$1" 0; }
# launch_ms FILE ARG...: the median time, over $launch_runs launches from Python, from the launch
# of ARG... to its end, or with `serve` to its first answer (GET /control/v1/health, asked
# again at once while the port refuses); the sandbox is then stopped. Both sides of the
# ready comparison are launched the same way, so the launcher's own cost falls on each.
launch_runs=$(pick 50 5)
launch_ms() {
    shift
    "$python" - "$launch_runs" "$@" <<'PY2'
import http.client, statistics, subprocess, sys
import time
runs, command = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs):
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if "serve" in command:
        port = int(command[command.index("--port") + 1])
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/control/v1/health")
                answer = connection.getresponse()
                answer.read()
                connection.close()
                if answer.status == 200:
                    break
            except OSError:
                pass
        times.append(time.perf_counter() - start)
        process.terminate()
        process.wait()
    else:
        process.wait()
        times.append(time.perf_counter() - start)
print("%.3f" % (statistics.median(times) * 1000))
PY2
}
ready_ours() { launch_ms "$1" "$paylinks" serve --port 18995; }
ready_hello() { launch_ms "$1" "$work/hello"; }
if section k; then
    read -r true_ms true_hello_ms true_ratio _ true_rounds < <(peer_rounds true serve_true_ours start_hello)
    read -r ready_ms ready_hello_ms ready_ratio _ ready_rounds < <(peer_rounds ready ready_ours ready_hello)
    cat <<REPORT

(k) serve --port 0 -- true, the whole run (ready, the command run, stopped), against the static hello's
    static Swift hello                   ${true_hello_ms} ms
    paylinks serve --port 0 -- true      ${true_ms} ms: ${true_ratio}x   <= 3x   $(verdict "$true_ratio" "<=" 3)
    every round, serve/hello ms and their ratio:
$(every "$true_rounds")
    serve ready, its first answer, against the hello's whole run, each launched from Python
    static Swift hello                   ${ready_hello_ms} ms
    paylinks serve --port P, answering   ${ready_ms} ms: ${ready_ratio}x   <= 3x   $(verdict "$ready_ratio" "<=" 3)
    every round, serve/hello ms and their ratio:
$(every "$ready_rounds")
REPORT
fi
