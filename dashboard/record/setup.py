"""Starting a match by tapping: the game's options (variants) and the setup the table can see,
as questions like the move pickers', answered from the game's manifest. `menu(game, players,
picks)` is the next question or `Ready({"options": ..., "setup": ...})`; the engine's `start`
judges the result when the match is started (a refusal names the rule)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelog.domain.games.geoshapes.rules import DEFAULT_MANIFEST as GEOSHAPES_BOARD
from tablelog.domain.games.manifests import load_manifest

from .picking import DONE, Option, Picks, Question, Ready, Step, answer, answers

YES_NO = (Option(False, "no"), Option(True, "yes"))
GEOSHAPES_DEALT = {False: 4, True: 8}


def menu(game: str, players: int, picks: Picks) -> Step:
    return QUESTIONS[game.replace("-", "_")](players, picks)


def _first_open(questions: list[Question], picks: Picks) -> Question | None:
    return next((q for q in questions if answer(picks, q.key) is None), None)


def topitop(players: int, picks: Picks) -> Step:
    counts = tuple(Option(n, f"{n}" + (" (standard)" if n == 4 else "")) for n in range(10))
    open_ = _first_open(
        [
            Question("small", "How many small sand piles?", counts),
            Question("large", "How many large sand piles?", counts),
        ],
        picks,
    )
    if open_:
        return open_
    return Ready(
        {"options": {"small": answer(picks, "small"), "large": answer(picks, "large")}, "setup": {}}
    )


def topiary(players: int, picks: Picks) -> Step:
    manifest = load_manifest("topiary")
    types, values = manifest["types"], manifest["values"]
    questions = [
        Question(
            "last_player_chooses", "Variant: the last player keeps 3 of the leftover tiles?", YES_NO
        )
    ]
    if players in (2, 3):
        questions.append(
            Question(
                "removed", "Which sculpture type was removed?", tuple(Option(t, t) for t in types)
            )
        )
    open_ = _first_open(questions, picks)
    if open_:
        return open_
    removed = answer(picks, "removed")
    if answer(picks, "c3") is None:
        return Question(
            "c3",
            "Which tile was turned face up at c3?",
            tuple(Option(f"{t} {v}", f"{t} {v}", t) for t in types if t != removed for v in values),
        )
    setup: dict[str, Any] = {"garden": {"c3": answer(picks, "c3")}}
    if removed:
        setup["removed"] = removed
    return Ready(
        {"options": {"last_player_chooses": answer(picks, "last_player_chooses")}, "setup": setup}
    )


def topas(players: int, picks: Picks) -> Step:
    cards = load_manifest("topas")["cards"]
    colours = load_manifest("topas")["colours"]
    open_ = _first_open(
        [
            Question(
                "expert", "Expert variant (a placement scores the product of its lines)?", YES_NO
            ),
            Question(
                "start",
                "Which start card was turned up? (its first half lies left)",
                tuple(
                    Option(c, c, " and ".join(colours.get(h[0], h[0]) for h in c.split("-")))
                    for c in cards
                ),
            ),
        ],
        picks,
    )
    if open_:
        return open_
    return Ready(
        {"options": {"expert": answer(picks, "expert")}, "setup": {"start": answer(picks, "start")}}
    )


def total_landscaping(players: int, picks: Picks) -> Step:
    return Ready({"options": {}, "setup": {}})


def geoshapes(players: int, picks: Picks) -> Step:
    manifest = load_manifest(GEOSHAPES_BOARD)  # the board a new match is played on
    if players == 2 and answer(picks, "half_board") is None:
        return Question("half_board", "Play on the half board (two quadrants each)?", YES_NO)
    half = bool(answer(picks, "half_board"))
    dealt = GEOSHAPES_DEALT[half]
    deck = Counter(manifest["deck"])
    for seat in range(players):
        key = f"hand{seat + 1}"
        hand = [shape for shape in answers(picks, key) if shape != DONE]
        if len(hand) < dealt:
            left = deck - Counter(s for k, v in picks if k.startswith("hand") for s in [v])
            return Question(
                key,
                f"Player {seat + 1}'s dealt shapes ({len(hand)} of {dealt})",
                tuple(Option(s, s) for s in manifest["deck"] if left[s] > 0),
                several=True,
            )
    hands = [answers(picks, f"hand{seat + 1}") for seat in range(players)]
    return Ready({"options": {"half_board": half}, "setup": {"hands": hands}})


QUESTIONS = {
    "topitop": topitop,
    "topiary": topiary,
    "topas": topas,
    "total_landscaping": total_landscaping,
    "geoshapes": geoshapes,
}
