#!/usr/bin/env bash
# Install Tablelog into .venv/ (made on first use) and serve the dashboard on the default store,
# filled with the demo matches on first start. Usage: scripts/serve.sh [tablelog serve options]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
ensure_venv -e .
exec .venv/bin/tablelog serve "$@"
