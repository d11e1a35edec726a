"""What the balance tuner (`tablelog tune topas`, docs/tune.md) may vary in Topas: the expert
variant (a line scores the product of its gems). The deck is the published one, every colour
pair and count once; a designer's SPACE.json may add fields of its own."""

from __future__ import annotations

from typing import Any

BASE = "topas"
OPTIONS: dict[str, list[Any]] = {"expert": [False, True]}


def fields(base: dict[str, Any]) -> dict[str, list[int]]:
    return {}


def tidy(content: dict[str, Any]) -> dict[str, Any]:
    return content


def invalid(content: dict[str, Any], options: dict[str, Any]) -> str | None:
    return None
