#!/usr/bin/env bash
# The checkout page and the dashboard of `paylinks serve` in a real browser: headless
# Chromium driven by Selenium through chromedriver. Installs what it needs (Debian's chromium
# and chromium-driver, and Selenium from PyPI), then runs Tests/Browser/checkout_test.py and
# Tests/Browser/dashboard_test.py.
# With a directory as its argument, the pages' screenshots are saved there.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromedriver >/dev/null 2>&1 && [ ! -x /usr/bin/chromedriver ]; then
    echo "installing chromium and chromium-driver from Debian's packages..." >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
    echo "installing selenium from PyPI..." >&2
    python3 -m pip install --quiet selenium
fi

swift build --product paylinks >/dev/null
python3 Tests/Browser/checkout_test.py "$(swift build --show-bin-path)/paylinks" \
    Examples/game-server/server.py "${1:-}"
python3 Tests/Browser/dashboard_test.py "$(swift build --show-bin-path)/paylinks" \
    Examples/game-server/server.py "${1:-}"
