#!/usr/bin/env bash
# Build the sdist and, from it, the wheel; install the wheel into a fresh virtual environment
# outside the checkout and use it there (scripts/wheel_smoke.py). Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
ensure_venv build
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.venv/bin/python -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
ls "$work/dist"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$work"/dist/*.whl 2> >(grep -v "^WARNING: Location" >&2)
cp scripts/wheel_smoke.py "$work/"
cd "$work" && HOME="$work/home" venv/bin/python wheel_smoke.py
