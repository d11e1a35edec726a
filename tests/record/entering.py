"""Finding the taps that enter a known move: a search through the page's questions, trying first
the answers the move's JSON mentions. Tests use it to drive the pickers (and the browser) with
the moves of the example records."""

from __future__ import annotations

import json
from typing import Any

from tablelog.dashboard.record import Ready, menu
from tablelog.dashboard.record.picking import DONE

NEUTRAL = ("", DONE, True, False)


def _mentioned(value: Any, text: str) -> bool:
    if (value in NEUTRAL and not isinstance(value, int | float)) or isinstance(value, bool):
        return True
    if isinstance(value, list):
        return all(_mentioned(v, text) for v in value)
    if isinstance(value, str) and value.startswith(("hand:", "supply:")):
        return json.dumps(value.split(":", 1)[1]) in text
    if isinstance(value, str) and ":" in value:
        # a spot ("c1:S") or a board item ("Sailboat:Square"): mentioned as is or in parts
        return value in text or all(json.dumps(part) in text for part in value.split(":", 1))
    return json.dumps(value) in text or str(value) in text


def picks_for(
    game: str, rules, state, seat: int, target: dict, names=None, limit: int = 20000
) -> list[list[Any]]:
    """The picks whose Ready move equals `target`; AssertionError when the menus cannot say it."""
    text = json.dumps(target)
    budget = [limit]

    def search(picks):
        budget[0] -= 1
        assert budget[0] > 0, f"no picks found for {target} within {limit} steps"
        step = menu(game, rules, state, seat, picks, names)
        if isinstance(step, Ready):
            return picks if step.move == target else None
        # The answers the move mentions first; then, for an answer the move names nowhere
        # (Topiary's place to stand: a square beside the garden, as [column, row]), each other.
        mentioned = [o for o in step.options if _mentioned(o.value, text)]
        unnamed = [o for o in step.options if isinstance(o.value, list) and o not in mentioned]
        for option in mentioned + unnamed:
            found = search([*picks, [step.key, option.value]])
            if found is not None:
                return found
        return None

    found = search([])
    assert found is not None, f"the menus never offer {target}"
    return found


def setup_picks_for(game: str, players: int, target: dict, limit: int = 20000) -> list[list[Any]]:
    """The start form's picks whose Ready setup starts the match `target` ({"options",
    "setup"}) does (options compared as the engine reads them), found as `picks_for` finds a
    move's."""
    from tablelog.dashboard.record import setup as setups
    from tablelog.domain.games import get_rules

    rules = get_rules(game)

    text = json.dumps(target)
    budget = [limit]

    def search(picks):
        budget[0] -= 1
        assert budget[0] > 0, f"no setup picks found for {target} within {limit} steps"
        step = setups.menu(game, players, picks)
        if isinstance(step, Ready):
            same = rules.options(step.move["options"]) == rules.options(target["options"])
            return picks if same and step.move["setup"] == target["setup"] else None
        # An option the target leaves out (its default) is mentioned nowhere, or only by chance
        # (Topas' head start: 1 and 2 are in "R1-B2", its standard 0 is not): then each answer,
        # or the mentioned ones and the standard one.
        mentioned = [o for o in step.options if _mentioned(o.value, text)]
        standard = [o for o in step.options if o.label.endswith("(standard)")]
        for option in [*mentioned, *(o for o in standard if o not in mentioned)] or step.options:
            found = search([*picks, [step.key, option.value]])
            if found is not None:
                return found
        return None

    found = search([])
    assert found is not None, f"the setup questions never offer {target}"
    return found
