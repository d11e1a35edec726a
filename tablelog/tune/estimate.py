"""Before a study starts: how fast the game plays here, what the study may cost, and the base
variant's match length (the reference of the `length` objective)."""

from __future__ import annotations

import time

from .measure import Tally, tally
from .settings import Settings
from .space import Space, base_params, candidate

SAMPLE = 6  # matches per player count timed before a study
HOURS = 1.0  # a study that may take longer than this asks for --yes


def most_matches(settings: Settings) -> int:
    """The most matches the study can spend: every candidate to the last rung (or the budget),
    and the confirmation."""
    search = settings.trials * settings.top * len(settings.players)
    if settings.budget is not None:
        search = min(search, settings.budget)
    confirmation = len(settings.confirm_seeds) * settings.rule.matches * len(settings.players)
    return search + confirmation


def measured(settings: Settings) -> tuple[float, dict[str, float], int]:
    """(matches a second, the base's mean length per count when `length` is asked for, matches
    played to find them). Timed on the base variant, screening seed, from match 0."""
    space = Space.from_json(settings.space)
    base = candidate(space, base_params(space) or {})
    played, started = 0, time.perf_counter()
    lengths: dict[str, float] = {}
    sample = settings.rungs[0] if "length" in settings.also else SAMPLE
    for players in settings.players:
        t: Tally = tally(
            settings.game, players, settings.bots, settings.seed, base, range(sample),
            ("length",) if "length" in settings.also else (),
        )  # fmt: skip
        played += t.matches
        if "length" in settings.also:
            lengths[str(players)] = t.mean("length")
    rate = played / max(1e-9, time.perf_counter() - started)
    return rate, lengths, played


def duration_words(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 5400:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"
