"""The installed package data (`tablelog.data`: manifests, example matches, the solved table),
found the way Tablelog finds it, through importlib.resources, never relative to a source file."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any


def data_path(*parts: str) -> Path:
    return Path(str(resources.files("tablelog.data").joinpath(*parts)))


def example_path(game: str) -> Path:
    """Where `game`'s example match is: its plugin says, or the packaged data/examples/."""
    from tablelog.domain.games import PLUGINS

    return PLUGINS[game].example or data_path("examples", f"{game}.json")


def docs_page(game: str) -> Path:
    """`game`'s docs page: its plugin says, or this checkout's docs/games/<game>.md."""
    from tablelog.domain.games import PLUGINS

    return (
        PLUGINS[game].docs or Path(__file__).resolve().parents[1] / "docs" / "games" / f"{game}.md"
    )


def example(game: str) -> dict[str, Any]:
    """The complete example match record of `game` (data/examples/<game>.json)."""
    return json.loads(example_path(game).read_text(encoding="utf-8"))
