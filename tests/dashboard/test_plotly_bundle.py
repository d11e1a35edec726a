"""The pages load plotly.js's cartesian bundle (dashboard/assets/), not the full plotly.js: it is
of the major version the `plotly` package ships, and it holds every trace the figures draw."""

from __future__ import annotations

import re
from pathlib import Path

import plotly

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "dashboard" / "assets" / "plotly-cartesian.min.js"
FULL = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
# plotly's figure methods named add_ that add no trace
NOT_TRACES = {"trace", "traces", "annotation", "shape", "hline", "vline", "hrect", "vrect"}
NOT_TRACES |= {"layout_image", "selection"}


def version(script: Path) -> str:
    with script.open(encoding="utf-8") as head:
        found = re.search(r"plotly\.js (?:\(cartesian - minified\) )?v([\d.]+)", head.read(400))
    assert found, f"no plotly.js version at the top of {script}"
    return found[1]


def traces_in(script: Path) -> set[str]:
    return set(re.findall(r'moduleType:"trace",name:"(\w+)"', script.read_text(encoding="utf-8")))


def traces_drawn() -> set[str]:
    """Every trace type the dashboard's code adds to a figure (`add_bar(...)`, `go.Box(...)`)."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "dashboard").rglob("*.py"))
    added = set(re.findall(r"\.add_([a-z0-9]+)\(", code)) - NOT_TRACES
    built = {name.lower() for name in re.findall(r"\bgo\.([A-Z][a-z0-9]+)\(", code)} - {"figure"}
    return added | built


def test_the_bundle_is_of_the_plotly_js_that_plotly_ships():
    """The same major version: a figure plotly builds is drawn alike by the bundle. (A new
    minor or patch release of `plotly` may ship a newer plotly.js; scripts/plotly-bundle.sh
    fetches the bundle of the installed one.)"""
    bundled, shipped = version(BUNDLE), version(FULL)
    assert bundled.split(".")[0] == shipped.split(".")[0], (
        f"the bundle is plotly.js {bundled}, plotly ships {shipped}: run scripts/plotly-bundle.sh"
    )


def test_the_bundle_holds_every_trace_the_figures_draw():
    drawn = traces_drawn()
    assert {"scatter", "bar", "box"} <= drawn  # the scan finds what the figures use
    assert drawn <= traces_in(BUNDLE), drawn - traces_in(BUNDLE)
    assert "table" in traces_in(FULL) and "table" not in traces_in(BUNDLE)  # it can fail
