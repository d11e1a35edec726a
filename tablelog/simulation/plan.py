"""What a simulation run plays, and the names of its matches.

A `Plan` is the run's arguments, checked (`make_plan`): game, seats' bots, options, seed, how
many matches. Match number k of a run with seed s draws everything random (the deal, every bot's
decision) from its own generator seeded by (s, k) (`match_rng`), so which worker plays it, and
when, changes nothing. Its id is a function of the run's arguments and k (`match_id`): the same
run is the same matches, so running a command again (after a Ctrl-C, a kill, a lost machine)
finds the matches already stored (`tablelog.simulation.stored`) and plays and stores only the
others. The ids are stored: what names them (`Plan.id_space`) never changes.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID, uuid5

from tablelog.domain.agents.bots import BOTS
from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules
from tablelog.domain.plain import PlainMapping
from tablelog.domain.quoting import quoted
from tablelog.domain.wording import player_count_refusal

# Every game ends by its rules, except where bots can go round in circles: Topitop declares its
# cap (`playout_cap`, 200 actions); any other game still running after RUNAWAY moves is also
# ended as a draw by agreement, and the run's summary counts such matches.
RUNAWAY = 2_000
# The most matches one run plays: its job list and id checks are held in memory (about 100 MB
# a million); a larger study is several runs with different seeds.
MAX_MATCHES = 1_000_000
# Simulated matches' ids are uuid5 names in this space (see `match_id`).
SIMULATED = UUID("6a0d3a52-7a3c-5d1e-9b8e-74626c6c6f67")


class SimulationError(Refused):
    """A simulation asked for something that cannot be played (the message says what)."""


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a simulation run plays: `matches` matches of `game`, one bot per seat."""

    game: str
    matches: int
    seed: int
    bots: tuple[str, ...]  # the bot of each seat, in turn order
    options: PlainMapping = dataclasses.field(default_factory=dict)
    # A manifest handed over whole ({"name", "content"}: a tuner's candidate board, a file), in
    # place of the one `options` names; `options["manifest"]` is then its `sha256:` reference.
    components: PlainMapping | None = None

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def seats(self) -> list[str]:
        """Seat names say which bot plays where: "greedy-1", "random-2"..."""
        return [f"{bot}-{number}" for number, bot in enumerate(self.bots, start=1)]

    @functools.cached_property
    def id_space(self) -> UUID:
        """What names the plan's matches: its game, seed, bots (so the player count) and
        options (defaults filled in by `make_plan`), not how many matches it plays: match k is
        the same match whatever -n is."""
        what = {"game": self.game, "seed": self.seed, "bots": self.bots, "options": self.options}
        # options["manifest"] is the content's hash when components are handed over
        return uuid5(SIMULATED, json.dumps(what, sort_keys=True, default=str))


def make_plan(
    game: str,
    matches: int,
    seed: int,
    players: int | None = None,
    bots: str | Sequence[str] = "random",
    options: PlainMapping | None = None,
    components: PlainMapping | None = None,
) -> Plan:
    """A checked Plan, or a one-line Refused/InvalidSetup naming what is wrong.

    `bots` is one bot for every seat or one per seat ("greedy,random"); `players` defaults to
    the number of bots given per seat, else 2 (or the game's only count). `components` is a
    manifest handed over whole ({"name", "content"}), played in place of a named one."""
    rules = get_rules(game)
    if not 1 <= matches <= MAX_MATCHES:
        raise SimulationError(
            f"-n, the number of matches, must be 1 to {MAX_MATCHES:,} (a larger study is several "
            f"runs with different seeds), got {matches}"
        )
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    unknown = [b for b in names if b not in BOTS]
    if unknown or not names:
        raise SimulationError(
            f"unknown bot {quoted((unknown or [''])[0])}; bots: {', '.join(BOTS)}"
        )
    if players is None:
        players = (
            len(names) if len(names) > 1 else min(max(2, rules.min_players), rules.max_players)
        )
    refusal = player_count_refusal(rules, players)
    if refusal:
        raise SimulationError(refusal)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SimulationError(
            f"give one bot for every seat or one per seat: {len(names)} bots for {players} players"
        )
    options = dict(options or {})
    if components is not None:
        options["manifest"] = handed_over(components)
    return Plan(game, matches, seed, tuple(names), rules.options(options), components)


def handed_over(components: Mapping[str, Any]) -> str:
    """The `sha256:` reference of a manifest handed over whole, made known in this process (a
    worker's too: every match registers it again, which costs a dictionary look-up)."""
    from tablelog.domain.games.manifests import embed, register

    return register(embed(components["name"], components["content"]))


def match_rng(seed: int, number: int) -> random.Random:
    """The generator of match `number` of the run seeded `seed` (string seeds hash the same in
    every process, unlike hash())."""
    return random.Random(f"tablelog-simulate:{seed}:{number}")


def move_cap(game: str) -> int:
    """How many moves a simulated match of `game` may take before it is drawn by agreement."""
    return get_rules(game).playout_cap or RUNAWAY


def match_id(plan: Plan, number: int) -> UUID:
    """The id of match `number` of the plan: the same in whichever process plays it and in
    every run of the same arguments, so a match stored once (by a run cut short, or by a
    cluster's task that Dask ran again) is recognised in the store, never stored twice."""
    return uuid5(plan.id_space, str(number))
