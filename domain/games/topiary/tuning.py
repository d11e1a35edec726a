"""What the balance tuner (`tablelog tune topiary`, docs/tune.md) may vary in Topiary: the
seed's variant (the last player chooses) and the five values every sculpture type's tiles show
(each 1 to 9, all different, as a Topiary manifest must have them)."""

from __future__ import annotations

from typing import Any

from ...plain import PlainDict, PlainMapping, PlainValue

BASE = "topiary"
OPTIONS: dict[str, list[PlainValue]] = {"last_player_chooses": [False, True]}


def fields(base: dict[str, Any]) -> dict[str, list[int]]:
    return {f"/values/{number}": [1, 9] for number in range(len(base["values"]))}


def tidy(content: PlainDict) -> PlainDict:
    return content


def invalid(content: dict[str, Any], options: PlainMapping) -> str | None:
    values = content["values"]
    if len(set(values)) != len(values):
        return f"the tiles of a type show different values, not {values}"
    return None
