"""Component strength in Topas: per seat and gem colour, the lines of that colour the seat scored
and the gems those lines gave (the colour's scoring category). Read off the final score details."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import Component, Moves


def components(state: object, scores: list[dict[str, Any]], moves: Moves) -> list[list[Component]]:
    result = []
    for entry in scores:
        lines: Counter[str] = Counter()
        gems: Counter[str] = Counter()
        for placement in entry["details"].get("placements", []):
            for line in placement["lines"]:
                lines[line["colour"]] += 1
                gems[line["colour"]] += line["gems"]
        result.append(
            [
                Component("gem colour", colour, lines[colour], float(gems[colour]))
                for colour in sorted(set(lines) | set(gems))
            ]
        )
    return result
