"""One simulated match, played in memory: seeded bots play it through the recorder's own commands.

Every match is built in memory as a `Match` through the command methods a person's entries go
through (`start_match`, `record`, `end`), so each move is validated by the rules and chained by
hash exactly as if it had been typed; `played` turns its events into the rows a store takes, and
`packed` into what crosses between processes.
"""

from __future__ import annotations

import random
from typing import NamedTuple
from uuid import UUID, uuid4

from eventsourcing.persistence import Mapper

from tablelog.domain.agents.bots import BOTS, next_move
from tablelog.domain.games import get_rules
from tablelog.domain.matches.match import Match, start_match
from tablelog.domain.recording.eventsourcing_internals import MappedMatch

from .plan import Plan, handed_over, match_rng, move_cap


def begin_match(plan: Plan, number: int, id: UUID | None = None) -> tuple[Match, random.Random]:
    """Match `number` of the plan, dealt and started in memory, and its generator."""
    rules = get_rules(plan.game)
    rng = match_rng(plan.seed, number)
    options, components = dict(plan.options), plan.components
    if components is not None:
        handed_over(components)  # a worker process learns the content from the plan
        options["manifest"] = components["name"]  # as `tablelog new --manifest-file` stores it
    setup = rules.deal(plan.players, plan.options, rng)  # the whole deal goes into Started
    match = start_match(id or uuid4(), plan.game, plan.seats, options, setup, components=components)
    return match, rng


def play_on(match: Match, plan: Plan, rng: random.Random, moves: int) -> None:
    """Up to `moves` more moves by the plan's bots, each recorded like a person's entry (the
    rules check it, the hash chain takes it); fewer if the game ends first."""
    rules = match.rules
    bots = [BOTS[name] for name in plan.bots]
    for _ in range(moves):
        if rules.outcome(match.state) is not None:
            return
        seat, move = next_move(rules, match.state, bots, rng)
        match.record(seat, move)


def play_match(plan: Plan, number: int, id: UUID | None = None) -> Match:
    """Match `number` of the plan, played to its end and ended, in memory (nothing stored)."""
    match, rng = begin_match(plan, number, id)
    play_on(match, plan, rng, move_cap(plan.game))
    match.end(agreed_draw=match.rules_outcome() is None)  # at the cap: a draw by agreement
    return match


class Played(NamedTuple):
    """A finished match: its rows, ready to insert, and its result."""

    rows: MappedMatch
    winners: tuple[int, ...]
    capped: bool

    @property
    def events(self) -> int:
        return len(self.rows.topics)


class Tally(NamedTuple):
    """What a run counts of a match stored by someone else (a cluster's worker)."""

    events: int
    winners: tuple[int, ...]
    capped: bool


# A played match as it crosses between processes: its id's bytes, first version, topics and
# states. Pickling plain bytes and strings costs a fraction of pickling StoredEvents and UUIDs
# (measured: 4x less CPU at both ends), which a run with workers pays for every event.
Packed = tuple[bytes, int, list[str], list[bytes], tuple[int, ...], bool]


def packed(match: Played) -> Packed:
    id, version, topics, states = match.rows
    assert isinstance(id, UUID)  # the mapper's rows carry the aggregate's own UUID
    return id.bytes, version, topics, states, *match[1:]


def unpacked(wire: Packed) -> Played:
    id_bytes, version, topics, states, winners, capped = wire
    return Played(MappedMatch(UUID(bytes=id_bytes), version, topics, states), winners, capped)


def played(plan: Plan, number: int, mapper: Mapper, id: UUID | None = None) -> Played:
    match = play_match(plan, number, id)
    rows = MappedMatch.of([mapper.to_stored_event(event) for event in match.collect_events()])
    outcome = match.outcome
    assert outcome is not None  # play_match plays every match to its end
    return Played(rows, tuple(outcome["winners"]), outcome["reason"] == "draw by agreement")
