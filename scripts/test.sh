#!/usr/bin/env bash
# Install everything the test suite needs, start the services it talks to, run the whole suite.
# Usage: scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh

# Debian packages: Chromium for the browser tests (Playwright drives it), PostgreSQL for the
# store tests, Go and golang.org/x/mod for the checkpoint interop test (Go's own note package
# verifies Tablelog's checkpoints: tests/checkpoints/test_go_interop.py).
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v pg_ctlcluster >/dev/null || need+=(postgresql)
command -v go >/dev/null || need+=(golang-go)
[ -d /usr/share/gocode/src/golang.org/x/mod/sumdb/note ] || need+=(golang-golang-x-mod-dev)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# PostgreSQL on 127.0.0.1:5432 with trust auth for local connections.
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    version=$(ls /etc/postgresql | sort -V | tail -1)
    hba=/etc/postgresql/$version/main/pg_hba.conf
    if ! as_root grep -q "^host all all 127.0.0.1/32 trust" "$hba"; then
        as_root sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
    fi
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
    for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

# Into .venv/ inside the checkout (a system Python may refuse installs: PEP 668).
ensure_venv -e ".[test]"
exec .venv/bin/python -m pytest "$@"
