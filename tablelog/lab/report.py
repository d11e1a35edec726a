"""An experiment's report: per arm every metric with its n and interval, the comparison of the
arms (variants), the head-to-head result (restriction, skill), and the findings in words.

The report is plain JSON (NaN becomes null) so it is stored in the experiment's row, served by
the API and drawn by the Lab page as it is; the same traces always give the same report (the
bootstraps are seeded).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd

from tablelog.domain.restrictions import get_restriction
from tablelog.domain.wording import game_option_words
from tablelog.projections.lab_stats import compare, head_to_head, skill_trace, summary
from tablelog.projections.metrics import per_match, utilities
from tablelog.projections.traces import Trace

from .experiments import Arm, Definition


def plain(value: object) -> Any:
    """JSON-ready: NaN to None, numpy numbers to Python's."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def records(frame: pd.DataFrame) -> list[dict[str, object]]:
    return [plain(row) for row in frame.to_dict("records")]


def report_of(definition: Definition, traces: Sequence[Sequence[Trace]]) -> dict[str, Any]:
    arms = []
    rows = [per_match(t) for t in traces]
    for arm, arm_traces, arm_rows in zip(definition.arms, traces, rows):
        entry: dict[str, Any] = {
            "name": arm.name,
            "options": dict(arm.options),
            "agents": list(arm.agents),
            "matches": len(arm_traces),
            "metrics": records(summary(arm_rows)),
        }
        if arm.rotate:
            entry["head_to_head"] = plain(_head_to_head(arm, arm_traces))
        arms.append(entry)
    report: dict[str, Any] = {
        "kind": definition.kind,
        "game": definition.game,
        "players": definition.players,
        "alpha": definition.alpha,
        "arms": arms,
    }
    if definition.kind == "variants" and len(rows) == 2:
        report["comparison"] = records(compare(rows[0], rows[1], definition.alpha))
    if definition.kind == "skill":
        steps = [arm["head_to_head"]["utility"] for arm in arms]
        report["skill_trace"] = plain(skill_trace(steps))
    report["words"] = in_words(definition, report)
    return report


def _head_to_head(arm: Arm, traces: Sequence[Trace]) -> dict[str, object]:
    """The focal agent (agents[0]) sits in seat k % players in match k."""
    wins = losses = draws = 0
    shared = 0.0  # winners / players summed over decided matches: the fair rate's numerator
    utility = 0.0  # the focal agent's Ludii utility, summed (for Ludii's skill trace)
    for number, trace in enumerate(traces):
        focal = number % trace.players
        utility += utilities(trace)[focal]
        if not trace.winners:
            draws += 1
            continue
        shared += len(trace.winners) / trace.players
        if focal in trace.winners:
            wins += 1
        else:
            losses += 1
    players = len(arm.agents)
    mean = utility / len(traces) if traces else math.nan
    return head_to_head(wins, losses, draws, players, shared) | {
        "agent": arm.agents[0],
        "utility": mean,
    }


def in_words(definition: Definition, report: dict[str, Any]) -> list[str]:
    if definition.kind == "variants":
        return _variant_words(definition, report)
    if definition.kind == "restriction":
        return [_restriction_words(definition, report["arms"][0])]
    return _skill_words(definition, report)


def _variant_words(definition: Definition, report: dict[str, Any]) -> list[str]:
    # Each arm's variant in the game's words, as every screen says it ("expert", "standard
    # rules"): never the options' keys or values as a program writes them.
    a, b = (game_option_words(definition.game, arm["options"]) for arm in report["arms"])
    rows = report.get("comparison", [])
    real = [r for r in rows if r["real"]]
    words = [
        f"B ({b}) against A ({a}); {definition.matches} matches per arm, "
        f"Holm-adjusted tests at the {definition.alpha:.0%} level."
    ]
    for r in real:
        words.append(
            f"Real: {r['label']} is {'higher' if r['difference'] > 0 else 'lower'} in "
            f"B ({r['b']:.3g} vs {r['a']:.3g}; difference {r['difference']:+.3g}, "
            f"95% CI {r['low']:+.3g} to {r['high']:+.3g}; Holm p = {r['p_holm']:.3g})."
        )
    others = [r["label"].split(" (")[0] for r in rows if not r["real"] and not r["no_variation"]]
    if others:
        words.append("No real difference (at this n) in: " + ", ".join(others) + ".")
    same = [r["label"].split(" (")[0] for r in rows if r["no_variation"]]
    if same:
        words.append(
            "No variation (one value in every match of both arms; not tested, not counted "
            "in the Holm adjustment): " + ", ".join(same) + "."
        )
    return words


def _restriction_words(definition: Definition, arm: dict[str, Any]) -> str:
    h = arm["head_to_head"]
    name = arm["name"]
    rule = get_restriction(definition.game, name)
    if not h["decided"]:
        return f"The player who {rule.description} decided no match: no evidence either way."
    verdict = (
        "no evidence that it matters at this n"
        if h["p"] >= definition.alpha
        else "what it gives up is strong: giving it up costs"
        if h["difference"] < 0
        else "what it gives up is a trap: it wins more without it"
    )
    return (
        f"The player who {rule.description} ({h['agent']}) won {h['rate']:.0%} of "
        f"{h['decided']} decided matches ({h['draws']} drawn) against a fair "
        f"{h['fair']:.0%}: difference {h['difference']:+.0%} (95% CI "
        f"{h['diff_low']:+.0%} to {h['diff_high']:+.0%}), binomial p = {h['p']:.3g}; "
        f"{verdict}."
    )


def _skill_words(definition: Definition, report: dict[str, Any]) -> list[str]:
    words = []
    for arm in report["arms"]:
        h = arm["head_to_head"]
        if h["decided"]:
            words.append(
                f"{arm['name']}: the stronger won {h['rate']:.0%} of {h['decided']} "
                f"decided matches (95% CI {h['low']:.0%}-{h['high']:.0%}, "
                f"{h['draws']} drawn, p = {h['p']:.3g} against {h['fair']:.0%})."
            )
        else:
            words.append(f"{arm['name']}: no decided match ({h['draws']} drawn).")
    decided = [a["head_to_head"] for a in report["arms"] if a["head_to_head"]["decided"]]
    if decided:
        pooled = head_to_head(
            sum(h["wins"] for h in decided),
            sum(h["losses"] for h in decided),
            sum(h["draws"] for h in decided),
            definition.players,
            sum(h["shared"] for h in decided),
        )
        above = sum(h["low"] > h["fair"] for h in decided)
        verdict = (
            "skill pays: the stronger search wins more than its fair share"
            if pooled["p"] < definition.alpha and pooled["difference"] > 0
            else "no evidence at this n that a stronger search wins more"
        )
        words.append(
            f"Over every doubling the stronger won {pooled['rate']:.0%} of "
            f"{pooled['decided']} decided matches (95% CI {pooled['low']:.0%}-"
            f"{pooled['high']:.0%}, p = {pooled['p']:.3g}); its interval lies above "
            f"fair at {above} of {len(report['arms'])} doublings: {verdict}."
        )
    if report.get("skill_trace") is not None:
        words.append(
            f"Ludii's skill trace: {report['skill_trace']:.3g} (0 to 1; from the stronger's "
            "mean utility per doubling, a draw 0: docs/metrics.md)."
        )
    return words
