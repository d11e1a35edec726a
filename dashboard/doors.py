"""The door of a click that starts or cancels long work on the server (the Lab's experiments,
the tuner's studies): the service that does it, or why this request may not (the app's write
policy and, with accounts on, the person's role: `record.actions.admit`, the Record page's own)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import dash
import flask
from dash.exceptions import PreventUpdate

from tablelog.dashboard.policy import write_policy
from tablelog.dashboard.record import actions

S = TypeVar("S")  # the lab's service or the tuner's


def service_for_click(
    app: dash.Dash, service: Callable[[], S | None], clicks: object, action: str, unavailable: str
) -> tuple[S | None, str | None]:
    """(the service, None), or (None, the one line saying why not); no update without a click."""
    if not clicks:
        raise PreventUpdate
    found = service()
    recorder = app.server.extensions["tablelog"].recorder
    _, refused = actions.admit(write_policy(app.server), recorder, None, flask.request.host, action)
    if found is None or refused:
        return None, refused or unavailable
    return found, None
