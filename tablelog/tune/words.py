"""A study in the game's words, for Optuna's own figures on the Lab page: a copy in memory whose
parameters are named as a designer reads them (`report.words`: "tile value 5", "last player
chooses") and whose choices read yes/no rather than true/false. Running candidates are left out
(they have nothing to draw yet); values are unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablelog.domain.wording import game_value_words

from .report import words
from .settings import Settings
from .space import Space, base_manifest

if TYPE_CHECKING:
    import optuna


def worded(study: optuna.Study, settings: Settings) -> optuna.Study:
    """An in-memory copy of `study` whose parameter names and choices are in words."""
    import optuna
    from optuna.distributions import CategoricalDistribution
    from optuna.trial import TrialState, create_trial

    base = base_manifest(Space.from_json(settings.space))
    copy = optuna.create_study(directions=study.directions)
    for trial in study.get_trials(deepcopy=False):
        if trial.state not in (TrialState.COMPLETE, TrialState.PRUNED, TrialState.FAIL):
            continue
        params, distributions = {}, {}
        for key, value in trial.params.items():
            name, shown = words(key, base), trial.distributions[key]
            if isinstance(shown, CategoricalDistribution):
                said = [game_value_words(settings.game, key, c) for c in shown.choices]
                shown = CategoricalDistribution(said)
                value = game_value_words(settings.game, key, value)
            params[name], distributions[name] = value, shown
        copy.add_trial(
            create_trial(
                state=trial.state,
                values=trial.values if trial.state == TrialState.COMPLETE else None,
                params=params,
                distributions=distributions,
                intermediate_values=trial.intermediate_values,
                user_attrs={"candidate": trial.number},
            )
        )
    return copy
