"""What `tablelog tune` does, its command line apart: start or resume a study, run it with a
progress bar, confirm its best candidate, report."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Never

from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules

from .estimate import HOURS, duration_words, measured, most_matches
from .measure import ALSO
from .objective import Cancelled
from .rule import Rule
from .settings import SETTINGS, Settings
from .space import load_space
from .storage import storage_url
from .study import counted, create, load, mark_interrupted, run

if TYPE_CHECKING:
    from tqdm import tqdm

    from .report import Exported, StudyReport

INTERRUPTED = 130


def settings_of(game: str, given: dict[str, Any]) -> Settings:
    """The study's settings from the command line, every argument checked."""
    from tablelog.cli.options import parse_json

    designer = given.get("space")  # the Lab page's: a SPACE.json's content
    if given.get("space_file"):
        path = Path(given["space_file"])
        if not path.is_file():
            raise Refused(f"--space: no file {path}")
        designer = parse_json(path.read_text(encoding="utf-8"), "SPACE.json")
    space = load_space(game, designer)
    rules = get_rules(game)
    players = _ints(given.get("players"), "--players") or tuple(
        range(max(2, rules.min_players), rules.max_players + 1)
    )
    also = tuple(a.strip() for a in (given.get("also") or "").split(",") if a.strip())
    unknown = [a for a in also if a not in ALSO]
    if unknown:
        raise Refused(f"--also takes {', '.join(ALSO)}, not {unknown[0]!r}")
    seed = given.get("seed") or 0
    seeds = _ints(given.get("confirm_seeds"), "--confirm-seeds") or (7171 + seed, 1717 + seed)
    if seed in seeds:
        raise Refused(f"the confirmation seeds must differ from the screening seed {seed}")
    for name in ("trials", "top", "confirm_matches", "workers"):
        if given.get(name) is not None and given[name] < 1:
            raise Refused(f"--{name.replace('_', '-')} must be at least 1")
    return Settings(
        game=game,
        space=space.to_json(),
        players=players,
        confirm_seeds=seeds,
        bots=given.get("bots") or "greedy",
        also=also,
        seed=seed,
        trials=given.get("trials") or 30,
        top=given.get("top") or 1600,
        budget=given.get("budget"),
        rule=Rule(matches=given.get("confirm_matches") or 2000),
    )


def _ints(text: str | None, what: str) -> tuple[int, ...] | None:
    if not text:
        return None
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise Refused(f"{what} takes whole numbers separated by commas, not {text!r}") from None


def started(url: str, game: str, given: dict[str, Any], echo: Callable[[str], object]) -> str:
    """A new study, after saying what it may cost (and refusing a long one without --yes)."""
    settings = settings_of(game, given)
    rate, lengths, _ = measured(settings)
    settings = dataclasses.replace(settings, base_length=lengths)
    most = most_matches(settings)
    seconds = most / rate / max(1, given.get("workers") or 1)
    echo(
        f"{game} plays about {rate:.0f} matches a second here; the study spends at most "
        f"{most:,} matches, up to {duration_words(seconds)} (pruning spends less)"
    )
    if seconds > HOURS * 3600 and not given.get("yes"):
        raise Refused(
            f"this study could take {duration_words(seconds)}: give --yes, or fewer --trials "
            "or a --budget"
        )
    name = create(url, settings)
    echo(f"study {name}: confirmation seeds {', '.join(map(str, settings.confirm_seeds))}, fixed")
    return name


def resumed(url: str, name: str, given: dict[str, Any], echo: Callable[[str], object]) -> str:
    study, settings = load(url, name)
    left = mark_interrupted(url, name)
    if left:
        echo(f"study {name}: {left} candidate(s) cut short by the interruption, played again")
    seeds = _ints(given.get("confirm_seeds"), "--confirm-seeds")
    if seeds:
        spent = set(study.user_attrs.get("spent_seeds", []))
        if spent & set(seeds):
            raise Refused(f"seeds {sorted(spent & set(seeds))} are spent: fix fresh ones")
        settings = dataclasses.replace(settings, confirm_seeds=seeds)
    if given.get("trials"):
        settings = dataclasses.replace(settings, trials=given["trials"])
    if given.get("budget"):  # a further search: the matches it may spend in all
        settings = dataclasses.replace(settings, budget=given["budget"])
    study.set_user_attr("settings", settings.to_json())  # new seeds: fixed before any run on them
    study.set_user_attr("cancel", False)
    return name


def run_command(game: str, given: dict[str, Any], echo: Callable[[str], object]) -> int:
    from .report import lines, summary

    url = storage_url(given.get("store"))
    name = (
        resumed(url, given["resume_id"], given, echo)
        if given.get("resume_id")
        else started(url, game, given, echo)
    )
    try:
        _search(url, name, given)
        _confirmation(url, name, given)
    except Cancelled:  # `tablelog tune cancel` during the confirmation: its seeds stay spent
        load(url, name)[0].set_user_attr("state", "cancelled")
    except KeyboardInterrupt:
        played = counted(load(url, name)[0])[0]
        echo(f"interrupted: {played} candidates kept; tablelog tune --resume {name} goes on")
        return INTERRUPTED
    study, settings = load(url, name)
    report = summary(study, settings)
    if given.get("as_json"):
        from tablelog.cli.options import echo_json

        echo_json(report)
    else:
        for line in lines(report):
            echo(line)
    return INTERRUPTED if report["state"] == "cancelled" else 0


def _bar(given: dict[str, Any], total: int, unit: str) -> tqdm[Never]:
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, disable=bool(given.get("quiet")), leave=False)


def _search(url: str, name: str, given: dict[str, Any]) -> None:
    _, settings = load(url, name)
    with _bar(given, settings.trials, "candidate") as bar:

        def progress(played: int) -> None:
            bar.update(played - bar.n)

        cluster = given.get("cluster")
        if cluster is None:
            run(url, name, workers=given.get("workers") or 1, progress=progress)
            return
        from tablelog.simulation.cluster import check_cluster, connect
        from tablelog.store import store_location

        location = store_location(given.get("store"))
        check_cluster(cluster, location, given.get("workers"))
        with connect(cluster, location, given.get("workers")) as on:
            run(url, name, cluster=on.client, progress=progress)


def _confirmation(url: str, name: str, given: dict[str, Any]) -> None:
    study, settings = load(url, name)
    if study.user_attrs.get("state") != "searched":
        return
    total = len(settings.confirm_seeds) * len(settings.players) * settings.rule.matches
    with _bar(given, total, "match") as bar:
        confirmation(url, name, bar.update)


def confirmation(url: str, name: str, progress: Callable[[int], object]) -> None:
    """A searched study's best candidate confirmed (`confirm`), its verdict stored as the
    study's state; Cancelled when the study is cancelled meanwhile."""
    from .confirm import confirm
    from .study import cancelled

    study, settings = load(url, name)
    if study.user_attrs.get("state") != "searched":
        return
    result = confirm(study, settings, cancelled(url, name), progress)
    study.set_user_attr("state", result["state"])


def listed(store: str | None) -> list[str]:
    import optuna

    from .storage import open_storage

    storage = open_storage(storage_url(store))
    out = []
    for s in optuna.get_all_study_summaries(storage=storage, include_best_trial=False):
        if SETTINGS not in s.user_attrs:
            continue  # still being set up: its settings are written next
        settings = Settings.from_json(s.user_attrs[SETTINGS])
        state = s.user_attrs.get("state", "created")
        out.append(f"{s.study_name}  {get_rules(settings.game).name}, {s.n_trials} trials, {state}")
    return out or ["no study in this store yet (tablelog tune GAME starts one)"]


def report_of(store: str | None, name: str) -> StudyReport:
    return report_of_url(storage_url(store), name)


def report_of_url(url: str, name: str) -> StudyReport:
    from .report import summary

    study, settings = load(url, name)
    return summary(study, settings)


def exported_variant(store: str | None, name: str) -> Exported:
    from .report import exported

    study, settings = load(storage_url(store), name)
    variant = exported(study, settings)
    if not variant:
        raise Refused(f"study {name} has no candidate played to the end yet")
    return variant
