"""A study's settings: everything fixed when it starts and stored with it (Optuna's study user
attributes), the confirmation seeds and the shipping rule among them, before any trial."""

from __future__ import annotations

import dataclasses
from typing import Any

from tablelog.domain.plain import PlainDict

from .rule import Rule

RUNGS = 3  # successive halving: top/16, top/4, top matches per player count
REDUCTION = 4
SETTINGS = "settings"  # the study's user attribute that holds them, written right after it is made


@dataclasses.dataclass(frozen=True)
class Settings:
    game: str
    space: PlainDict  # `Space.to_json()`
    players: tuple[int, ...]
    confirm_seeds: tuple[int, ...]
    bots: str = "greedy"
    also: tuple[str, ...] = ()
    seed: int = 0  # the sampler's, and the screening seed every candidate plays
    trials: int = 30
    top: int = 1600  # matches per player count at the last rung
    budget: int | None = None  # matches the search may spend at most (confirmation apart)
    rule: Rule = dataclasses.field(default_factory=Rule)
    base_length: dict[str, float] = dataclasses.field(default_factory=dict)  # per count

    @property
    def rungs(self) -> tuple[int, ...]:
        return tuple(max(1, self.top // REDUCTION ** (RUNGS - 1 - n)) for n in range(RUNGS))

    def to_json(self) -> PlainDict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        data = dict(data)
        for name in ("players", "confirm_seeds", "also"):
            data[name] = tuple(data[name])
        data["rule"] = Rule(**data["rule"])
        return cls(**data)
