"""The Record page's setup questions as a game's declaration gives them: one question per declared
option (a manifest is the board a new match is played on, not asked), its default marked
"standard". A game whose table shows more at the start (a tile turned up, hands dealt) says so
in its board module's `setup(players, picks)`, reusing these pieces.
"""

from __future__ import annotations

import dataclasses
import typing

from tablelog.dashboard.record.picking import Option, Picks, Question, Ready, Step, answer
from tablelog.domain.games.declaring import Flag, GameInfo, ManifestName, WholeNumber

YES_NO = (Option(False, "no"), Option(True, "yes"))


def first_open(questions: list[Question], picks: Picks) -> Question | None:
    return next((q for q in questions if answer(picks, q.key) is None), None)


def option_questions(declaration: GameInfo) -> list[Question]:
    """A question for each declared option a table chooses (true/false, a count, one word)."""
    hints = typing.get_type_hints(declaration.options)
    found = []
    for field in dataclasses.fields(declaration.options):
        kind = hints[field.name]
        choices = _choices(kind, field)
        if choices is None:
            continue
        label = field.metadata.get("label") or field.name.replace("_", " ")
        prompt = f"How many {label}?" if kind is WholeNumber else f"{label[0].upper()}{label[1:]}?"
        standard = tuple(
            Option(o.value, o.label + (" (standard)" if o.value == field.default else ""))
            for o in choices
        )
        found.append(Question(field.metadata.get("key") or field.name, prompt, standard))
    return found


def _choices(kind: object, field: dataclasses.Field) -> tuple[Option, ...] | None:
    if kind is Flag or kind is bool:
        return YES_NO
    if kind is WholeNumber:
        schema = field.metadata.get("schema", {})
        low, high = schema.get("minimum", 0), schema.get("maximum", 9)
        return tuple(Option(n, str(n)) for n in range(low, high + 1))
    if typing.get_origin(kind) is typing.Literal:
        return tuple(Option(v, str(v).replace("-", " ")) for v in typing.get_args(kind))
    if kind is not ManifestName:
        raise TypeError(f"no setup question for an option of type {kind!r}: {field.name}")
    return None


def declared_setup(declaration: GameInfo, picks: Picks) -> Step:
    """The default setup: the declared options asked in turn, and nothing else on the table."""
    questions = option_questions(declaration)
    open_ = first_open(questions, picks)
    if open_:
        return open_
    return Ready({"options": {q.key: answer(picks, q.key) for q in questions}, "setup": {}})
