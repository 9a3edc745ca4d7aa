#!/usr/bin/env bash
# The checkout page and the dashboard of `paylinks serve` in a real browser: headless
# Chromium driven by Selenium through chromedriver, every page checked by axe-core for
# accessibility and at 400 and 1400 px for width. Installs what it needs (Debian's chromium
# and chromium-driver, Selenium and axe-core-python from PyPI) and fails when it cannot, then
# runs Tests/Browser/checkout_test.py, dashboard_test.py and books_test.py.
# With a directory as its argument, the pages' screenshots are saved there.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromedriver >/dev/null 2>&1 && [ ! -x /usr/bin/chromedriver ]; then
    echo "installing chromium and chromium-driver from Debian's packages..." >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
for module in selenium:selenium axe_core_python:axe-core-python; do
    if ! python3 -c "import ${module%%:*}" >/dev/null 2>&1; then
        echo "installing ${module#*:} from PyPI..." >&2
        python3 -m pip install --quiet "${module#*:}"
        python3 -c "import ${module%%:*}"
    fi
done

swift build --product paylinks >/dev/null
paylinks="$(swift build --show-bin-path)/paylinks"
for test in checkout_test dashboard_test books_test; do
    python3 "Tests/Browser/$test.py" "$paylinks" Examples/game-server/server.py "${1:-}"
done
