"""Where the dashboard finds its write policy: the composition root (`tablelog serve`) sets it
on the app's Flask server with `set_write_policy`, and the pages that write (Record, Lab) read
it with `write_policy`. One named key, so the two sides cannot drift apart."""

from __future__ import annotations

from typing import Any

WRITE_POLICY = "tablelog-write-policy"  # Flask `extensions` key: a tablelog.access.WritePolicy


def set_write_policy(server: Any, policy: Any) -> None:
    """Let the pages of the app on `server` (a Flask app) write under `policy`."""
    server.extensions[WRITE_POLICY] = policy


def write_policy(server: Any) -> Any:
    """The write policy set on `server`; None when none was (recording is then off)."""
    return server.extensions.get(WRITE_POLICY)
