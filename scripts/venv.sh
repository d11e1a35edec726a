# Sourced by serve.sh and test.sh: make (once) and use the project's virtual environment, .venv/
# beside this checkout. A current Debian or Ubuntu refuses `pip install` into its own Python
# (PEP 668, "externally-managed-environment"), so Tablelog never installs there.
# Usage: ensure_venv [pip install arguments...]
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

ensure_venv() {
    if [ ! -x .venv/bin/python ]; then
        if ! python3 -m venv .venv 2>/dev/null; then
            # Debian's python3 leaves out venv's pip bootstrap; its package brings it.
            rm -rf .venv
            echo "installing python3-venv"
            as_root apt-get update -qq
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
            python3 -m venv .venv
        fi
    fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@" 2> >(grep -v "^WARNING: Location" >&2)
}
