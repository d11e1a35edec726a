"""The fast catch-up writes the tables a plain one would: one catch-up over the whole store, one
page of a few events at a time, one match at a time and the library's runner (PostgreSQL) give
the same rows, byte for byte as stored; and the tables' JSON text is `json.dumps`'s spelling,
whatever the value."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games import GAMES, get_rules
from tablelog.projections.projector import (
    _json,
    _kind,
    _move_cells,
    _variant,
    variant_text,
)
from tablelog.projections.runner import TablesProjection
from tablelog.projections.tables import STORED
from tablelog.store import open_recorder
from tests.projections.matches import random_match
from tests.projections.test_projection import NAMES, some_matches
from tests.test_recorder import OPENING, play

JSON_TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["a:b", "x, y", '"', "\\", "1.5", "e3:NW", "tab\there", "1e-07", "\u2028", "é", "[1,2]"]
)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=2000, deadline=None)
@given(JSON_VALUES)
def test_the_tables_spell_json_as_json_dumps_does(value: Any) -> None:
    expected = json.dumps(value, ensure_ascii=False)
    assert _json(value) == expected
    assert _move_cells("topitop", None, value)[0] == expected
    assert _move_cells("topitop", None, value)[0] == expected  # remembered, the same


@settings(max_examples=1000, deadline=None)
@given(
    st.sampled_from(sorted(GAMES)),
    st.booleans(),
    JSON_VALUES
    | st.dictionaries(
        st.sampled_from(["place", "take", "visitor", "draw", "start", "E", "W", "pass"]),
        JSON_VALUES,
    ),
)
def test_a_moves_text_and_kind_remembered_are_worked_out_afresh(game, gone, move) -> None:
    rules = None if gone else get_rules(game)
    expected = (json.dumps(move, ensure_ascii=False), _kind(rules, move))
    assert _move_cells(game, rules, move) == expected
    assert _move_cells(game, rules, move) == expected  # remembered, the same


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(JSON_TEXT, JSON_VALUES, max_size=4))
def test_a_variant_is_named_the_same_remembered_or_not(options: dict[str, Any]) -> None:
    assert _variant(options) == variant_text(options)
    assert _variant(dict(reversed(options.items()))) == variant_text(options)


def stored_rows(projection: TablesProjection) -> dict[str, list[tuple]]:
    """Every table's rows as the database holds them (types and text exactly), in key order."""
    rows = {}
    for name, table in STORED.items():
        rows[name] = sorted(
            (tuple(row[c] for c in table.names) for row in projection.view.select(name)),
            key=lambda row: tuple(map(repr, row)),
        )
    return rows


def fresh(store: str, page: int = 5000) -> TablesProjection:
    projection = TablesProjection(open_recorder(store), page=page)
    projection.reset()
    return projection


def test_catch_up_at_once_by_pages_and_by_match_write_the_same_rows(any_recorder, any_store):
    recorder, store = any_recorder, any_store
    rng = random.Random(24)
    by_match = TablesProjection(recorder, page=3, capacity=3)
    for match in some_matches(rng) + some_matches(rng):
        recorder.save_new([match])
        by_match.catch_up()  # each match as it is saved (a dashboard polling)
    running = play(recorder, OPENING[:3])
    by_match.catch_up()
    recorder.undo(running, "Ann", "wrong cell")
    recorder.dispute(running, "Ben", "who moved first?")
    by_match.catch_up()

    at_once = fresh(store)
    at_once.catch_up()
    expected = stored_rows(at_once)
    assert len(expected["moves"]) > 500 and len(expected["ratings"]) > 20
    assert stored_rows(by_match) == expected
    for page in (1, 7, 64):
        by_pages = fresh(store, page)
        by_pages.catch_up()
        assert stored_rows(by_pages) == expected, f"pages of {page}"


def test_the_library_runner_writes_what_the_polling_catch_up_writes(postgres_store):
    from tablelog.projections.postgres import LiveTables, follow

    recorder = open_recorder(postgres_store)
    recorder.save_new(some_matches(random.Random(25)))
    head = recorder.recorder.max_notification_id() or 0
    polling = fresh(postgres_store)
    polling.catch_up()
    expected = stored_rows(polling)
    polling.reset()
    default = LiveTables.batch
    LiveTables.batch = 9  # several writes, each on the last one's position
    try:
        with follow(recorder) as runner:
            runner.wait(head, timeout=60)
    finally:
        LiveTables.batch = default
    assert stored_rows(polling) == expected
    recorder.close()


@pytest.mark.parametrize("game", ["topitop", "topiary", "topas"])
def test_a_new_match_alone_writes_what_a_catch_up_over_everything_writes(any_store, game):
    recorder = open_recorder(any_store)
    rng = random.Random(26)
    recorder.save_new(some_matches(rng))
    live = TablesProjection(recorder)
    live.catch_up()
    recorder.save_new([random_match(game, NAMES[:2], rng, cap=30)])
    assert live.catch_up() > 2
    incremental = stored_rows(live)
    again = fresh(any_store)
    again.catch_up()
    assert stored_rows(again) == incremental
    recorder.close()


class _NoRatingsYet:
    def latest_rating(self, game: str, player: str) -> None:
        return None


def test_ratings_are_openskills_figures_for_the_same_matches_in_order():
    """The projection lets openskill rate its own ratings in place (no defensive copy): every
    figure must still be what `rate` gives on copies, match after match."""
    from openskill.models import PlackettLuce

    from tablelog.projections.ratings import Ratings

    rng = random.Random(27)
    ratings, model = Ratings(_NoRatingsYet()), PlackettLuce()  # type: ignore[arg-type]
    plain: dict[str, Any] = {}
    for number in range(300):
        seats = rng.sample(NAMES, rng.randint(2, 4))
        places = [rng.randint(0, len(seats) - 1) for _ in seats]  # ties included
        ranking = [[s for s, p in enumerate(places) if p == place] for place in sorted(set(places))]
        rows = ratings.rate("topas", f"m{number}", seats, ranking, "2026-12-01T00:00:00+00:00")
        ranks: list[float] = [
            float(next(n for n, group in enumerate(ranking) if s in group))
            for s in range(len(seats))
        ]
        teams = [[plain.get(name) or model.rating(name=name)] for name in seats]
        for name, (rating,) in zip(seats, model.rate(teams, ranks=ranks)):
            plain[name] = rating
        assert [(row["player"], row["mu"], row["sigma"]) for row in rows] == [
            (name, plain[name].mu, plain[name].sigma) for name in seats
        ]
