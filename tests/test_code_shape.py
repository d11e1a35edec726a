"""No function longer than 60 lines, in the product or its tests (ruff checks complexity and
statement counts, but has no rule for length)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tablelog", "domain", "projections", "dashboard", "data", "tests", "benchmarks")
LONGEST = 60  # lines, from `def` to the function's last line


def functions(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            yield node.name, node.end_lineno - node.lineno + 1


def test_no_function_is_longer_than_60_lines():
    sources = sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))
    assert len(sources) > 100  # the folders were found
    offenders = [
        f"{path.relative_to(ROOT)}:{name}:{length}"
        for path in sources
        for name, length in functions(path)
        if length > LONGEST
    ]
    assert offenders == [], "\n".join(offenders)
