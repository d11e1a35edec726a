"""The installed distribution is one import package, `tablelog`, whose subpackages are the design
card's folders, and it finds its data through importlib.resources (scripts/wheel-smoke.sh, run
by CI, installs the built wheel outside the checkout and uses it)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
FOLDERS = {
    "tablelog": "tablelog",
    "tablelog.domain": "domain",
    "tablelog.projections": "projections",
    "tablelog.dashboard": "dashboard",
    "tablelog.data": "data",
}


def test_every_package_folder_is_in_the_distribution_under_tablelog():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == FOLDERS
    found = set()
    for package, folder in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *parts)))
    assert set(config["packages"]) == found
    assert all(p == "tablelog" or p.startswith("tablelog.") for p in config["packages"])


@pytest.mark.parametrize("package", ["tablelog.data", "tablelog.dashboard"])
def test_the_package_data_lists_every_data_file(package):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"][package]
    folder = ROOT / FOLDERS[package]
    data = [
        p.relative_to(folder)
        for p in folder.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert data and all(any(path.match(pattern) for pattern in patterns) for path in data)


def test_no_product_code_finds_files_by_walking_up_from_its_source():
    walking = re.compile(r"__file__\)?(\.resolve\(\))?\.parents?\b")
    offenders = [
        str(path.relative_to(ROOT))
        for folder in FOLDERS.values()
        for path in (ROOT / folder).rglob("*.py")
        if walking.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
