"""The installed package data (`tablelog.data`: manifests, example matches, the solved table),
found the way Tablelog finds it, through importlib.resources, never relative to a source file."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any


def data_path(*parts: str) -> Path:
    return Path(str(resources.files("tablelog.data").joinpath(*parts)))


def example(game: str) -> dict[str, Any]:
    """The complete example match record of `game` (data/examples/<game>.json)."""
    return json.loads(data_path("examples", f"{game}.json").read_text(encoding="utf-8"))
