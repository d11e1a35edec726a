"""Agents of graded strength, named the way an experiment writes them.

An agent spec is a bot name, optionally restricted:

    random | greedy | mcts-N            N = iterations per decision (mcts-1, mcts-64, ...)
    SPEC+RESTRICTION                    e.g. random+never-place-swan, mcts-16+never-play-red

Every agent is a bot of domain/agents/bots.py's shape, `(rules, state, seat, rng) -> move`, so the
simulation's machinery plays it unchanged; `random` and `greedy` are that module's own bots.
"""

from __future__ import annotations

import re

from tablelog.domain.agents.bots import BOTS, Bot
from tablelog.domain.errors import Refused
from tablelog.domain.quoting import quoted
from tablelog.domain.restrictions import get_restriction, restricted

from .mcts import MCTS

MCTS_SPEC = re.compile(r"mcts-([1-9][0-9]{0,5})")


def make_agent(game: str, spec: str) -> Bot:
    """The bot an agent spec names for `game`, or a one-line Refused saying what is wrong."""
    name, plus, restriction = spec.strip().partition("+")
    bot = _base(name)
    return restricted(bot, get_restriction(game, restriction)) if plus else bot


def _base(name: str) -> Bot:
    if name in BOTS:
        return BOTS[name]
    found = MCTS_SPEC.fullmatch(name)
    if found:
        return MCTS(int(found.group(1)))
    raise Refused(
        f"unknown agent {quoted(name)}: random, greedy or mcts-N (N iterations, 1-999999), "
        "optionally +RESTRICTION"
    )


def check_agent(game: str, spec: str) -> str:
    make_agent(game, spec)
    return spec.strip()


__all__ = ["MCTS", "check_agent", "make_agent"]
