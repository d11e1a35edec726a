"""schemathesis against the served OpenAPI document: a few thousand generated requests, valid and
invalid, on every operation; then sequences that follow the document's links from a new match.
On a server bound beyond loopback, which asks for its write token, a quarter as many: what
differs there is the token's gate, and schemathesis checks it on every one of them (each write
is sent again without the token, and with another, and must be refused).

Every answer passes schemathesis' checks (no 5xx; the status, media type, headers and body are
what the document says; no write gets through without the token). Data that breaks the document
is refused as breaking it: 400 (or, on a path that names nothing, 404; without the token, 401 or
403), never by the recorder or the rules (422) or as a conflict (409): the server validates every
body against the schema it publishes. A move that fits the document's move of some game but not
its match's own schema (GET /matches/{match}/schema: that game's, with the match's manifest) is
a 400 as well; the legal moves posted as offered are taken. Then the store must still audit
clean: every hash chain intact, every match replays under the rules, every recorded outcome is
the rules' (only the generated claims and disputes themselves are findings: a claim of scores
the rules do not give, a dispute left open).

The store is seeded with a finished match of each game and a few running ones, and one in two
generated requests names a seeded match (by id or by prefix), so the operations on a match reach
real matches and not only 404s; some moves are drawn from the legal moves of a running match,
so matches advance, end, and are undone. The run is seeded (derandomized): it is the same run
every time.
"""

from __future__ import annotations

import itertools
import random

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.domain.games import GAMES
from tablelog.domain.integrity.audit import audit_all
from tablelog.domain.matches.records import from_record
from tests.test_recorder import OPENING, play

from .conftest import GAME_IDS, TOKEN, example

# Per operation (x 15 operations), then stateful runs: (examples, runs, the least calls made).
EXAMPLES = {"loopback": (160, 60, 2000), "network": (40, 15, 500)}
# A valid request can still be refused by the rules (an illegal move has the right shape), so
# 422 counts as an acceptable answer to positive data. Invalid data must be refused as such: a
# 400 (the others: no such match or path, no token, a body the server does not take at all).
ACCEPTED = ["2xx", "401", "403", "404", "409", "422"]
CONFIG = {
    "checks": {
        "positive_data_acceptance": {"expected-statuses": ACCEPTED},
        "negative_data_rejection": {
            "expected-statuses": ["400", "401", "403", "404", "405", "413", "415"]
        },
    },
    # The document's move is any game's; a match takes its own game's, with its manifest's
    # names (GET /matches/{match}/schema): another game's move is a 400 there.
    "operations": [
        {
            "include-operation-id": "record_move",
            "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "400"]}},
        }
    ],
}
TABLE_FINDINGS = {"claim", "dispute"}
NAMES = ["Ann", "Ben", "Cy", "Dee"]
SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def seeded(recorder) -> list[str]:
    """A finished match of each game, two running Topitop matches and an abandoned one."""
    finished = [from_record(example(game), keep_id=False) for game in GAME_IDS]
    recorder.save_new(finished)
    running = [play(recorder, OPENING), play(recorder, OPENING[:1])]
    abandoned = play(recorder, [])
    recorder.abandon(abandoned, "Ann", "the cafe closed")
    return [str(m.id) for m in finished] + [str(i) for i in [*running, abandoned]]


def legal_entries(recorder, ids: list[str]) -> list[tuple[str, dict]]:
    """(match, body) of a legal move of each running seeded match, as things stand now, as a
    person types it (the API offers it so)."""
    entries = []
    for match_id in ids:
        match = recorder.get(match_id)
        if match.status != "running" or match.rules.simultaneous:
            continue
        for seat in match.rules.to_move(match.state):
            for choice in match.rules.choices(match.state, seat)[:5]:
                shown = match.rules.shown_move(choice, match.seats)
                entries.append((match_id, {"seat": match.seats[seat], "move": shown}))
    return entries


def new_matches() -> list[dict]:
    """A valid POST /matches body for each game and player count, with a whole dealt setup."""
    bodies = []
    for game, rules in GAMES.items():
        for players in range(rules.min_players, rules.max_players + 1):
            setup = rules.deal(players, rules.options({}), random.Random(players))
            bodies.append({"game": game, "players": NAMES[:players], "setup": setup})
    return bodies


def fuzz(schema, recorder, ids: list[str], examples: int) -> int:
    """Every operation, positive and negative data, half of it on seeded matches."""
    names = ids + [i[:8] for i in ids]
    calls = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        on_match = "{match}" in operation.path
        strategies = [operation.as_strategy(mode) for mode in GenerationMode]
        if on_match:
            strategies += [
                operation.as_strategy(mode, path_parameters={"match": name})
                for mode in GenerationMode
                for name in names
            ]
        free, pinned = strategies[:2], strategies[2:]
        cases = st.one_of(*free) if not pinned else st.one_of(st.one_of(*free), st.one_of(*pinned))
        calls += fuzz_operation(operation, cases, recorder, ids, examples)
    return calls


def fuzz_operation(operation, cases, recorder, ids: list[str], examples: int) -> int:
    """One operation's examples; how many calls were made."""
    legal = operation.path.endswith("/moves") and operation.method.upper() == "POST"
    start = operation.path.endswith("/matches") and operation.method.upper() == "POST"
    calls = 0

    @settings(SETTINGS, max_examples=examples)
    @given(case=cases, data=st.data())
    def run(case, data):
        nonlocal calls
        offered = False
        if legal and data.draw(st.booleans(), label="legal move"):
            # The legal moves depend on what earlier examples recorded: draw an index, not
            # from the list, so that every example draws the same way (Hypothesis checks).
            pick = data.draw(st.integers(0, 1000), label="entry")
            choices = legal_entries(recorder, ids)
            if choices:
                match_id, body = choices[pick % len(choices)]
                case = data.draw(
                    operation.as_strategy(
                        GenerationMode.POSITIVE, path_parameters={"match": match_id}, body=body
                    )
                )
                offered = True
        if start and data.draw(st.booleans(), label="valid new match"):
            case = data.draw(
                operation.as_strategy(
                    GenerationMode.POSITIVE, body=data.draw(st.sampled_from(new_matches()))
                )
            )
        response = case.call_and_validate()
        if offered:  # a legal move, as offered: taken
            assert response.status_code == 200, (case.body, response.text)
        calls += 1

    run()
    return calls


def stateful(schema, runs: int) -> int:
    """Sequences from POST /matches along the document's links."""
    calls = 0
    bodies = itertools.cycle(new_matches())

    # schemathesis builds the state machine class from the document at run time
    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case):
            # Random names of games start nothing: most new matches here are valid ones, so the
            # links are followed to real matches.
            positive = case.meta is None or case.meta.generation.mode.is_positive
            if case.operation.path == "/api/v1/matches" and case.method == "POST" and positive:
                case.body = next(bodies)
            super().before_call(case)

        def after_call(self, response, case):
            nonlocal calls
            calls += 1
            super().after_call(response, case)

    schemathesis.stateful.run_state_machine_as_test(
        Workflow, settings=settings(SETTINGS, max_examples=runs, stateful_step_count=8)
    )
    return calls


@pytest.mark.slow
@pytest.mark.parametrize("bound", ["loopback", "network"])
def test_generated_requests_get_documented_answers_and_the_store_audits_clean(recorder, bound):
    policy = WritePolicy() if bound == "loopback" else WritePolicy.for_bind("0.0.0.0", TOKEN)
    headers = {} if policy.open else {"Authorization": f"Bearer {TOKEN}"}
    ids = seeded(recorder)
    app = create_app(recorder, policy)
    # The token goes in the configuration, so that schemathesis knows it for the real one (and
    # checks that requests without it, or with another, are refused).
    config = schemathesis.Config.from_dict({**CONFIG, "headers": headers})
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)

    examples, runs, least = EXAMPLES[bound]
    calls = fuzz(schema, recorder, ids, examples) + stateful(schema, runs)

    assert calls >= least
    report = audit_all(recorder)
    assert len(report["matches"]) > len(ids)  # generated requests started matches too
    # The generated claims write down scores the rules do not give, and generated disputes are
    # left open: the audit rightly reports both about the table. Nothing else may be found: no
    # broken chain, gap, undecodable row, replay the rules refuse, or outcome the rules deny.
    findings = [f for r in report["matches"] for f in r["findings"]]
    assert {f["kind"] for f in findings} <= TABLE_FINDINGS, findings
    assert any(r["clean"] for r in report["matches"] if r["match"] not in ids)
