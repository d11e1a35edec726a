"""The Record page's decisions about tapping the board and about the match in its address,
without a browser: a tap on the board gives the same pick as the button, a tap on a board drawn
for an earlier question is ignored, and `?match=` takes a unique id prefix (an unknown or
ambiguous one says why, naming the candidates)."""

from __future__ import annotations

import json

from tablelog.dashboard import games
from tablelog.dashboard.games.drawing import TAP_TRACE
from tablelog.dashboard.record import Question, menu, steps
from tablelog.domain.games import get_rules
from tablelog.projections.queries import Queries


def click_on(figure, value) -> dict:
    """The click data plotly sends for a tap on the target of `value`."""
    trace = next(t for t in figure.data if t.name == TAP_TRACE)
    for data in trace.customdata:
        if json.loads(data)[1] == value:
            return {"points": [{"curveNumber": 1, "customdata": data}]}
    raise AssertionError(f"no tap target for {value!r}")


def test_tapping_the_board_gives_the_pick_its_button_gives_and_a_late_tap_is_ignored():
    rules = get_rules("topitop")
    state = rules.start(2, rules.options({}), {})
    names = ["Ann", "Ben"]
    picks: list = []
    for value in ("supply:large", "b2"):  # a large pile from the supply, onto b2
        question = menu("topitop", rules, state, 0, picks, names)
        assert isinstance(question, Question)
        figure = games.draw("topitop", rules.encode(state), names, question, picks)
        before = list(picks)
        picks = steps.board_tapped(picks, click_on(figure, value))
        assert picks == [*before, [question.key, value]]
        stale = steps.board_tapped(picks, click_on(figure, value))  # the same board, again
        assert stale is None
    assert menu("topitop", rules, state, 0, picks, names).move == {"place": "large", "to": "b2"}


def test_only_legal_answers_are_tap_targets():
    rules = get_rules("topitop")
    state = rules.apply(rules.start(2, rules.options({}), {}), {"place": "large", "to": "b2"})
    picks = [["piece", "supply:bucket"]]
    question = menu("topitop", rules, state, 1, picks, ["Ann", "Ben"])
    figure = games.draw("topitop", rules.encode(state), ["Ann", "Ben"], question, picks)
    trace = next(t for t in figure.data if t.name == TAP_TRACE)
    cells = {json.loads(data)[1] for data in trace.customdata}
    # A bucket may go on any empty cell but not onto a bare large pile (b2).
    assert cells == {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}


def test_a_click_that_hits_no_tap_target_adds_nothing():
    assert steps.board_tapped([], {"points": [{"curveNumber": 0}]}) is None
    assert steps.board_tapped([], None) is None
    assert steps.board_tapped([], {"points": [{"customdata": "not json"}]}) is None


def test_the_address_takes_a_unique_prefix_and_says_why_another_shows_nothing(recorder):
    queries = Queries(recorder)
    first = str(recorder.start("topitop", ["Ann", "Ben"], {}, {}))
    assert steps.resolved(queries.find, first) == (first, "")
    assert steps.resolved(queries.find, first[:8]) == (first, "")
    assert steps.resolved(queries.find, first[:8].upper()) == (first, "")
    assert steps.resolved(queries.find, None) == (None, "")
    unknown = "0000ffff" if not first.startswith("0000ffff") else "ffff0000"
    match, why = steps.resolved(queries.find, unknown)
    assert match is None and f"no match whose id starts with '{unknown}'" in why
    match, why = steps.resolved(queries.find, "not-an-id")
    assert match is None and "hexadecimal" in why
    # Start matches until two share their first four hex digits: that prefix is ambiguous.
    seen = {first[:4]: first}
    while True:
        other = str(recorder.start("topitop", ["Ann", "Ben"], {}, {}))
        if other[:4] in seen:
            break
        seen[other[:4]] = other
    match, why = steps.resolved(queries.find, other[:4])
    assert match is None and "2 matches have ids starting with" in why
    assert other in why and seen[other[:4]] in why
