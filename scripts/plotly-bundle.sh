#!/usr/bin/env bash
# Fetch plotly.js's cartesian bundle from the npm registry, at the version of the full plotly.js
# that the installed `plotly` Python package ships, into dashboard/assets/ (its README says why).
set -euo pipefail
cd "$(dirname "$0")/.."
full=$(.venv/bin/python -c "import plotly, pathlib; print(pathlib.Path(plotly.__file__).parent / 'package_data' / 'plotly.min.js')")
version=$(grep -m1 -oE 'plotly\.js v[0-9.]+' "$full" | cut -dv -f2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "plotly.js-cartesian-dist-min@$version" >/dev/null && tar xzf ./*.tgz)
cp "$work/package/plotly-cartesian.min.js" dashboard/assets/
cp "$work/package/LICENSE" dashboard/assets/plotly-LICENSE.txt
echo "dashboard/assets/plotly-cartesian.min.js: plotly.js $version (cartesian)"
