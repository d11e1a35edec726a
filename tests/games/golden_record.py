"""Golden data: what the engines answer on seeded matches, recorded once and compared exactly.

Each rule has one implementation, in the engine; these recordings guard it instead of a second,
"plain" copy of the code. A rule changed on purpose (an erratum) shows as a reviewed diff of
`tests/games/golden/<game>.json`, written by `scripts/golden_games.py`.

Per match (seeded; every player count and variant whose play differs): the moves the engine's
random draw played, and per position the state, whose turn it is, each awaited seat's legal
choices (counted, and their listing as a digest), the totals and every seat's `evaluate`, and
what `apply` answers to a few moves tried there besides the one played (moves of the match
played elsewhere, and the move played with a value taken from another: mostly refused, and the
refusal's words are recorded; these guard the quick readings of a well-formed move against the
full parser's). At the end: the scores in full, the outcome, the component rows, and digests of
the moves described and of the final board drawn.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablelog.domain.games import GAMES, RulesError

FOLDER = Path(__file__).parent / "golden"
SEATS = ("Ann", "Bo", "Cy", "Di")


def digest(value: Any) -> str:
    """A short fingerprint of a JSON value (a listing hundreds of moves long stays one line)."""
    text = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _hidden_topiary(setup: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A Topiary deal as a record that saw only part of it (c3 is face up, so always named)."""
    garden = {c: t for c, t in setup["garden"].items() if c == "c3" or rng.random() < 0.6}
    hands = [[t for t in hand if rng.random() < 0.6] for hand in setup["hands"]]
    return {**setup, "garden": garden, "hands": hands}


def _logged_topas(setup: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A Topas match logged at the table: only the start card known."""
    return {"start": setup["start"]}


@dataclass(frozen=True)
class Variant:
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    hide: Callable[[dict[str, Any], random.Random], dict[str, Any]] | None = None
    matches: int = 8
    listed_every: int = 1  # list the legal choices at every n-th position (Topas' are slow)
    only_listed: bool = False  # record only those positions (GeoShapes' matches run long)


VARIANTS: dict[str, list[Variant]] = {
    "topiary": [
        Variant(players, {"last_player_chooses": chooses}, hide)
        for players in (2, 3, 4)
        for chooses in (False, True)
        for hide in (None, _hidden_topiary)
    ],
    "total-landscaping": [
        Variant(2, {}, matches=12),
        Variant(2, {"hoeing": "after-effects"}, matches=12),
    ],
    "topas": [
        Variant(players, {"expert": expert}, hide, matches=3, listed_every=4)
        for players in (1, 2, 3, 4)
        for expert in (False, True)
        for hide in (None, _logged_topas)
    ],
    "geoshapes": [
        Variant(players, options, matches=1, listed_every=4, only_listed=True)
        for players in (2, 3, 4)
        for options in (
            {},
            {"placing_optional": True},
            {"empty_deck": "end"},
            {"half_board": True},
        )
        if players == 2 or not options.get("half_board")
    ],
    "topitop": [Variant(2, {}, matches=24)],
}


def _answer(ask: Callable[..., Any], *args: Any) -> Any:
    """What the engine answers, or the kind of its refusal."""
    try:
        return ask(*args)
    except RulesError as refused:
        return type(refused).__name__


def _applied(rules: Any, state: Any, move: Any) -> str:
    """What `apply` answers to `move`: the state it gives (a digest), or its refusal in words."""
    try:
        return digest(rules.encode(rules.apply(state, move)))
    except RulesError as refused:
        return f"{type(refused).__name__}: {refused}"


def _tried_answers(positions: list[dict[str, Any]]) -> list[str]:
    """Every answer to a tried move, once each, in order (the positions keep a digest of
    theirs): the refusals' words read in full in a review of the data, at little size."""
    seen: dict[str, None] = {}
    for position in positions:
        seen.update(dict.fromkeys(position["tried"]))
        position["tried"] = digest(position["tried"])
    return list(seen)


def _tried(played: list[dict[str, Any]], upcoming: dict[str, Any], rng: random.Random) -> list[Any]:
    """A few moves to try besides the one played: two played earlier in the match, and the
    move played with one value swapped for the value an earlier move gave the same key."""
    tried: list[Any] = rng.sample(played, min(2, len(played)))
    donors = [m for m in played if set(m) & set(upcoming)]
    if donors:
        donor = rng.choice(donors)
        key = rng.choice(sorted(set(donor) & set(upcoming)))
        tried.append({**upcoming, key: donor[key]})
    return tried


def _position(
    rules: Any, state: Any, players: int, listed: bool, tried: Sequence[Any] = ()
) -> dict[str, Any]:
    to_move = rules.to_move(state)
    choices = {str(seat): _answer(rules.choices, state, seat) for seat in to_move if listed}
    return {
        "tried": [_applied(rules, state, move) for move in tried],
        "state": digest(rules.encode(state)),
        "to_move": list(to_move),
        "choices": {
            seat: [len(listed), digest(listed)] if isinstance(listed, list) else listed
            for seat, listed in choices.items()
        },
        "totals": _answer(rules.totals, state),
        "evaluate": [_answer(rules.evaluate, state, seat) for seat in range(players)],
    }


def _next_move(rules: Any, state: Any, rng: random.Random) -> dict[str, Any]:
    if getattr(state, "awaiting_start", False):  # a logged Topas game names its start cards
        return {"start": rules.playable(state)[rng.randrange(5)]}
    return dict(rules.random_move(state, rng))


def _component_rows(rows: list[list[Any]]) -> list[list[list[Any]]]:
    return [
        [[r.kind, r.component, r.number, None if math.isnan(r.points) else r.points] for r in seat]
        for seat in rows
    ]


def play(game: str, variant: Variant, seed: int) -> dict[str, Any]:
    """One seeded match, recorded."""
    rules, rng = GAMES[game], random.Random(seed)
    trials = random.Random(-seed)  # the tried moves' own draws: the match's draws are its own
    options = rules.options(variant.options)
    setup = rules.deal(variant.players, options, rng)
    if variant.hide is not None:
        setup = variant.hide(setup, rng)
    state = rules.start(variant.players, options, setup)
    positions: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    while rules.outcome(state) is None and len(moves) < (rules.move_cap or 600):
        listed = len(moves) % variant.listed_every == 0
        move = _next_move(rules, state, rng)
        tried = _tried(moves, move, trials) if listed else []
        if listed or not variant.only_listed:
            positions.append(_position(rules, state, variant.players, listed, tried))
        moves.append(move)
        state = rules.apply(state, move)
    positions.append(_position(rules, state, variant.players, True))
    tried_answers = _tried_answers(positions)
    scores = _answer(rules.score, state)
    played = list(enumerate(moves, start=1))
    outcome = rules.outcome(state)
    seats = SEATS[: variant.players]
    return {
        "seed": seed,
        "players": variant.players,
        "options": variant.options,
        "hidden": variant.hide is not None,
        "moves": moves,
        "positions": positions,
        "tried": tried_answers,
        "score": scores,
        "outcome": outcome.to_json() if outcome else None,
        "components": _component_rows(rules.components(state, scores, played))
        if isinstance(scores, list)
        else None,
        "described": digest([rules.describe(move, seats) for move in moves]),
        "board": digest(rules.render(state, seats)),
    }


def matches(game: str) -> Iterator[dict[str, Any]]:
    """Every recorded match of `game`, in order."""
    seed = 0
    for variant in VARIANTS[game]:
        for _ in range(variant.matches):
            seed += 1
            yield play(game, variant, seed)


def path(game: str) -> Path:
    return FOLDER / f"{game}.json"


def write(game: str) -> Path:
    """Record `game`'s golden data from today's engine (scripts/golden_games.py)."""
    FOLDER.mkdir(exist_ok=True)
    target = path(game)
    lines = [json.dumps(match, sort_keys=True, default=str) for match in matches(game)]
    target.write_text("[\n" + ",\n".join(lines) + "\n]\n")
    return target
