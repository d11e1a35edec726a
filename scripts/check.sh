#!/usr/bin/env bash
# The static gate: lint, format and types (all three run; any finding fails it). .ci/run runs it
# before the tests.
# Usage: scripts/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
ensure_venv -e ".[test]"

failed=0
.venv/bin/ruff check . || failed=1
.venv/bin/ruff format --check . || failed=1

# mypy resolves imports by folder, but the folders domain/, projections/, dashboard/ and data/
# are installed as tablelog.domain, ... (pyproject's package-dir). So check a link tree laid out
# as installed, and print its paths as the checkout's.
tree=build/typecheck
rm -rf "$tree" && mkdir -p "$tree/tablelog"
for entry in tablelog/* domain projections dashboard data; do
    ln -s "$PWD/$entry" "$tree/tablelog/$(basename "$entry")"
done
.venv/bin/mypy "$tree/tablelog" tests benchmarks \
    | sed -E "s#^$tree/tablelog/(domain|projections|dashboard|data)/#\1/#; s#^$tree/##" \
    || failed=1
# Not a gate, a number to bring down (issue 43): uses of `Any` in product code, imports aside.
echo "Any in product code: $(grep -rwho --include='*.py' Any domain projections dashboard tablelog data \
    | wc -l) words, of which $(grep -rh --include='*.py' '^from typing import' domain projections \
    dashboard tablelog data | grep -cw Any) in imports"
exit $failed
