"""No import circles in the product, deferred imports included (issue 43).

Every module of the `tablelog` package (its folders as pyproject.toml maps them) is read with
`ast`; each `import` and `from ... import` in it, at module level or inside a function, is an
edge to the product module it names (`from package import module` names the module, not the
package). Imports under `if TYPE_CHECKING:` count too: a type named across a circle is the
same knot, only hidden from the interpreter. A circle found by `graphlib` fails the test with its
modules in order, so that the shared piece can be moved down a layer.
"""

from __future__ import annotations

import ast
import graphlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def modules() -> dict[str, Path]:
    """Every product module by its import name, read from pyproject.toml's package folders."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders: dict[str, str] = config["package-dir"]
    found: dict[str, Path] = {}
    for package in config["packages"]:
        top = max((p for p in folders if package == p or package.startswith(p + ".")), key=len)
        folder = ROOT / folders[top] / Path(*package[len(top) :].split(".")[1:])
        for file in folder.glob("*.py"):
            name = package if file.stem == "__init__" else f"{package}.{file.stem}"
            found[name] = file
    return found


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement: module level, in functions and classes, for type checking."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def imported(name: str, file: Path, known: dict[str, Path]) -> set[str]:
    """The product modules `name` imports."""
    package = name if file.stem == "__init__" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _imports(ast.parse(file.read_text(), str(file))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(anchor + ([base] if base else []))
        for alias in node.names:
            targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {target for target in targets if target in known and target != name}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, file, known) for name, file in known.items()}


def test_the_scan_sees_the_product_and_its_deferred_imports():
    edges = graph()
    assert "tablelog.domain.recording.recorder" in edges and "tablelog.projections.runner" in edges
    assert (
        "tablelog.domain.integrity.audit" in edges["tablelog.domain.recording.quarantine"]
    )  # in a function


def test_no_module_imports_itself_through_others():
    try:
        graphlib.TopologicalSorter(graph()).prepare()
    except graphlib.CycleError as found:
        circle = " -> ".join(found.args[1])
        raise AssertionError(f"an import circle: {circle}") from None
