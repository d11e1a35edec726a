"""Who may write: the rule the HTTP API and the Record page share.

A server bound to the loopback interface (127.0.0.0/8, ::1, `localhost`) is reachable only from
this machine, so writes are open there, as at the command line. Bound to any other address it is
reachable by anyone on the network: every write then needs `Authorization: Bearer TOKEN`, the
token given with `--write-token` / `$TABLELOG_WRITE_TOKEN`, or one generated at start (the serve
command prints it once). A token given on loopback is required too: whoever sets one wants it.
Behind a reverse proxy (`serve --trusted-proxy`) a loopback bind is reached by the network as
well, so it needs a token as a network bind does.
Reads stay open everywhere.

Two browser attacks reach a loopback server from a web page the user visits, and the open policy
closes both: DNS rebinding (a hostile name resolving to 127.0.0.1, so the page's requests carry
that name in `Host`): open writes take only a loopback `Host`; and cross-site form posts, which
the API refuses by taking only `application/json` bodies (a browser preflights those).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from dataclasses import dataclass

LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """Whether a bind address or host name (no port) names this machine only."""
    name = host.strip().lower().removeprefix("[").removesuffix("]")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_without_port(host_header: str) -> str:
    """`127.0.0.1:8050` -> `127.0.0.1`, `[::1]:8050` -> `::1`, `localhost` -> `localhost`."""
    host = host_header.strip()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


@dataclass(frozen=True)
class WritePolicy:
    """Writes are open (`token` None) or need the bearer token; `generated` says the token was
    made at start, so the serve command must show it once."""

    token: str | None = None
    generated: bool = False

    @classmethod
    def for_bind(cls, host: str, token: str | None = None, proxied: bool = False) -> WritePolicy:
        """The policy of a server bound to `host`, with the token the user gave (if any).
        `proxied`: a reverse proxy brings the network to it, whatever address it is bound to."""
        if token is not None and not token.strip():
            token = None
        if token:
            return cls(token=token.strip())
        if is_loopback(host) and not proxied:
            return cls()
        return cls(token=secrets.token_urlsafe(32), generated=True)

    @property
    def open(self) -> bool:
        return self.token is None

    def refusal(self, authorization: str | None, host_header: str | None) -> tuple[int, str] | None:
        """None when a write with these request headers may go ahead; otherwise the HTTP status
        (401: no or wrong token; 403: an open server reached under a non-loopback name) and the
        reason, in one line."""
        if self.token is None:  # open
            if host_header and not is_loopback(host_without_port(host_header)):
                return 403, (
                    f"writes on this server are open to this machine only, and this "
                    f"request came for host {host_without_port(host_header)!r}"
                )
            return None
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not given.strip():
            return 401, "writes on this server need the header 'Authorization: Bearer TOKEN'"
        # compare_digest takes the same time wherever the strings differ.
        if not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            return 401, "the bearer token is wrong"
        return None
