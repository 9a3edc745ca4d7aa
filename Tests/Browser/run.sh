#!/usr/bin/env bash
# The checkout page and the dashboard of `paylinks serve` in a real browser: headless
# Chromium driven by Selenium through chromedriver, every page checked by axe-core for
# accessibility and at 400 and 1400 px for width. Installs what it needs (Debian's chromium
# and chromium-driver, Selenium and axe-core-python from PyPI) and fails when it cannot, then
# runs Tests/Browser/checkout_test.py, dashboard_test.py and books_test.py.
# With a directory as its argument, the pages' screenshots are saved there.
set -euo pipefail
cd "$(dirname "$0")/../.."

apt_install() {
    echo "installing $* from Debian's packages..." >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
# A PyPI package, by pip; where the system's Python is marked externally managed (PEP 668),
# into it all the same, since this machine runs tests.
pip_install() {
    echo "installing $1 from PyPI..." >&2
    python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
    local said
    if ! said="$(python3 -m pip install --quiet "$1" 2>&1)"; then
        case "$said" in
        *externally-managed-environment*) python3 -m pip install --quiet --break-system-packages "$1" ;;
        *) echo "$said" >&2 && return 1 ;;
        esac
    fi
}

has_browser() {
    local name
    for name in chromium chromium-browser google-chrome; do
        command -v "$name" >/dev/null 2>&1 && return 0
    done
    return 1
}
if ! { [ -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ] || command -v chromedriver; } >/dev/null 2>&1 || ! has_browser; then
    apt_install chromium chromium-driver
fi
for module in selenium:selenium axe_core_python:axe-core-python; do
    if ! python3 -c "import ${module%%:*}" >/dev/null 2>&1; then
        pip_install "${module#*:}"
        python3 -c "import ${module%%:*}"
    fi
done

swift build --product paylinks >/dev/null
paylinks="$(swift build --show-bin-path)/paylinks"
for test in checkout_test dashboard_test books_test; do
    python3 "Tests/Browser/$test.py" "$paylinks" Examples/game-server/server.py "${1:-}"
done
