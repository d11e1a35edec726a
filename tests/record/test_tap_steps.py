"""The Record page's decisions about tapping the board and about the match in its address,
without a browser: a tap on the board gives the same pick as the button, a tap on a board drawn
for an earlier question is ignored (a question's button and a chip are answered alike, the
button carrying its pick as a board's place does), and `?match=` takes a unique id prefix (an
unknown or ambiguous one says why, naming the candidates)."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.dashboard import games
from tablelog.dashboard.games.drawing import NOT_A_TARGET, TAP_TRACE
from tablelog.dashboard.record import Question, Ready, menu, steps
from tablelog.domain.games import RulesError, get_rules
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
        after = steps.board_tapped(picks, click_on(figure, value))
        assert after == [*picks, [question.key, value]]
        picks = after
        stale = steps.board_tapped(picks, click_on(figure, value))  # the same board, again
        assert stale is None
    ready = menu("topitop", rules, state, 0, picks, names)
    assert isinstance(ready, Ready) and ready.move == {"place": "large", "to": "b2"}


def test_only_legal_answers_are_tap_targets():
    rules = get_rules("topitop")
    state = rules.apply(rules.start(2, rules.options({}), {}), {"place": "large", "to": "b2"})
    picks = [["piece", "supply:bucket"]]
    question = menu("topitop", rules, state, 1, picks, ["Ann", "Ben"])
    assert isinstance(question, Question)
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


# Every board, in positions the rules reach: each answer that has a place on the board is a tap
# target there (exactly once per place), every tap target is a legal answer, all of them lie
# inside the drawn board, and no other point on it takes the pointer.

ON_THE_BOARD = {  # the questions whose every answer (but those naming no place) is tappable
    "topitop": {"piece", "to"},
    "topiary": {"stand", "visitor", "take"},
    "total-landscaping": {"garden", "tile", "spread", "recolour", "hoe"},
    "topas": {"area", "at", "dir"},
    "geoshapes": {"switch", "on", "from", "to", "pick_up"},
}
NOT_A_PLACE = ("", "pass", "__done__")


def _targets(figure) -> list[tuple[str, object, float, float]]:
    trace = next((t for t in figure.data if t.name == TAP_TRACE), None)
    if trace is None:
        return []
    return [
        (*json.loads(data)[:2], x, y)
        for data, x, y in zip(trace.customdata, trace.x, trace.y, strict=True)
    ]


def _check_question(game, rules, state, seat, picks, names) -> Question | None:
    question = menu(game, rules, state, seat, picks, names)
    if not isinstance(question, Question):
        return None
    figure = games.draw(game, rules.encode(state), names, question, picks)
    targets = _targets(figure)
    offered = [json.dumps(o.value) for o in question.options]
    assert all(json.dumps(value) in offered for _k, value, _x, _y in targets), game
    assert all(key == question.key for key, *_ in targets)
    (x0, x1), (y0, y1) = sorted(figure.layout.xaxis.range), sorted(figure.layout.yaxis.range)
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for *_kv, x, y in targets), game
    if targets:  # nothing else on the board answers the pointer (GeoShapes' slots name shapes)
        others = [t for t in figure.data if t.name != TAP_TRACE]
        assert all(t.hoverinfo == "skip" and t.hovertemplate is None for t in others), game
    if question.key.split(".")[-1] in ON_THE_BOARD[game]:
        tapped = {json.dumps(value) for _k, value, _x, _y in targets}
        places = {
            o for o, option in zip(offered, question.options) if option.value not in NOT_A_PLACE
        }
        assert places <= tapped, f"{game} {question.key}: {places - tapped} not on the board"
    return question


@pytest.mark.parametrize("game", list(ON_THE_BOARD))
@given(seed=st.integers(0, 10_000))
@settings(max_examples=5, deadline=None)
def test_every_answer_with_a_place_is_a_tap_target_inside_the_board(game, seed):
    rules = get_rules(game)
    rng = random.Random(seed)
    players = max(2, rules.min_players)
    names = ["Ann", "Ben", "Cy", "Di"][:players]
    options = rules.options({})
    state = rules.start(players, options, rules.deal(players, options, rng))
    for _ in range(rng.randrange(0, 25)):
        if rules.outcome(state) is not None:
            break
        state = rules.apply(state, rules.random_move(state, rng))
    if rules.outcome(state) is not None or not rules.to_move(state):
        return
    seat = rules.to_move(state)[0]
    picks: list[list] = []
    while (question := _check_question(game, rules, state, seat, picks, names)) is not None:
        picks.append([question.key, rng.choice(question.options).value])


# Every place on Topitop's board answers a tap: a legal one enters its pick; any other enters
# nothing and says why in the engine's words, the refusal of a move that pick would make.


def _places(figure) -> list[str]:
    """Every tap target on the board, ringed or not, as its customdata."""
    return [
        data for t in figure.data if t.name in (TAP_TRACE, NOT_A_TARGET) for data in t.customdata
    ]


def _refusals(rules, state, moves) -> set[str]:
    said = set()
    for move in moves:
        try:
            rules.apply(state, move)
        except RulesError as err:
            said.add(str(err))
    return said


@given(seed=st.integers(0, 10_000))
@settings(max_examples=15, deadline=None)
def test_a_tap_on_a_place_that_is_not_legal_says_the_engines_refusal_and_enters_nothing(seed):
    rules, rng, names = get_rules("topitop"), random.Random(seed), ["Ann", "Ben"]
    state = rules.start(2, rules.options({}), {})
    for _ in range(rng.randrange(0, 12)):
        if rules.outcome(state) is not None:
            return
        state = rules.apply(state, rules.random_move(state, rng))
    if not rules.to_move(state):
        return
    seat = rules.to_move(state)[0]
    match = SimpleNamespace(
        kind="match", game="topitop", rules=rules, state=state, status="running", seats=names
    )
    load = lambda _id, _version: match  # noqa: E731
    cells = [f"{c}{r}" for r in (1, 2, 3) for c in "abc"]
    picks: list[list] = []
    while isinstance(question := menu("topitop", rules, state, seat, picks, names), Question):
        figure = games.draw("topitop", rules.encode(state), names, question, picks)
        offered = {json.dumps(o.value) for o in question.options}
        for data in _places(figure):
            key, value, _count = json.loads(data)
            after, said = steps.board_answer(
                load, "m", 1, picks, {"points": [{"customdata": data}]}
            )
            if json.dumps(value) in offered:
                assert after == [*picks, [key, value]] and said == ""
                continue
            assert after is None  # nothing entered
            if key == "to":
                piece = dict(picks)["piece"]
                move = (
                    {"place": piece.removeprefix("supply:"), "to": value}
                    if piece.startswith("supply:")
                    else {"from": piece, "to": value}
                )
                assert said == next(iter(_refusals(rules, state, [move])))
            else:
                moves = [
                    {"place": value.removeprefix("supply:"), "to": to}
                    if value.startswith("supply:")
                    else {"from": value, "to": to}
                    for to in cells
                ]
                assert said in _refusals(rules, state, moves)
        options = [o.value for o in question.options if o.value != "pass"]
        if not options:
            return
        picks.append([question.key, rng.choice(options)])


def test_a_tap_beside_every_place_says_where_to_tap():
    rules, names = get_rules("topitop"), ["Ann", "Ben"]
    match = SimpleNamespace(
        kind="match",
        game="topitop",
        rules=rules,
        state=rules.start(2, rules.options({}), {}),
        status="running",
        seats=names,
    )
    after, said = steps.board_answer(lambda *_: match, "m", 1, [], {"points": []})
    assert after is None and said is not None and said.startswith("Nothing to pick there")


SLIP = {"place": "small", "to": "b2"}  # a move taken back


def _buttons(drawn) -> list:
    """Every button drawn in a panel (a component or a list of them), in order."""
    if isinstance(drawn, list):
        return [button for part in drawn for button in _buttons(part)]
    if drawn is None or isinstance(drawn, str):
        return []
    found = [drawn] if getattr(drawn, "_type", "") == "Button" else []
    return found + _buttons(getattr(drawn, "children", None))


def _taps(asked) -> dict[str, dict]:
    """The picker's buttons by their words, each as the tap the page's listener sends for it."""
    from tablelog.dashboard.record import panels

    taps: dict[str, dict] = {}
    for button in _buttons(panels.picker(asked)):
        if getattr(button, "data-tap", None) is not None:
            taps[button.children] = {"points": [{"customdata": getattr(button, "data-tap")}]}
        elif getattr(button, "data-back", None) is not None:
            taps[button.children] = {"back": int(getattr(button, "data-back"))}
    return taps


def test_a_button_or_a_chip_tapped_is_answered_as_the_board_is_even_on_an_older_question():
    """A button carries its pick and the number of answers it was drawn after, as a ringed
    place does: the pick joins the move when the question asked now offers it (after an undo,
    a button of the question the undone move led to), a refusal says why when not, a button of
    an earlier question (a second tap) enters nothing; a chip takes answers back."""
    rules, names = get_rules("topitop"), ["Ann", "Ben"]
    start = rules.start(2, rules.options({}), {})
    match = SimpleNamespace(
        kind="match", game="topitop", rules=rules, state=start, status="running", seats=names
    )
    load = lambda _id, _version: match  # noqa: E731
    after_slip = SimpleNamespace(**{**vars(match), "state": rules.apply(start, SLIP)})
    bens = _taps(steps.asking(lambda *_: after_slip, "m", 1, []))  # the slip's next question

    picks, said = steps.tap_answer(load, "m", 2, [], bens["a large sand pile from the supply"])
    assert picks == [["piece", "supply:large"]] and said == ""
    again, said = steps.tap_answer(load, "m", 2, picks, bens["a large sand pile from the supply"])
    assert again is None and said is None  # drawn for no answer; one is given now
    refused, said = steps.tap_answer(load, "m", 2, [], bens["b2: small pile"])
    assert refused is None and said  # the undone pile is not on the board: why, in words

    chips = _taps(steps.asking(load, "m", 2, picks))
    chip = next(words for words in chips if words.startswith("✕"))
    assert steps.tap_answer(load, "m", 2, picks, chips[chip]) == ([], None)
    assert steps.tap_answer(load, "m", 2, [], chips[chip]) == (None, None)  # nothing to take
