"""Interop, proven by the reference implementation: checkpoints Tablelog writes verify with Go's
own signed-note package, golang.org/x/mod/sumdb/note (the Go checksum database's), given the
verifier key `tablelog keys show --public` prints; a changed checkpoint does not. Both stores.

Debian ships Go and the package (golang-go, golang-golang-x-mod-dev: scripts/test.sh installs
them). Where they are missing the test is skipped, except in CI, where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.checkpoints.test_commands import run
from tests.test_recorder import WIN

GOPATH = "/usr/share/gocode"
NOTE_PACKAGE = Path(GOPATH) / "src/golang.org/x/mod/sumdb/note"
VERIFY_GO = """package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/mod/sumdb/note"
)

// verify VKEY < NOTE: exit 0 and print the note's text if a signature by VKEY verifies.
func main() {
	msg, _ := io.ReadAll(os.Stdin)
	v, err := note.NewVerifier(os.Args[1])
	if err != nil {
		fmt.Println("bad verifier key:", err)
		os.Exit(2)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		fmt.Println("not verified:", err)
		os.Exit(1)
	}
	fmt.Print(n.Text)
}
"""


@pytest.fixture(scope="module")
def go_verify(tmp_path_factory) -> Path:
    """Go's note.Open as a program: built once, offline, from Debian's packages."""
    if shutil.which("go") is None or not NOTE_PACKAGE.is_dir():
        missing = "Go and golang.org/x/mod (apt-get install golang-go golang-golang-x-mod-dev)"
        if os.environ.get("CI"):
            pytest.fail(f"{missing} are missing: scripts/test.sh installs them")
        pytest.skip(f"{missing} are not installed")
    where = tmp_path_factory.mktemp("go")
    (where / "verify.go").write_text(VERIFY_GO)
    env = {
        **os.environ,
        "GO111MODULE": "off",
        "GOPATH": GOPATH,
        "GOCACHE": str(where / "cache"),
    }
    built = subprocess.run(
        ["go", "build", "-o", str(where / "verify"), str(where / "verify.go")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    return where / "verify"


def go_opens(program: Path, vkey: str, message: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(program), vkey], input=message, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def env(any_store, tmp_path):
    return {
        **os.environ,
        "TABLELOG_STORE": any_store,
        "TABLELOG_KEY_FILE": str(tmp_path / "keys" / "signing-key.pem"),
    }


def test_go_s_note_package_verifies_tablelog_s_checkpoints(go_verify, env, tmp_path):
    assert run(env, "keys", "init", "--origin", "club.example.org/tablelog").returncode == 0
    match_id = run(env, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    for seat, move in WIN[:6]:
        assert run(env, "move", match_id, "--seat", seat, json.dumps(move)).returncode == 0
    claimed = run(env, "claim", match_id, "--by", "Ann", "--scores", '{"Ann": 0, "Ben": 0}')
    assert claimed.returncode == 0, claimed.stderr
    published = run(env, "checkpoint", "--publish", str(tmp_path / "heads"))
    assert published.returncode == 0, published.stderr
    (checkpoint,) = (tmp_path / "heads").glob("*.checkpoint")
    vkey = run(env, "keys", "show", "--public").stdout.strip().splitlines()[-1]
    assert vkey.startswith("club.example.org/tablelog+")

    opened = go_opens(go_verify, vkey, checkpoint.read_text())
    assert opened.returncode == 0, opened.stdout
    origin, size, _root, time = opened.stdout.splitlines()
    assert (origin, size) == ("club.example.org/tablelog", "8")  # start, 6 moves, the claim
    assert time.startswith("time ")

    # The checkpoint a receipt carries is the same note: Go opens it as it stands.
    receipt = run(env, "receipt", match_id).stdout
    assert go_opens(go_verify, vkey, receipt.split("\n\n", 1)[1]).returncode == 0

    forged = checkpoint.read_text().replace("\n8\n", "\n9\n")
    refused = go_opens(go_verify, vkey, forged)
    assert refused.returncode == 1 and "invalid signature" in refused.stdout
    elsewhere = {
        **env,
        "TABLELOG_KEY_FILE": str(tmp_path / "k2.pem"),
        "TABLELOG_STORE": str(tmp_path / "other.sqlite"),
    }
    other = run(
        elsewhere,
        "keys",
        "init",
        "--origin",
        "club.example.org/tablelog",
    ).stdout.splitlines()[-1]
    assert go_opens(go_verify, other, checkpoint.read_text()).returncode == 1  # another key
