"""Component manifests: the JSON files in `data/manifests/` that list a game's pieces.

The one place `domain.games` reads a file, once per manifest, at engine construction or when a
match names a club's own manifest. The data folder is `data/` beside this checkout, or
`$TABLELOG_DATA` when set.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from .base import InvalidSetup

DATA_DIR = Path(os.environ.get("TABLELOG_DATA", Path(__file__).resolve().parents[2] / "data"))


@lru_cache(maxsize=32)
def load_manifest(name_or_path: str) -> Any:
    """`"topiary"` reads data/manifests/topiary.json; anything with a slash or `.json` is a path."""
    if "/" in name_or_path or name_or_path.endswith(".json"):
        path = Path(name_or_path)
    else:
        path = DATA_DIR / "manifests" / f"{name_or_path}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidSetup(f"manifest {path} does not exist") from None
    except json.JSONDecodeError as err:
        raise InvalidSetup(f"manifest {path} is not valid JSON: {err}") from None
