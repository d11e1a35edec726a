"""A served dashboard with a write policy, a headless Chromium (one per module), and the taps
that enter a setup or a move on the Record page the way a player does: by the buttons' words."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import flask
import pytest
from werkzeug.serving import make_server

from tablelog.access import WritePolicy
from tablelog.dashboard.app import create_app
from tablelog.dashboard.record import Question, menu
from tablelog.dashboard.record import setup as setups
from tablelog.dashboard.record.actions import POLICY
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, open_page

from .entering import picks_for

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = BROWSER_WAIT  # ms (tests/conftest.py)


class Served:
    """The app on a real port, over its own store file."""

    def __init__(self, store: str, policy: WritePolicy) -> None:
        self.store = store
        self.app = create_app(store, refresh_every=None)
        self.app.server.extensions[POLICY] = policy
        self.server = make_server("127.0.0.1", 0, self.app.server, threaded=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.recorder = open_recorder(store)

    def close(self) -> None:
        self.server.shutdown()
        self.recorder.close()


@pytest.fixture
def serve(tmp_path):
    """serve(policy) -> Served; loopback (open) by default."""
    started: list[Any] = []

    def serve(policy: WritePolicy | None = None) -> Served:
        served = Served(
            str(tmp_path / f"store{len(started)}.sqlite"),
            policy or WritePolicy.for_bind("127.0.0.1"),
        )
        started.append(served)
        return served

    yield serve
    for served in started:
        served.close()


@pytest.fixture
def phone(browser):
    """A page the size of a phone (390x844), collecting console errors."""
    page = open_page(browser, 390, 844)
    page.set_default_timeout(WAIT)
    yield page
    page.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"record-{name}.png"), full_page=True)


def answered(page, where: str, count: int) -> None:
    """Wait until the page shows `count` answers (each tap is one server round trip)."""
    page.wait_for_selector(f"{where} .record-answers[data-picks='{count}']", state="attached")


def tap(page, where: str, label: str) -> None:
    page.locator(where).get_by_role("button", name=label, exact=True).click()


def start_match(
    page, url: str, game: str, name: str, players: str, setup_picks: list, started: bool = True
) -> None:
    """Start a match from the form: players, the game's button, the setup answers by label;
    with `started`, wait for the match to show (else the caller waits for the refusal)."""
    page.goto(f"{url}/record")
    page.fill("#record-players", players)
    tap(page, "#record-start", name)
    answered(page, "#record-setup", 1)
    count = len([p for p in players.split(",") if p.strip()])
    for number, (key, value) in enumerate(setup_picks):
        step = setups.menu(game, count, setup_picks[:number])
        assert isinstance(step, Question), f"the setup is complete before {key}"
        assert step.key == key, f"the setup asks {step.key}, not {key}"
        tap(page, "#record-setup", next(o.label for o in step.options if o.value == value))
        answered(page, "#record-setup", number + 2)
    page.get_by_role("button", name="Start the match").click()
    if started:
        page.wait_for_selector("#record-summary:has-text('move 0')")


def enter_move(page, recorder, match_id: str, move: dict) -> None:
    """Tap the buttons that enter `move` (labels as the menus say them), then record it."""
    done = len(recorder.get(match_id).moves)
    tap_move(page, recorder, match_id, move)
    page.get_by_role("button", name="Record this move").click()
    page.wait_for_selector(f"#record-summary:has-text('move {done + 1} ')")


def tap_move(page, recorder, match_id: str, move: dict) -> None:
    """Tap the buttons that enter `move` (labels as the menus say them), each answered."""
    answered(page, "#record-picker", 0)
    for number, label in enumerate(move_labels(recorder, match_id, move)):
        tap(page, "#record-picker", label)
        answered(page, "#record-picker", number + 1)


def move_labels(recorder, match_id: str, move: dict) -> list[str]:
    """The labels of the buttons that enter `move` for the seat to move, in order."""
    match = recorder.get(match_id)
    rules, state, seats = match.rules, match.state, list(match.seats)
    seat = rules.to_move(state)[0]
    picks = picks_for(match.game, rules, state, seat, move, seats)
    labels = []
    for number, (_key, value) in enumerate(picks):
        step = menu(match.game, rules, state, seat, picks[:number], seats)
        assert isinstance(step, Question), f"the move is complete before {_key}"
        labels.append(next(o.label for o in step.options if o.value == value))
    return labels


def held(served, redraw: str, answer: str, draw_s: float, answer_s: float) -> threading.Event:
    """While the event is set, the server holds each call that updates `redraw` ("id.property")
    draw_s and each that updates `answer` answer_s (the page's own calls, told apart by their
    outputs), as a loaded machine would: a redraw lands while a tap's answer is on its way."""
    on = threading.Event()

    @served.app.server.before_request
    def hold() -> None:
        if not on.is_set() or not flask.request.path.endswith("_dash-update-component"):
            return
        output = (flask.request.get_json(silent=True) or {}).get("output", "")
        if redraw in output:
            time.sleep(draw_s)
        elif answer in output:
            time.sleep(answer_s)

    return on
