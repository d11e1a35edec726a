"""The app factory: `create_app(store)` builds one Dash app over one store.

Pages are Dash Pages, one module per page in `dashboard/pages/`. Each page module calls
`dash.register_page` and defines `layout` and `register(app, source)`, which adds the page's
callbacks to THIS app with `app.callback` (Dash re-executes the page modules for every app, so
two apps in one process, as in the tests, never share callbacks or data). A later page (Record)
or an HTTP API slots in the same way: a new file in `pages/`, or routes on `app.server`.

Data lives in the app's `Source` (`app.server.extensions["tablelog"]`): nothing module-global.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import dash
from dash import Dash, Input, Output, dcc, html
from dash.exceptions import DependencyException

from tablelog.domain.recording.recorder import Recorder

from .callbacks import takes, undeclared
from .data import Refresher, Source
from .endpoint import SHELL, check_requests, on_error
from .theme import INDEX

# Dash Pages imports the page modules from a folder: the installed package's own.
PAGES = Path(str(resources.files("tablelog.dashboard.pages")))


def create_app(store: str | Recorder | None = None, refresh_every: float | None = 2.0) -> Dash:
    """The dashboard over `store` (a path or URL as `--store` takes, or an open Recorder).

    The projection tables are brought up to date once now; with `refresh_every` (seconds) a
    background thread keeps doing so, and live pages poll for the new figures."""
    if isinstance(store, Recorder):
        recorder = store
    else:
        from tablelog.store import open_recorder

        recorder = open_recorder(store)
    source = Source(recorder)
    source.refresh()
    _warm_up()
    messages: dict[str, str] = {}  # each callback's page's message element (dashboard/endpoint.py)
    app = Dash(
        "tablelog.dashboard",
        use_pages=True,
        pages_folder=str(PAGES),
        title="Tablelog",
        suppress_callback_exceptions=True,
        update_title=None,  # type: ignore[arg-type]  # Dash documents None (no "Updating...") but types str
        meta_tags=[{"name": "viewport", "content": "width=device-width, initial-scale=1"}],
        on_error=on_error(messages),
    )
    app.index_string = INDEX
    links = [
        dcc.Link(page["name"], href=page["relative_path"], className="nav-link")
        for page in _pages()
    ]
    # A function: Dash builds the layout on every page load, so the banner is current.
    app.layout = lambda: html.Div(
        [
            html.Header(
                [html.A("Tablelog", href="/", className="brand"), html.Nav(links)], className="top"
            ),
            damaged_banner(source.damaged()),
            html.Div(id=SHELL, role="alert", className="warning card", hidden=True),
            html.Main(dash.page_container, className="content"),
        ]
    )
    for page in _pages():
        module = sys.modules[page["module"]]
        before = set(app.callback_map)
        module.register(app, source)
        for output in set(app.callback_map) - before:
            messages[output] = getattr(module, "MESSAGE", SHELL)
    _clear_message_on_leaving(app)
    if missing := undeclared(app.callback_map):  # each checks what it takes (callbacks.py)
        raise TypeError(f"callbacks without @takes: {', '.join(missing)}")
    check_requests(app)
    app.server.extensions["tablelog"] = source
    # Dash raises this for a /_dash-component-suites/ path it does not serve ("x/..", a
    # library it does not know): that is a 404, not the 500 an uncaught exception gives.
    app.server.register_error_handler(DependencyException, _no_such_file)
    if refresh_every:
        refresher = Refresher(source, refresh_every)
        refresher.start()
        app.server.extensions["tablelog-refresher"] = refresher
    return app


def _clear_message_on_leaving(app: Dash) -> None:
    """The line under the menu speaks of the page it was said on: another page hides it."""

    @app.callback(Output(SHELL, "hidden"), Input("_pages_location", "pathname"))
    @takes()
    def clear(_path):
        return True


def _no_such_file(error: DependencyException) -> tuple[str, int, dict[str, str]]:
    return "no such file\n", 404, {"Content-Type": "text/plain; charset=utf-8"}


def damaged_banner(damaged: list[dict]) -> html.Div:
    """A warning naming the quarantined matches (left out of every page), or nothing."""
    if not damaged:
        return html.Div(id="damaged-banner", hidden=True)
    count = len(damaged)
    return html.Div(
        [
            html.Strong(f"{count} damaged match{'es' if count > 1 else ''} left out: "),
            # The stored position (1 = the start) as the step everything else names.
            "; ".join(
                f"{row['match_id'][:8]} (step {int(row['event']) - 1}: {row['finding']})"
                for row in damaged
            ),
            ". `tablelog audit MATCH` names every finding.",
        ],
        id="damaged-banner",
        role="alert",
        className="warning card",
    )


def _warm_up() -> None:
    """Pay the one-off costs now, not in the first visitor's request: the statistics' scipy and
    statsmodels imports, and plotly's template setup on the first figure (about 0.3 s)."""
    from tablelog.dashboard.figures.style import base
    from tablelog.projections.stats import binomial_p, wilson

    wilson(1, 2)
    binomial_p(1, 2, 0.5)
    base("").to_dict()


def _pages() -> list[dict]:
    """This app's pages in menu order (the registry is Dash's; ours are those in PAGES)."""
    ours = [
        p for p in dash.page_registry.values() if p["module"].startswith("tablelog.dashboard.pages")
    ]
    return sorted(ours, key=lambda p: p.get("order", 99))
