"""The Lab page's Tune section: a study followed with Optuna's own plotly figures
(`optuna.visualization`), retitled in a designer's words. Pure: each takes a study in the game's
words (the tune service's `worded`: parameters named "tile value 5", choices yes/no) and the
names of its objectives, and gives a figure; an empty figure with a note where there is nothing
to draw yet."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go

from .style import FONT, INK, empty

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial

CANDIDATE = "candidate"
HISTORY, IMPORTANCES = "Seat imbalance of each candidate", "What moves the seat imbalance"
PARETO, PARALLEL = "The trade-off between the objectives", "The candidates' values"
NOT_YET = "no candidate has been played to the end yet"


def _house(figure: go.Figure, title: str, subtitle: str = "") -> go.Figure:
    """Optuna's figure in the house style (`style.base`'s): a short title, the details under."""
    figure.update_layout(
        title={
            "text": title,
            "x": 0.01,
            "xanchor": "left",
            "font": {"size": 16},
            "subtitle": {"text": subtitle, "font": {"size": 12, "color": "#666"}},
        },
        height=380,
        font={"family": FONT, "color": INK},
        template="plotly_white",
        margin={"l": 50, "r": 20, "t": 70 if subtitle else 60, "b": 50},
    )
    return figure


def _done(study: optuna.Study) -> list[FrozenTrial]:
    from optuna.trial import TrialState

    return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))


def _first(names: list[str]) -> dict[str, Any]:
    """Optuna's arguments for the first objective (the seat imbalance) of a study of any
    number of objectives."""
    if len(names) == 1:
        return {"target_name": names[0]}
    return {"target": lambda t: t.values[0], "target_name": names[0]}


def history(study: optuna.Study | None, names: list[str]) -> go.Figure:
    """Each candidate's seat imbalance in the order played, and the best so far."""
    if study is None or not _done(study):
        return empty(HISTORY, NOT_YET)
    from optuna.visualization import plot_optimization_history

    figure = plot_optimization_history(study, **_first(names))
    for trace in figure.data:
        trace.name = {"Best Value": "best so far"}.get(trace.name, trace.name)
    figure.data = [t for t in figure.data if t.name != "Infeasible Trial"]
    figure.update_layout(xaxis_title=CANDIDATE, yaxis_title=names[0])
    return _house(figure, HISTORY, "lower is fairer; a cut candidate is not drawn")


def importances(study: optuna.Study | None, names: list[str]) -> go.Figure:
    """How much each thing varied moves the seat imbalance (Optuna's fANOVA importances)."""
    done = _done(study) if study is not None else []
    varied = {k for t in done for k in t.params}
    if study is None or len(done) < 2 or not varied:
        return empty(IMPORTANCES, "it needs two candidates played to the end")
    from optuna.visualization import plot_param_importances

    figure = plot_param_importances(study, **_first(names))
    for trace in figure.data:  # Optuna's hover names each distribution's class: not a word here
        trace.update(name=names[0], hovertemplate="%{y}: %{text}<extra></extra>")
    figure.update_layout(xaxis_title="share of its variation")
    figure.update_yaxes(title="")
    return _house(figure, IMPORTANCES, "the things varied, by how much they change it")


def pareto(study: optuna.Study | None, names: list[str]) -> go.Figure:
    """The Pareto front of a study of several objectives (none for one objective)."""
    if len(names) < 2:
        return empty(PARETO, "one objective: add a further one for a trade-off")
    if study is None or not _done(study):
        return empty(PARETO, NOT_YET)
    from optuna.visualization import plot_pareto_front

    figure = plot_pareto_front(study, target_names=names[:3])
    for trace in figure.data:  # Optuna's hover is a trial's JSON: said in words instead
        front = "Best" in (trace.hovertemplate or "")
        trace.update(
            name="on the front" if front else "behind it",
            showlegend=True,
            text=[_point_words(text, names) for text in trace.text or ()],
            hovertemplate="%{text}<extra></extra>",
        )
        if trace.marker.colorbar.title.text:  # the colour is the candidate's number
            trace.marker.colorbar.title.text = CANDIDATE
    return _house(figure, PARETO, "on the front: no other candidate beats it on every objective")


def _point_words(text: str, names: list[str]) -> str:
    """A point of Optuna's Pareto front (its hover text: the trial as JSON) in words."""
    trial = json.loads(text.replace("<br>", ""))
    values = ", ".join(f"{n} {v:.3g}" for n, v in zip(names, trial["values"]))
    params = ", ".join(f"{k}: {v}" for k, v in trial["params"].items())
    return f"candidate {trial['number']}: {values}<br>{params}"


def parallel(study: optuna.Study | None, names: list[str]) -> go.Figure:
    """Each candidate as a line through the values it took, coloured by its seat imbalance."""
    if study is None or not _done(study):
        return empty(PARALLEL, NOT_YET)
    from optuna.visualization import plot_parallel_coordinate

    figure = plot_parallel_coordinate(study, **_first(names))
    return _house(figure, PARALLEL, f"each line a candidate, coloured by its {names[0]}")


def figures(study: optuna.Study | None, names: list[str]) -> dict[str, go.Figure]:
    """Every figure of the section, by the name of its graph."""
    return {
        "history": history(study, names),
        "importances": importances(study, names),
        "pareto": pareto(study, names),
        "parallel": parallel(study, names),
    }
