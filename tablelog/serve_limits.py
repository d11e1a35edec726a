"""How long a client of `tablelog serve` may take, and how many may be connected at once: the
serve command's defaults (its options), kept apart from `tablelog.serving` so that the command
line starts without loading the web server."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    threads: int = 8  # worker threads running the app (the network loop is one more)
    connection_limit: int = 1000  # past it new connections wait in the kernel's queue
    idle_timeout: float = 30.0  # seconds without a byte either way, between or within requests
    header_timeout: float = 15.0  # seconds from a request's first byte to its last header
    body_timeout: float = 30.0  # seconds from the last header to the body's last byte
