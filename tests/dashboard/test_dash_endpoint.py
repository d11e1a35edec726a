"""The callback endpoint's 500s of issue 42, over HTTP against `tablelog serve`'s app on SQLite
and PostgreSQL: a call that is not one of the page's is 400 with one line; a value of the
wrong kind is 400 with one line naming it; a damaged match in the address is the Record page's
own message; a fault inside a callback is logged and said on the page. Never a 500, and the
store byte-identical afterwards."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from tablelog.dashboard.record import panels
from tests.conftest import stored_rows

from .dash_calls import FAULT, call, one_line_refusal, said, served_app

SHEET: list = [
    None,
    "topitop",
    "Ann, Ben",
    [],
    [],
    [],
    "Ann",
    None,
    None,
    None,
    None,
]  # the sheet form's state (the last: the token typed in its box)
START: list = [
    None,
    None,
    None,
    [],
    None,
    None,
    [],
    [],
    [["game", "topitop"]],
    "Ann, Ben",
    None,
    None,
    None,  # the token typed in its box
]
WRITE_START = [{"action": "start", "at": "1.1"}]  # a tap on **Start the match**, as heard


@pytest.fixture
def served(any_store):
    with served_app(any_store) as served:
        yield served


def replaced(values: list, index: int, value) -> list:
    return [value if i == index else v for i, v in enumerate(values)]


def sheet_save(s, index, value):
    return call(s.callback("record-sheet-message"), [1], replaced(SHEET, index, value))


def start(s, index, value):
    return call(
        s.callback("record-message.children..."), WRITE_START, replaced(START, index, value)
    )


def seats(s, game, players):
    return call(s.callback("record-sheet-seats"), [game, players])


# (what the issue found, the call, words of the one-line answer)
ISSUE_42 = {
    "POST {}": (lambda s: {}, "not a Dash callback call"),
    "a JSON list": (lambda s: [1, 2], "not a Dash callback call"),
    "not JSON": (lambda s: "{output: x", "not a Dash callback call"),
    "an unknown output": (
        lambda s: {**call(s.callback("record-sheet-seats"), [None, None]), "output": "x.children"},
        "no callback answers for 'x.children'",
    ),
    "Dash's own page callback, which runs in the browser": (
        lambda s: {"output": "_pages_dummy.children", "inputs": [], "changedPropIds": []},
        "no callback answers",
    ),
    "the inputs left out": (
        lambda s: {k: v for k, v in seats(s, None, None).items() if k != "inputs"},
        "lacks 'inputs'",
    ),
    "an input too many": (
        lambda s: {**(c := seats(s, None, None)), "inputs": [*c["inputs"], c["inputs"][0]]},
        "$.inputs",
    ),
    "another callback's input": (
        lambda s: {
            **(c := seats(s, None, None)),
            "inputs": [{"id": "record-players", "property": "value"}, c["inputs"][1]],
        },
        "$.inputs[0].id",
    ),
    "a trigger that is none of the inputs": (
        lambda s: {**seats(s, None, None), "changedPropIds": ["record-token.data"]},
        "'record-token.data' is none of its inputs",
    ),
    "the sheet's players as a list": (lambda s: sheet_save(s, 2, ["Ann"]), "record-sheet-players"),
    "the sheet's players as a number": (lambda s: sheet_save(s, 2, 2), "record-sheet-players"),
    "the sheet's game as a list": (lambda s: sheet_save(s, 1, ["topitop"]), "record-sheet-game"),
    "the sheet's token as a list": (lambda s: sheet_save(s, 0, ["t"]), "record-token.data"),
    "the seats' players as a list": (
        lambda s: seats(s, "topitop", ["Ann"]),
        "record-sheet-players.value must be text",
    ),
    "the seats' game as a list": (
        lambda s: seats(s, ["topitop"], "Ann"),
        "record-sheet-game.value must be one of the games",
    ),
    "the token as a list (actions.py:49, .strip() on a list)": (
        lambda s: start(s, 0, ["s3cret"]),
        "record-token.data must be text",
    ),
    "the start's players as a number": (lambda s: start(s, 9, 2), "record-players.value"),
    "the start's game as a list": (
        lambda s: start(s, 8, [["game", ["topitop"]]]),
        "record-setup-picks.data",
    ),
    "a game that is none of the games": (
        lambda s: seats(s, "chess", "Ann, Ben"),
        "record-sheet-game.value must be one of the games",
    ),
}


@pytest.mark.parametrize("case", ISSUE_42)
def test_the_issue_s_500s_are_one_line_400s_that_store_nothing(served, case):
    body, words = ISSUE_42[case]
    before = stored_rows(served.store)
    answer = served.post(body(served))
    assert words in one_line_refusal(answer)
    assert stored_rows(served.store) == before


def test_a_damaged_match_in_the_address_is_the_record_page_s_message(served):
    before = stored_rows(served.store)
    page = served.http.get(f"{served.url}/record?match={served.damaged}")
    assert page.status_code == 200
    load = said(served.post(call(served.callback("record-version.data"), [served.damaged])))
    assert f"match {served.damaged} is damaged" in load and "record-message" in load
    shown = said(
        served.post(call(served.callback("record-start.style"), [None], [served.damaged, None]))
    )
    assert "record-start" in shown and FAULT not in shown  # the start form is offered instead
    assert stored_rows(served.store) == before


def test_a_damaged_match_on_the_match_page_says_so(served):
    load = served.callback("match-step.max")
    answer = said(served.post(call(load, [served.damaged, None, None, None], [0, 0, None])))
    assert f"match {served.damaged} is damaged" in answer and FAULT not in answer


def test_a_fault_inside_a_callback_is_logged_and_said_on_its_page(served, monkeypatch, caplog):
    def broken(*_args):
        raise RuntimeError("a bug in the drawing")

    monkeypatch.setattr(panels, "play", broken)  # the Record page's play area
    monkeypatch.setattr(sys.modules["tablelog.dashboard.pages.overview"], "overview", broken)
    before = stored_rows(served.store)
    with caplog.at_level(logging.ERROR, logger="tablelog.dashboard"):
        record = served.post(
            call(served.callback("record-start.style"), [1], [served.ids[0], None])
        )
        overview = served.post(call(served.callback("overview-stats"), [1]))
    assert FAULT in said(record) and "record-message" in record.text
    assert FAULT in said(overview) and "page-message" in overview.text  # the line under the menu
    assert (
        "a bug in the drawing" not in record.text + overview.text
    )  # the log says why, not the page
    assert (
        sum("a bug in the drawing" in r.getMessage() + str(r.exc_info) for r in caplog.records) == 2
    )
    assert stored_rows(served.store) == before


def test_a_live_page_takes_back_the_position_it_was_given(served):
    """A live page polls with the tables' position it last received (a list: where the
    projection stands, and how many matches are quarantined); sent back unchanged, it is
    "nothing new" (204), never a refusal: the browser test of the overview saw every poll
    after the first refused, and the page stopped following the store."""
    followers = [c for c in served.callbacks if c["output"].endswith("-position.data")]
    assert followers, "no live page found"
    for follower in followers:
        first = said(served.post(call(follower, [1], [None])))
        position = json.loads(first)["response"][follower["output"].rsplit(".", 1)[0]]["data"]
        again = served.post(call(follower, [2], [position]))
        assert again.status_code == 204, (follower["output"], again.text[:300])
