"""What a study gives back: its report as data (`--json`) and as the lines a person reads, and
the winning variant as a manifest `tablelog new --manifest-file` and `simulate --manifest-file`
take as they are."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from tablelog.domain.games import get_rules
from tablelog.domain.plain import PlainDict, PlainValue
from tablelog.domain.wording import game_value_words

from .confirm import Confirmation, ranked
from .measure import Tally
from .settings import Settings
from .space import Space, base_manifest, candidate
from .study import counted

if TYPE_CHECKING:
    import optuna
    from optuna.trial import FrozenTrial


class Balance(TypedDict):
    """A candidate's seats at one player count: matches, win rates, p and largest deviation."""

    matches: int
    rates: list[float]
    p_value: float
    deviation: float


class TrialReport(TypedDict):
    trial: int
    state: str
    values: list[float]
    params: dict[str, PlainValue]  # Optuna's own parameter values (`FrozenTrial.params`)
    balance: dict[str, Balance]  # per player count


class StudyReport(TypedDict):
    """`tablelog tune show --json`: the study, its best and base candidates, its confirmation."""

    study: str
    game: str
    state: str | None
    settings: PlainDict
    candidates: int
    repeats: int  # of the candidates: drawn again by the sampler, their earlier result taken
    invalid: int
    search_matches: int
    confirmation_matches: int
    matches: int
    best: TrialReport | None
    base: TrialReport | None
    confirmation: Confirmation | None
    earlier_confirmations: list[Confirmation]
    spent_seeds: list[int]


class Shown(StudyReport):
    """A study's report with its lines in words (the Lab page's)."""

    lines: list[str]


class Exported(TypedDict, total=False):
    """The winning variant: its manifest (None: the game's own), options and candidate."""

    manifest: PlainValue
    options: PlainDict
    trial: int


def words(pointer: str, base: object) -> str:
    """A parameter in the game's words: `/quadrants/2/figures/Sail/Parallelogram` is
    "South-East Sail: Parallelogram", `/deck/Wild` "deck: Wild", an option its name."""
    if not pointer.startswith("/"):
        return pointer.replace("_", " ")
    steps = pointer.split("/")[1:]
    if steps[0] == "quadrants" and isinstance(base, dict):
        quadrant = base["quadrants"][int(steps[1])]["name"]
        place = steps[3] if steps[2] == "figures" else "circle"
        return f"{quadrant} {place}: {steps[-1]}"
    if steps[0] == "shapes":
        return f"points: {steps[-1]}"
    if steps[0] == "values":
        return f"tile value {int(steps[1]) + 1}"
    return f"{steps[0]}: {' '.join(steps[1:])}"


def summary(study: optuna.Study, settings: Settings) -> StudyReport:
    played, invalid, matches = counted(study)
    confirmation = study.user_attrs.get("confirmation")
    earlier = study.user_attrs.get("earlier_confirmations", [])
    confirming = sum(c.get("matches", 0) for c in [*earlier, confirmation or {}])
    order = ranked(study)
    best = order[0] if order else None
    return {
        "study": study.study_name,
        "game": settings.game,
        "state": study.user_attrs.get("state"),
        "settings": settings.to_json(),
        "candidates": played,
        "repeats": sum("repeat_of" in t.user_attrs for t in study.get_trials(deepcopy=False)),
        "invalid": invalid,
        "search_matches": matches,
        "confirmation_matches": confirming,
        "matches": matches + confirming,
        "best": None if best is None else _trial(best, settings),
        "base": _base(study, settings),
        "confirmation": confirmation,
        "earlier_confirmations": earlier,
        "spent_seeds": study.user_attrs.get("spent_seeds", []),
    }


def _base(study: optuna.Study, settings: Settings) -> TrialReport | None:
    """The base variant's trial, played to the end or cut (then its last rung's figures)."""
    for trial in study.get_trials(deepcopy=False):
        if trial.user_attrs.get("base") and trial.user_attrs.get("tallies"):
            return _trial(trial, settings)
    return None


def _trial(trial: FrozenTrial, settings: Settings) -> TrialReport:
    tallies = trial.user_attrs.get("tallies", {})
    return {
        "trial": trial.number,
        "state": trial.state.name.lower(),
        "values": list(trial.values or []),
        "params": dict(trial.params),
        "balance": {k: _balance(Tally(**t)) for k, t in tallies.items()},
    }


def _balance(t: Tally) -> Balance:
    return {
        "matches": t.matches,
        "rates": [w / max(1, t.matches) for w in t.wins],
        "p_value": t.p_value(),
        "deviation": t.deviation(),
    }


def lines(report: StudyReport) -> list[str]:
    settings = Settings.from_json(report["settings"])
    base = base_manifest(Space.from_json(settings.space))
    title = get_rules(settings.game).name
    out = [
        f"study {report['study']} ({title}, {_state(report['state'])}): "
        f"{report['candidates']} candidates played{_repeats(report)}, "
        f"{report['invalid']} invalid (no match)"
    ]
    best = report["best"]
    if best is None:
        return out + ["no candidate reached the last rung yet"]
    before = report["base"]["params"] if report["base"] else {}

    def said(name: str, value: PlainValue) -> str:  # an option's value with its unit ("2 points")
        return game_value_words(settings.game, name, value)

    changes = [
        f"{words(k, base)} {said(k, before[k])} -> {said(k, v)}"
        if k in before
        else f"{words(k, base)} {said(k, v)}"
        for k, v in best["params"].items()
        if before.get(k, not v) != v
    ]
    out.append(
        f"best: candidate {best['trial']}: " + (", ".join(changes) or "the base variant itself")
    )
    for label, trial in (("best", best), ("base", report["base"])):
        for players, b in (trial["balance"] if trial else {}).items():
            rates = ", ".join(f"{r:.1%}" for r in b["rates"])
            out.append(
                f"  {label}, {players} players, {b['matches']:,} matches: seats {rates}; "
                f"p = {b['p_value']:.3f}; largest deviation {b['deviation']:.1%}"
            )
    out += _confirmation_lines(report)
    out.append(
        f"matches spent: {report['matches']:,} (search {report['search_matches']:,}, "
        f"confirmation {report['confirmation_matches']:,})"
    )
    return out


def _repeats(report: StudyReport) -> str:
    n = report.get("repeats", 0)
    return f" ({n} drawn again, not played again)" if n else ""


def _state(state: str | None) -> str:
    return {"searched": "searched", "confirmed": "finished"}.get(state or "", state or "new")


def _confirmation_lines(report: StudyReport) -> list[str]:
    out = [
        f"earlier confirmation of candidate {e['trial']} on seeds "
        f"{', '.join(str(s) for s in e['seeds'])}: {e['state']}"
        for e in report.get("earlier_confirmations", [])
    ]
    return out + _last_confirmation(report)


def _last_confirmation(report: StudyReport) -> list[str]:
    c = report["confirmation"]
    if not c:
        return ["confirmation: not played yet"]
    if c["state"] in ("seeds spent", "nothing to confirm"):
        return [f"confirmation: {c['state']}"]
    seeds = ", ".join(str(s) for s in c["seeds"])
    out = [f"confirmation of candidate {c['trial']} on seeds {seeds}: {c['state']}"]
    for row in c["first"]:
        out.append(
            f"  seed {c['seeds'][0]}, {row['players']} players, seat {row['seat']}: "
            f"{row['rate']:.1%} [{row['low']:.1%}-{row['high']:.1%}] "
            f"{'inside' if row['inside'] else 'OUTSIDE'}"
        )
    for players, p in c["pooled_p"].items():
        out.append(f"  pooled, {players} players: p = {p:.3f}")
    if c["state"] != "confirmed" and c.get("runner_up") is not None:
        out.append(f"runner-up: candidate {c['runner_up']}")
    return out


def exported(study: optuna.Study, settings: Settings, trial_number: int | None = None) -> Exported:
    """The winning variant (the confirmed candidate, else the best) as {"manifest", "options"}."""
    confirmation = study.user_attrs.get("confirmation") or {}
    number = trial_number if trial_number is not None else confirmation.get("trial")
    order = ranked(study)
    chosen = next((t for t in order if t.number == number), order[0] if order else None)
    if chosen is None:
        return {}
    variant = candidate(Space.from_json(settings.space), chosen.params)
    manifest = variant.manifest
    if isinstance(manifest, dict):
        manifest = {**manifest, "name": f"tuned by study {study.study_name}"}
    return {"manifest": manifest, "options": variant.options, "trial": chosen.number}
