"""Property tests: recorded legal moves replay to equal states; junk never reaches the store."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.domain.errors import Refused
from tablelog.domain.games import GAMES, RulesError
from tablelog.domain.matches.match import initial_state
from tablelog.store import open_recorder
from tests.conftest import stored_rows

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(0, 40),
    undo_every=st.integers(3, 9),
)
def test_recorded_legal_moves_replay_to_equal_states_at_every_step(
    tmp_path_factory, game, seed, length, undo_every
):
    rules, rng = GAMES[game], random.Random(seed)
    players = rng.randint(rules.min_players, rules.max_players)
    options = rules.options({})
    setup = rules.deal(players, options, rng)
    store = str(tmp_path_factory.mktemp("p") / "s.sqlite")
    recorder = open_recorder(store)
    match_id = recorder.start(game, [f"P{i}" for i in range(players)], options, setup)
    # The state after each step; the match plays with the components it embedded.
    components = recorder.get(match_id).components
    expected = [initial_state(rules, players, rules.version, options, setup, components)]
    states = [expected[0]]  # the effective line of play
    for n in range(length):
        state = states[-1]
        if rules.outcome(state) is not None:
            break
        if n % undo_every == undo_every - 1 and len(states) > 1:
            recorder.undo(match_id, "P0", "property test")
            states.pop()
        else:
            move = rules.random_move(state, rng)
            recorder.record(match_id, rules.to_move(state)[0], move)
            states.append(rules.apply(state, move))
        expected.append(states[-1])
    fresh = open_recorder(store)
    for step, state in enumerate(expected):
        assert fresh.get(match_id, step).state == state


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@SETTINGS
@given(game=st.sampled_from(sorted(GAMES)), junk=JSONISH)
def test_junk_moves_are_refused_with_a_reason_and_store_nothing(tmp_path_factory, game, junk):
    rules = GAMES[game]
    store = str(tmp_path_factory.mktemp("j") / "s.sqlite")
    recorder = open_recorder(store)
    setup = rules.deal(rules.min_players, rules.options({}), random.Random(0))
    match_id = recorder.start(game, [f"P{i}" for i in range(rules.min_players)], {}, setup)
    state = recorder.get(match_id).state
    if junk in [m for m in rules.legal_moves(state)] if not rules.simultaneous else False:
        return  # hypothesis found a legal move: not junk
    before = stored_rows(store)
    seat = rules.to_move(state)[0]
    try:
        recorder.record(match_id, seat, junk)
    except (Refused, RulesError) as err:
        assert str(err).strip()
    else:
        raise AssertionError(f"{game} accepted {junk!r}")
    assert stored_rows(store) == before
