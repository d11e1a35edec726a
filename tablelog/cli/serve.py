"""`tablelog serve`: the dashboard in a browser, over the store's projection tables."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import click

from tablelog.domain.errors import Refused
from tablelog.serve_limits import Limits
from tablelog.store import DEFAULT_STORE, store_location

from . import main
from .options import store_option


def seconds_option(name: str, help: str):
    """A timeout in seconds, its default `Limits`' field of the same name."""
    default = getattr(Limits, name.removeprefix("--").replace("-", "_"))
    return click.option(
        name,
        default=default,
        show_default=True,
        type=click.FloatRange(min=1, max=3600),
        metavar="SECONDS",
        help=help,
    )


@main.command()
@store_option
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 serves the whole network).",
)
@click.option("--port", default=8050, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--refresh",
    default=2.0,
    show_default=True,
    type=float,
    metavar="SECONDS",
    help="How often the tables take in new events (0: only at start).",
)
@click.option(
    "--write-token",
    envvar="TABLELOG_WRITE_TOKEN",
    metavar="TOKEN",
    help="Bearer token for recording (the Record page and the API's writes). Needed "
    "off loopback: generated and printed once when not given.",
)
@click.option(
    "--trusted-proxy",
    metavar="ADDRESS",
    help="The reverse proxy's address (e.g. 127.0.0.1): its X-Forwarded-For and "
    "X-Forwarded-Proto are believed, and writes need the write token (docs/deploy.md).",
)
@click.option("--threads", default=Limits.threads, show_default=True, type=click.IntRange(1, 256))
@click.option(
    "--connection-limit",
    default=Limits.connection_limit,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Open connections at most; more wait until one closes.",
)
@seconds_option(
    "--idle-timeout", "A connection that sends and takes nothing for this long is closed."
)
@seconds_option("--header-timeout", "A request's headers must arrive within this time (else 408).")
@seconds_option(
    "--body-timeout", "A request's body must arrive within this time after its headers (else 408)."
)
def serve(store, host, port, refresh, write_token, trusted_proxy, **limits):
    """Serve the dashboard (overview, balance, players, match replay, record) and the JSON
    API at /api/v1/ (OpenAPI document at /api/v1/openapi.json), on waitress, a production
    web server; behind a reverse proxy with TLS, see docs/deploy.md.

    On a fresh install (no --store, no $TABLELOG_STORE, no default store yet) it first builds
    the demo store there, so there is something to look at."""
    from tablelog.serving import make_server, serve_until_stopped

    sock = _listen(host, port)  # first: a port in use is refused before any waiting
    try:
        location = store_location(store)
        app, policy = _app(location, store, host, refresh, write_token, trusted_proxy)
        server = make_server(app.server, sock, Limits(**limits), trusted_proxy)
        _say_where(location, host, port, policy)
        try:
            serve_until_stopped(server)
        finally:
            refresher = app.server.extensions.get("tablelog-refresher")
            if refresher is not None:
                refresher.stop()
    finally:
        sock.close()


def _listen(host: str, port: int):
    from tablelog.serving import listen_socket

    try:
        return listen_socket(host, port)
    except OSError as err:
        reason = (err.strerror or str(err)).lower()
        if err.errno == errno.EADDRINUSE:
            reason = "another program is serving on that port (choose another with --port)"
        raise Refused(f"cannot listen on {_address(host, port)}: {reason}") from None


def _app(location, store, host, refresh, write_token, trusted_proxy):
    from tablelog.access import WritePolicy
    from tablelog.cli.stats import projection_of

    if store is None and "TABLELOG_STORE" not in os.environ and not Path(DEFAULT_STORE).exists():
        _build_demo(location)
    projection_of(location)  # catch up first, with a progress bar when there is much to do
    policy = WritePolicy.for_bind(host, write_token, proxied=bool(trusted_proxy))
    return build_app(location, policy, refresh, secure=bool(trusted_proxy)), policy


def _say_where(location: str, host: str, port: int, policy) -> None:
    url = f"http://{_address(host, port)}"
    click.echo(f"Tablelog dashboard on {location}: {url}/  (Ctrl-C stops it)")
    click.echo(
        f"JSON API: {url}/api/v1/  (writes "
        + ("open on loopback)" if policy.open else "need the write token)")
    )
    if policy.generated:
        click.echo(
            f"write token, shown once (the Record page asks for it; the API takes "
            f"'Authorization: Bearer TOKEN'): {policy.token}"
        )


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def build_app(location: str, policy, refresh: float | None = None, secure: bool = False):
    """The served app: the dashboard, the API on its Flask server, and the guard over every
    request (the body limit; Host checks where writes are open), with sign-in for a store with
    accounts on (its cookies Secure when `secure`: behind a TLS proxy). Tests serve this very
    app."""
    from tablelog.api import register_api
    from tablelog.dashboard.app import create_app
    from tablelog.dashboard.policy import set_lab_service, set_tune_service, set_write_policy
    from tablelog.guard import guard
    from tablelog.signin import install_signin

    app = create_app(location, refresh_every=refresh or None)
    guard(app.server, policy)
    install_signin(app.server, app.server.extensions["tablelog"].recorder, secure)
    register_api(app.server, app.server.extensions["tablelog"].recorder, policy)
    set_write_policy(app.server, policy)  # the Record and Lab pages read it there
    from tablelog.lab.service import serve_lab

    set_lab_service(app.server, serve_lab(app.server.extensions["tablelog"].recorder))
    from tablelog.tune.service import serve_tune

    set_tune_service(app.server, serve_tune(location))  # the Lab page's Tune section
    return app


def _build_demo(location: str) -> None:
    try:
        from tablelog.demo import build_demo_store
    except ImportError:  # the demo data has not landed: serve the empty store
        click.echo(
            f"no store at {location} yet and no demo data to build; record or import "
            "matches to fill the dashboard",
            err=True,
        )
        return
    click.echo(f"first run: building the demo store at {location}", err=True)
    build_demo_store(location, progress=True)
