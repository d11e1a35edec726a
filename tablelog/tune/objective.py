"""One trial of a study: the sampler's candidate, checked, then played rung by rung (100, 400,
1,600 matches per player count by default) on the screening seed, reporting its balance after
each rung so that Optuna's successive-halving pruner can cut it; a candidate whose seats are
clearly unfair at a rung (some count's omnibus p below CLEAR) is cut there whatever the pruner
says (multi-objective studies have no pruner in Optuna, and it keeps the first trials honest).

Objectives, all pooled over the player counts asked for (the mean of the counts'):
- balance (minimised): the omnibus seat test's statistic per 1,000 matches; each count's p and
  largest seat deviation are kept with the trial;
- decisiveness (maximised), drawishness (minimised): the lab's Ludii metrics' means;
- length (minimised): how far the mean match length in moves is from the base variant's, as a
  share of it (0.1: 10% longer or shorter).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from tablelog.domain.errors import Refused
from tablelog.domain.games.base import RulesError
from tablelog.simulation import begin_match, make_plan

from .measure import ALSO, NAME, Direction, Tally, tally
from .settings import Settings
from .space import Candidate, Space, candidate, invalid, suggest

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial

CLEAR = 0.001  # a count's omnibus p under which a candidate is cut at once


class Cancelled(Exception):
    """The study was asked to stop; the trial in hand is given up, the finished ones kept."""


def directions(settings: Settings) -> list[Direction]:
    return ["minimize", *(ALSO[name][1] for name in settings.also)]


def values(settings: Settings, tallies: dict[int, Tally]) -> list[float]:
    counts = list(tallies.values())
    out = [sum(t.statistic() for t in counts) / len(counts)]
    for name in settings.also:
        if name == "length":
            base = settings.base_length
            out.append(
                sum(abs(t.mean(name) / base[str(t.players)] - 1) for t in counts) / len(counts)
            )
        else:
            out.append(sum(t.mean(name) for t in counts) / len(counts))
    return [0.0 if math.isnan(v) else v for v in out]


def unplayable(settings: Settings, variant: Candidate) -> str | None:
    """The rules' own refusal of the candidate's options or manifest, before any match."""
    for players in settings.players:
        try:
            plan = make_plan(
                settings.game, 1, 0, players, settings.bots, variant.options,
                variant.components(NAME),
            )  # fmt: skip
            begin_match(plan, 0)  # the deal: a deck too small for the seats is refused here
        except (Refused, RulesError) as err:
            return str(err)
    return None


def run_trial(settings: Settings, trial: optuna.Trial, stop: Callable[[], bool]) -> list[float]:
    space = Space.from_json(settings.space)
    params = suggest(space, trial)
    variant = candidate(space, params)
    reason = invalid(space, variant) or unplayable(settings, variant)
    trial.set_user_attr("matches", 0)
    if reason:
        import optuna

        trial.set_user_attr("invalid", reason)
        raise optuna.TrialPruned(reason)
    earlier = _played_before(trial, params)
    if earlier is not None:
        return _repeated(trial, earlier)
    tallies = {k: Tally(k) for k in settings.players}
    done = 0
    for rung in settings.rungs:
        for players, kept in tallies.items():
            kept.add(
                tally(
                    settings.game, players, settings.bots, settings.seed, variant,
                    range(done, rung), settings.also, stop,
                )
            )  # fmt: skip
        if stop():
            raise Cancelled
        done = rung
        scores = values(settings, tallies)
        _keep(trial, rung, tallies)
        _cut(trial, settings, rung, scores[0], tallies)
    return scores


def _played_before(trial: optuna.Trial, params: Mapping[str, object]) -> FrozenTrial | None:
    """An earlier candidate of the study with the same parameters, played (to its end or until
    cut): the sampler may draw a variant again, and on the same numbered matches (common random
    numbers) it would play exactly the same games, so they are not played twice."""
    from optuna.trial import TrialState

    finished = (TrialState.COMPLETE, TrialState.PRUNED)
    for earlier in trial.study.get_trials(deepcopy=False, states=finished):
        attrs = earlier.user_attrs
        if earlier.params == params and "tallies" in attrs and "repeat_of" not in attrs:
            return earlier
    return None


def _repeated(trial: optuna.Trial, earlier: FrozenTrial) -> list[float]:
    """The earlier candidate's result as this trial's, no match played: its values, or cut as
    it was cut."""
    import optuna
    from optuna.trial import TrialState

    trial.set_user_attr("repeat_of", earlier.number)
    for name in ("rung", "tallies", "pruned"):
        if name in earlier.user_attrs:
            trial.set_user_attr(name, earlier.user_attrs[name])
    if earlier.state == TrialState.PRUNED or earlier.values is None:
        raise optuna.TrialPruned(f"a repeat of candidate {earlier.number}, which was cut")
    return list(earlier.values)


def _keep(trial: optuna.Trial, rung: int, tallies: dict[int, Tally]) -> None:
    trial.set_user_attr("rung", rung)
    trial.set_user_attr("matches", sum(t.matches for t in tallies.values()))
    trial.set_user_attr("tallies", {str(k): t.to_json() for k, t in tallies.items()})


def _cut(
    trial: optuna.Trial, settings: Settings, rung: int, balance: float, tallies: dict[int, Tally]
) -> None:
    """Raise TrialPruned when the candidate is clearly unfair, or the pruner says so, before
    the last rung: a candidate that played every rung is finished, however unfair, so that the
    study always has a best (and its confirmation says whether it ships)."""
    import optuna

    if rung == settings.rungs[-1]:
        return
    if not settings.also:  # Optuna prunes single-objective studies only
        # Reported first, so the sampler learns from a clearly unfair candidate's value too.
        trial.report(balance, rung)
    worst = min(t.p_value() for t in tallies.values())
    if worst < CLEAR:
        trial.set_user_attr("pruned", f"clearly unfair: a count's seats have p = {worst:.2g}")
        raise optuna.TrialPruned()
    if not settings.also:
        if trial.should_prune():
            trial.set_user_attr("pruned", "successive halving")
            raise optuna.TrialPruned()


def objective(
    settings: Settings, stop: Callable[[], bool]
) -> Callable[[optuna.Trial], float | list[float]]:
    def run(trial: optuna.Trial) -> float | list[float]:
        scores = run_trial(settings, trial, stop)
        return scores[0] if len(scores) == 1 else scores

    return run
