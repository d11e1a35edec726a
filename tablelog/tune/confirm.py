"""The confirmation: the study's best candidate, and only it, played on the seeds fixed when the
study started, judged by the study's shipping rule (`rule`). A seed set decides once: its seeds
are recorded as spent before the first match on them, so a candidate that fails is "not
confirmed" and another confirmation needs fresh seeds, fixed before it (`--resume ID
--confirm-seeds C,D`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Required, TypedDict

from .measure import Tally, tally
from .objective import Cancelled
from .rule import SeatRow, met, pooled_p, seat_rows
from .settings import Settings
from .space import Space, candidate

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial


class Confirmation(TypedDict, total=False):
    """A confirmation as stored with the study: its state, and once played, its seeds, the
    first set's seat rows, each count's pooled rows and p, the candidate and what it cost."""

    state: Required[str]
    seeds: list[int]
    first: list[SeatRow]
    pooled: list[SeatRow]
    pooled_p: dict[str, float]
    trial: int
    runner_up: int | None
    matches: int


def ranked(study: optuna.Study) -> list[FrozenTrial]:
    """The candidates played to the last rung, the most balanced first (the first objective;
    with several, the best balance is on the Pareto front); a repeat of an earlier candidate
    is that candidate, named once."""
    from optuna.trial import TrialState

    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    done = [t for t in complete if "repeat_of" not in t.user_attrs]
    return sorted(done, key=lambda t: (_balance(t), t.number))


def _balance(trial: FrozenTrial) -> float:
    """A complete trial's first objective (Optuna gives a complete trial its values)."""
    values = trial.values
    if values is None:
        raise ValueError(f"trial {trial.number} is complete without values")
    return values[0]


def confirm(
    study: optuna.Study,
    settings: Settings,
    stop: Callable[[], bool],
    progress: Callable[[int], object],
) -> Confirmation:
    """Play the best candidate on the confirmation seeds and store what the rule says."""
    seeds = list(settings.confirm_seeds)
    spent = list(study.user_attrs.get("spent_seeds", []))
    order = ranked(study)
    if not order:
        return {"state": "nothing to confirm"}
    if set(seeds) & set(spent):
        return {"state": "seeds spent", "seeds": seeds}
    study.set_user_attr("spent_seeds", spent + seeds)  # before any match on them
    best = order[0]
    variant = candidate(Space.from_json(settings.space), best.params)
    sets: dict[int, dict[int, Tally]] = {}
    for seed in seeds:
        sets[seed] = {}
        for players in settings.players:
            sets[seed][players] = tally(
                settings.game, players, settings.bots, seed, variant,
                range(settings.rule.matches), stop=stop,
            )  # fmt: skip
            if stop():
                raise Cancelled
            progress(settings.rule.matches)
    result = judged(settings, sets)
    result["trial"] = best.number
    result["runner_up"] = order[1].number if len(order) > 1 else None
    result["seeds"] = seeds
    result["matches"] = sum(t.matches for counts in sets.values() for t in counts.values())
    earlier = study.user_attrs.get("confirmation")
    if earlier and earlier.get("seeds"):  # a seed set decided once, and stays on the record
        before = study.user_attrs.get("earlier_confirmations", [])
        study.set_user_attr("earlier_confirmations", [*before, earlier])
    study.set_user_attr("confirmation", result)
    return result


def judged(settings: Settings, sets: dict[int, dict[int, Tally]]) -> Confirmation:
    """The rule applied: the first set's seat rows, each count's pooled rows and p."""
    rule = settings.rule
    first = [
        row
        for players, t in sets[settings.confirm_seeds[0]].items()
        for row in seat_rows(players, t.matches, dict(enumerate(t.wins)), rule.confidence)
    ]
    pooled: list[SeatRow] = []
    for players in settings.players:
        together = Tally(players)
        for counts in sets.values():
            together.add(counts[players])
        pooled += seat_rows(players, together.matches, dict(enumerate(together.wins)))
    p = {k: pooled_p([r for r in pooled if r["players"] == k]) for k in settings.players}
    return {
        "state": "confirmed" if met(first, pooled, rule) else "not confirmed",
        "first": first,
        "pooled": pooled,
        "pooled_p": {str(k): v for k, v in p.items()},
    }
