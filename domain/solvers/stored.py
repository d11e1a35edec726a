"""Where solved Topitop tables are kept: shipped in `data/solved/`, or built once into the user's
data directory by `tablelog solve topitop`; one file per piece count."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

if TYPE_CHECKING:
    from .topitop import SolvedTopitop

# Package data: a real folder in every install this project makes (wheel, sdist, editable).
SHIPPED = Path(str(resources.files("tablelog.data") / "solved"))
BUILT = platformdirs.user_data_path("tablelog") / "solved"


def table_name(small: int, large: int) -> str:
    return f"topitop-small{small}-large{large}.npz"


def find_table(small: int, large: int) -> Path | None:
    for folder in (SHIPPED, BUILT):
        path = folder / table_name(small, large)
        if path.exists():
            return path
    return None


@lru_cache(maxsize=4)
def stored_table(small: int, large: int) -> SolvedTopitop | None:
    """The solved table for these counts if one is stored (loaded once per process), else None:
    readers never start a minutes-long solve."""
    from .topitop import load

    path = find_table(small, large)
    return load(path) if path else None
