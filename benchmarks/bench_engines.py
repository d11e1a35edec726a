"""Each engine's random-playout speed, and Topitop's move-generation count (perft) with its time.

Per game, seeded random games are played until a fixed number of moves has been applied:
- "with legal_moves": each move lists the legal moves (in Total Landscaping, both seats'
  choices), then draws one with `random_move` and applies it (what a player-facing tool or the
  greedy bot pays);
- "random_move": each move is drawn with `random_move` and applied (what a random bot pays).
No baseline: the plain listings the rows were once compared with were a second implementation of
each game's rules, removed with issue 43 (golden data guards the engines now). The figures are
compared across commits instead, alternating before and after on the same machine
(benchmarks/RESULTS.md).

Topitop perft: the number of action sequences of depth 5 from the start, counted by the fast
generator (`topitop/perft.py`); the baseline is the walk through `legal_moves` + `apply` to
depth 3, timed, and scaled by the count (the walk to depth 5 would take minutes).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from tablelog.domain.games import GAMES, GameRules, manifests
from tablelog.domain.games.topitop.perft import perft

from .harness import Result, best_of

Step = Callable[[GameRules, Any, random.Random], Any]  # the next position


def listing_step(rules: GameRules, state: Any, rng: random.Random) -> Any:
    if rules.simultaneous:
        for seat in rules.to_move(state):
            rules.choices(state, seat)
    else:
        rules.legal_moves(state)
    return rules.apply(state, rules.random_move(state, rng))


def random_step(rules: GameRules, state: Any, rng: random.Random) -> Any:
    return rules.apply(state, rules.random_move(state, rng))


def match_options(rules: GameRules) -> dict[str, Any]:
    """The default options as a recorded match plays them: its manifest registered by content
    (`domain.matches.match.initial_state`), so that no move looks a file up by name."""
    options = rules.options({})
    name = options.get("manifest")
    if name is None:
        return options
    return {**options, "manifest": manifests.register(manifests.embed(name, manifests.find(name)))}


def playouts(rules: GameRules, moves: int, step: Step) -> int:
    """Seeded random games, played with `step`, until `moves` moves are applied."""
    applied, seed = 0, 0
    while applied < moves:
        seed += 1
        rng = random.Random(seed)
        options = match_options(rules)
        state = rules.start(2, options, rules.deal(2, options, rng))
        for _ in range(rules.playout_cap or 2000):
            if applied == moves or rules.outcome(state) is not None:
                break
            state = step(rules, state, rng)
            applied += 1
    return applied


def playout_rows(quick: bool) -> list[Result]:
    moves = 150 if quick else 400
    steps: dict[str, Step] = {
        "with legal_moves": listing_step,
        "random_move": random_step,
    }
    results = []
    for game, rules in GAMES.items():
        # Rounds of both, interleaved, the best of each kept: a burst of load from other
        # work then spoils one round of every kind rather than all of one kind.
        best = dict.fromkeys(steps, float("inf"))
        for _ in range(1 if quick else 3):
            for label, step in steps.items():
                best[label] = min(best[label], best_of(1, partial(playouts, rules, moves, step)))
        for label in ("with legal_moves", "random_move"):
            results.append(
                Result(
                    f"random playout {game}, {label}",
                    moves / best[label],
                    "moves/s",
                    None,
                    f"{moves} moves of seeded 2-player games",
                )
            )
    return results


def perft_rows(quick: bool) -> list[Result]:
    rules = GAMES["topitop"]
    start = rules.start(2, rules.options({}), {})
    depth = 4 if quick else 5
    began = time.perf_counter()
    count = perft(start, depth)
    took = time.perf_counter() - began

    def walk(state: Any, left: int) -> int:
        if left == 0:
            return 1
        return sum(walk(rules.apply(state, m), left - 1) for m in rules.legal_moves(state))

    began = time.perf_counter()
    walked = walk(start, 3)
    per_sequence = (time.perf_counter() - began) / walked
    return [
        Result(
            f"topitop perft depth {depth}",
            took,
            "s",
            per_sequence * count,
            f"{count:,} action sequences from the start; baseline: the walk through "
            f"legal_moves + apply to depth 3 ({walked:,}), timed and scaled to the count",
        )
    ]


def run(quick: bool) -> list[Result]:
    return playout_rows(quick) + perft_rows(quick)
