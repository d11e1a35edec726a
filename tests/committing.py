"""Failures injected around a write's commit (issue 42: a write answers success exactly when it
stored). `AfterCommit.breaks(target, name)` makes `target.name` raise once a save has gone
through, and never before it, so everything a write does before storing works as usual and only
what follows the commit (rendering the answer, signing, reading the receipt back) fails.
`before_commit` makes the save itself fail, so that nothing is stored."""

from __future__ import annotations

from typing import Any

from tablelog.domain.recording.recorder import Recorder
from tests.test_recorder import OPENING, play


class Broken(RuntimeError):
    """The injected failure."""


class AfterCommit:
    def __init__(self, monkeypatch: Any) -> None:
        self.armed = False
        self.monkeypatch = monkeypatch
        save = Recorder._save

        def save_then_arm(recorder: Recorder, *matches: Any) -> None:
            save(recorder, *matches)
            self.armed = True

        monkeypatch.setattr(Recorder, "_save", save_then_arm)

    def breaks(self, target: Any, name: str) -> None:
        real = getattr(target, name)

        def broken(*args: Any, **kwargs: Any) -> Any:
            if self.armed:
                raise Broken(f"{name} broke after the commit")
            return real(*args, **kwargs)

        self.monkeypatch.setattr(target, name, broken)


def before_commit(monkeypatch: Any) -> None:
    """Every save fails before anything is stored (the store refusing the insert)."""

    def refuse(recorder: Recorder, *matches: Any) -> None:
        raise Broken("the store failed before the commit")

    monkeypatch.setattr(Recorder, "_save", refuse)


# The matches the writes under test need: after the opening (Ann to move), and with a dispute open.


def opened(recorder: Recorder) -> str:
    return str(play(recorder, OPENING))


def disputed(recorder: Recorder) -> str:
    match_id = play(recorder, OPENING)
    recorder.dispute(match_id, "Ben", "was the slide legal?")
    return str(match_id)
