"""Humans against bots: the lab's metrics over a game's recorded matches, beside the same metrics
over its bot-played matches of the same player count and variant, and the difference.

Which is which: a match all of whose seats carry the names the simulator and the lab give bots
("greedy-1", "mcts-16-2", "random+never-take-1") is a bot match; every other ended match is a
human one. Both come from the projection tables (no replay), except what the tables cannot
give: branching, and the running scores of games where a move changes another seat's score
(Topiary), which come from replaying a seeded sample of each side (`sample` matches; the report
says how many, `replayed`).
"""

from __future__ import annotations

import json
from typing import TypedDict
from uuid import UUID

import pandas as pd

from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules
from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.wording import game_name, game_variant_words, player_count_refusal
from tablelog.projections.lab_stats import compare, summary
from tablelog.projections.load import load_tables
from tablelog.projections.metrics import per_match
from tablelog.projections.traces import is_bot_match, traces_from_tables, with_replay

from .experiments import MAX_SAMPLE, check_alpha
from .report import records


class Side(TypedDict):
    """One side of the comparison: the bots' matches or the humans'."""

    name: str  # "bots" or "humans"
    matches: int
    replayed: int  # of them, replayed for the branching metrics
    metrics: list[dict[str, object]]  # `lab_stats.summary`'s rows, JSON-ready


class HumansReport(TypedDict):
    kind: str  # "humans"
    game: str
    players: int
    variant: str
    alpha: float
    arms: list[Side]
    comparison: list[dict[str, object]]  # `lab_stats.compare`'s rows (humans as B)
    words: list[str]


def humans_vs_bots(
    recorder: Recorder,
    game: str,
    players: int | None = None,
    variant: str | None = None,
    sample: int = 30,
    alpha: float = 0.05,
) -> HumansReport:
    check(game, players, sample, alpha)
    tables = load_tables(recorder, names=("matches", "moves", "scores"))
    matches = tables["matches"]
    ended = matches[(matches["game"] == game) & (matches["status"] == "ended")]
    if ended.empty:
        raise Refused(f"no ended {game} match in this store")
    bots = ended["seats"].map(lambda s: is_bot_match(json.loads(s)))
    pick = ended[~bots] if (~bots).any() else ended
    players = players or int(pick["players"].mode().iloc[0])
    variant = variant or str(pick[pick["players"] == players]["variant"].mode().iloc[0])
    chosen = ended[(ended["players"] == players) & (ended["variant"] == variant)]
    sides = {"bots": chosen[bots.loc[chosen.index]], "humans": chosen[~bots.loc[chosen.index]]}
    arms: list[Side] = []
    rows = {}
    for name, frame in sides.items():
        traces = traces_from_tables(frame, tables["moves"], tables["scores"])
        traces, replayed = with_replay(traces, lambda i: recorder.get(UUID(i)), sample)
        rows[name] = per_match(traces)
        arms.append(
            {
                "name": name,
                "matches": len(traces),
                "replayed": replayed,
                "metrics": records(summary(rows[name])) if traces else [],
            }
        )
    both = all(len(r) >= 2 for r in rows.values())
    report: HumansReport = {
        "kind": "humans",
        "game": game,
        "players": players,
        "variant": variant,
        "alpha": alpha,
        "arms": arms,
        "comparison": records(compare(rows["bots"], rows["humans"], alpha)) if both else [],
        "words": [],  # said below, from the rest
    }
    report["words"] = _words(report)
    return report


def check(game: str, players: int | None, sample: int, alpha: float = 0.05) -> None:
    """The request in one line, before the store is opened: a player count the game allows, a
    sample of 0-MAX_SAMPLE matches, a level in (0, 1)."""
    refusal = None if players is None else player_count_refusal(get_rules(game), players)
    if refusal:
        raise Refused(refusal)
    if not 0 <= sample <= MAX_SAMPLE:
        raise Refused(
            f"--sample, the matches per side replayed, must be 0-{MAX_SAMPLE}, got {sample}"
        )
    check_alpha(alpha)


def _words(report: HumansReport) -> list[str]:
    counts = {arm["name"]: arm["matches"] for arm in report["arms"]}
    words = [
        f"{game_name(report['game'])}, {report['players']} players, "
        f"{game_variant_words(report['game'], report['variant'])}: "
        f"{counts['humans']} recorded human matches beside {counts['bots']} bot matches."
    ]
    if not report["comparison"]:
        words.append("Too few matches on one side to compare (2 or more each are needed).")
        return words
    for r in report["comparison"]:
        if r["real"]:
            words.append(
                f"Real: humans' {r['label']} is {r['b']:.3g} against the bots' "
                f"{r['a']:.3g} (difference {r['difference']:+.3g}, 95% CI "
                f"{r['low']:+.3g} to {r['high']:+.3g}, Holm p = {r['p_holm']:.3g})."
            )
    if not any(r["real"] for r in report["comparison"]):
        words.append("No real difference between humans and bots at this n.")
    return words


def frame_of(report: HumansReport) -> pd.DataFrame:
    """Every arm's metrics as one long table (arm, metric, estimate, low, high, n)."""
    return pd.DataFrame(
        [{"arm": arm["name"], **m} for arm in report["arms"] for m in arm["metrics"]]
    )
