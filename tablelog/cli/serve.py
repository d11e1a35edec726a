"""`tablelog serve`: the dashboard in a browser, over the store's projection tables."""

from __future__ import annotations

import os
from pathlib import Path

import click

from tablelog.store import DEFAULT_STORE, store_location

from . import main
from .options import store_option


@main.command()
@store_option
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 serves the whole network).",
)
@click.option("--port", default=8050, show_default=True, type=int)
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
def serve(store, host, port, refresh, write_token):
    """Serve the dashboard (overview, balance, players, match replay, record) and the JSON
    API at /api/v1/ (OpenAPI document at /api/v1/openapi.json).

    On a fresh install (no --store, no $TABLELOG_STORE, no default store yet) it first builds
    the demo store there, so there is something to look at."""
    from tablelog.cli.stats import projection_of

    location = store_location(store)
    if store is None and "TABLELOG_STORE" not in os.environ and not Path(DEFAULT_STORE).exists():
        _build_demo(location)
    projection_of(location)  # catch up first, with a progress bar when there is much to do
    from tablelog.access import WritePolicy

    policy = WritePolicy.for_bind(host, write_token)
    app = build_app(location, policy, refresh)
    click.echo(f"Tablelog dashboard on {location}: http://{host}:{port}/  (Ctrl-C stops it)")
    click.echo(
        f"JSON API: http://{host}:{port}/api/v1/  (writes "
        + ("open on loopback)" if policy.open else "need the write token)")
    )
    if policy.generated:
        click.echo(
            f"write token, shown once (the Record page asks for it; the API takes "
            f"'Authorization: Bearer TOKEN'): {policy.token}"
        )
    app.run(host=host, port=port, debug=False)


def build_app(location: str, policy, refresh: float | None = None):
    """The served app: the dashboard, the API on its Flask server, and the guard over every
    request (the body limit; Host checks where writes are open). Tests serve this very app."""
    from tablelog.api import register_api
    from tablelog.dashboard.app import create_app
    from tablelog.dashboard.policy import set_lab_service, set_write_policy
    from tablelog.guard import guard

    app = create_app(location, refresh_every=refresh or None)
    guard(app.server, policy)
    register_api(app.server, app.server.extensions["tablelog"].recorder, policy)
    set_write_policy(app.server, policy)  # the Record and Lab pages read it there
    from tablelog.lab_service import serve_lab

    set_lab_service(app.server, serve_lab(app.server.extensions["tablelog"].recorder))
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
