#!/usr/bin/env bash
# The sandbox against its OpenAPI document: Schemas/sandbox.openapi.json is a valid OpenAPI
# 3.1 document (openapi-spec-validator), and schemathesis, run against a live `paylinks
# serve` on loopback, finds nothing its checks catch: no server error, and no status,
# content type, body or header the document does not give. The run is seeded and bounded:
# a fixed number of cases per operation, at most REQUESTS_PER_MINUTE requests a minute for
# at most RUN_SECONDS (30,000 requests at most), on 127.0.0.1 only, no redirect followed,
# no proxy asked. Installs
# schemathesis and openapi-spec-validator when they are missing, at the versions
# Tests/Shell/openapi-requirements.txt pins (where .ci/run installs them). Its JUnit report
# is .build/openapi-check.xml, the sandbox's output .build/openapi-check-sandbox.log and
# its log .build/openapi-check-sandbox.err.
# Usage: check-openapi.sh [PAYLINKS_BINARY [DOCUMENT]]: the binary to serve (else swift
# build builds it) and a document to test it against (else the one it serves at
# /openapi.json).
set -euo pipefail
cd "$(dirname "$0")/../.."

SEED=45
EXAMPLES=50
STATEFUL_STEPS=10
RUN_SECONDS=150
REQUESTS_PER_MINUTE=12000
TOKEN=openapi-check-publisher-token

# PyPI packages, by pip; where the system's Python is marked externally managed (PEP 668),
# into it all the same, since this machine runs tests.
pip_install() {
    local said
    if ! said="$(python3 -m pip install --quiet "$@" 2>&1)"; then
        case "$said" in
        *externally-managed-environment*) python3 -m pip install --quiet --break-system-packages "$@" ;;
        *) echo "$said" >&2 && return 1 ;;
        esac
    fi
}
# Where pip puts the commands it installs, wherever this python keeps them.
PATH="$PATH:$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')"
export PATH
# Schemathesis 4, whose options and checks the run below names, and the validator.
installed() {
    [[ $(schemathesis --version 2>/dev/null) == *"version 4."* ]] &&
        python3 -c 'import openapi_spec_validator' >/dev/null 2>&1
}
if ! installed; then
    echo "installing schemathesis and openapi-spec-validator from PyPI..." >&2
    pip_install -r Tests/Shell/openapi-requirements.txt
    installed || { echo "FAIL: schemathesis 4 or openapi-spec-validator did not install" >&2; exit 1; }
fi

if [ -n "${1:-}" ]; then
    paylinks=$1
else
    swift build --product paylinks >/dev/null
    paylinks="$(swift build --show-bin-path)/paylinks"
fi
document=${2:-}
[ -x "$paylinks" ] || { echo "FAIL: $paylinks is not an executable" >&2; exit 1; }

python3 -m openapi_spec_validator Schemas/sandbox.openapi.json
if [ -n "$document" ]; then python3 -m openapi_spec_validator "$document"; fi

scratch=$(mktemp -d)
sandbox=
award=
stop_sandbox() {
    for child in $sandbox $award; do
        kill "$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    done
    rm -rf "$scratch"
}
trap stop_sandbox EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A fixed seed and a virtual clock that stands still from a fixed time: the same ids and
# times on every run. Awards go to a game server's endpoint on loopback that grants every
# order but one player's (Tests/Shell/openapi-check.py), so that a paid order has a delivery
# and another a failed award; no events or ledger URL.
mkdir -p .build
helper=Tests/Shell/openapi-check.py
python3 "$helper" award >"$scratch/award" &
award=$!
# The endpoint's address, from the first line it writes once it listens: each pause of the
# poll only spaces the looks, which end on the line, or fail at the deadline or when the
# endpoint has exited; no pause decides a result.
deadline=$((SECONDS + 20))
until award_url=$(head -n 1 "$scratch/award") && [ -n "$award_url" ]; do
    if ! kill -0 "$award" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
        echo "FAIL: the award endpoint did not start within 20 s" >&2
        exit 1
    fi
    sleep 0.05
done
errors=.build/openapi-check-sandbox.err
# Emptied here, not by the redirection below alone, which the child makes when it runs:
# the poll must never read the line of an earlier run.
: >"$errors"
"$paylinks" serve --host 127.0.0.1 --port 0 --seed "$SEED" --publisher-token "$TOKEN" \
    --clock virtual --now 2026-12-01T10:00:00Z --award-url "$award_url" --color never \
    >.build/openapi-check-sandbox.log 2>"$errors" &
sandbox=$!
# The sandbox's address, from the line it writes once it listens. The poll ends as soon as
# the line is there, or fails at its deadline or when the sandbox has exited.
deadline=$((SECONDS + 20))
base=
until base=$(sed -n 's|^paylinks sandbox at \(http://127\.0\.0\.1:[0-9][0-9]*\);.*|\1|p' "$errors") &&
    [ -n "$base" ]; do
    if ! kill -0 "$sandbox" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
        echo "FAIL: paylinks serve did not say where it listens within 20 s:" >&2
        cat "$errors" >&2
        exit 1
    fi
    sleep 0.05
done
case $base in
http://127.0.0.1:*) ;;
*) echo "FAIL: the sandbox is not on loopback: $base" >&2 && exit 1 ;;
esac
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1

# A few sessions, so that the operations on an existing purchase, player, delivery or
# checkout page are reached and not only their 404s: one open, one paid, one cancelled, one
# paid whose award the game refuses, and an open one whose Bearer token cancel is given
# through its security scheme. Their ids, tokens, players, orders and deliveries, the price
# points, the form token and the checkout public key are dictionaries that schemathesis
# draws half of those parameters from. The hooks read pages as text, so that their schema
# applies, and seed the same again after a reset.
python3 "$helper" seed "$base" "$TOKEN" "$scratch/seeded.toml"
export SCHEMATHESIS_HOOKS=$helper OPENAPI_CHECK_BASE=$base OPENAPI_CHECK_TOKEN=$TOKEN

# What the command line cannot say: the methods tried on every path where the document
# gives none, QUERY among them (the sandbox answers it 405 with Allow, as any method a
# path does not take). The stateful phase
# runs where the document's links lead, at most STATEFUL_STEPS steps each. No cache: a run
# replays no failure of an earlier one and writes nothing outside .build.
cat >"$scratch/schemathesis.toml" <<EOF
[cache]
enabled = false
[phases.coverage]
unexpected-methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "TRACE", "QUERY"]
[phases.stateful]
max-steps = $STATEFUL_STEPS
[parameters]
"path.purchaseId" = { dictionary = "purchases", probability = 0.5 }
"path.orderId" = { dictionary = "orders", probability = 0.5 }
"path.token" = { dictionary = "tokens", probability = 0.5 }
"path.id" = { dictionary = "customers", probability = 0.5 }
"path.priceInUsdCents" = { dictionary = "pricePoints", probability = 0.5 }
"query.cot" = { dictionary = "checkoutKeys", probability = 0.5 }
"body.formToken" = { dictionary = "formTokens", probability = 0.5 }
[[operations]]
include-path-regex = "/deliveries/"
[operations.parameters]
"path.id" = { dictionary = "deliveries", probability = 0.5 }
EOF
cat "$scratch/seeded.toml" >>"$scratch/schemathesis.toml"

# The checks: no 5xx; every status, content type, body and header one the document gives;
# 405 with the Allow the document implies for a method an operation does not take; 401 or
# 403 without the publisher token where an operation asks for it, and a 4xx without a
# required header. Not whether the sandbox takes every request the document allows
# (positive_data_acceptance) and refuses every other (negative_data_rejection): the rules no
# schema can say fail the one, such as a firstSeenAt before the sandbox's clock, a refund of
# an order not paid, a startDate after the endDate or a Content-Type on an empty control
# body. One worker, so that the requests come in the seed's order.
location=${document:-$base/openapi.json}
command=(schemathesis --config-file "$scratch/schemathesis.toml" --no-color run "$location" --url "$base"
    --seed "$SEED" --max-examples "$EXAMPLES" --workers 1 --rate-limit "$REQUESTS_PER_MINUTE/m"
    --max-redirects 0 --request-timeout 10 --continue-on-failure
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,unsupported_method,allow_header_conformance,ignored_auth,missing_required_header
    --header "x-publisher-token: $TOKEN" --report junit --report-junit-path .build/openapi-check.xml)
printf '%q ' "${command[@]}"
echo
status=0
timeout --kill-after 10 "$RUN_SECONDS" "${command[@]}" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "FAIL: schemathesis did not finish within $RUN_SECONDS s" >&2
fi
if ! kill -0 "$sandbox" 2>/dev/null; then
    echo "FAIL: the sandbox exited during the run:" >&2
    tail -n 20 "$errors" >&2
    status=1
fi
if [ "$status" -ne 0 ]; then
    echo "FAIL: the sandbox does not keep to its OpenAPI document (report: .build/openapi-check.xml)" >&2
    exit "$status"
fi
echo "the sandbox against its OpenAPI document: no failure"
