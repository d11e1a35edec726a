"""`tablelog experiment humans GAME` as the README shows it: recorded matches beside bot
matches, printed as text (it failed with a KeyError: a side of humans or bots is no arm of an
experiment and names no agents)."""

from __future__ import annotations

from click.testing import CliRunner

from tablelog.cli import main
from tests.packaged import data_path


def test_humans_beside_bots_prints_both_sides(store):
    runner = CliRunner()
    example = str(data_path("examples") / "topitop.json")  # a match two people logged
    assert runner.invoke(main, ["import", example, "--store", store]).exit_code == 0
    played = runner.invoke(
        main, ["simulate", "topitop", "-n", "3", "--seed", "1", "--store", store]
    )
    assert played.exit_code == 0, played.output
    shown = runner.invoke(main, ["experiment", "humans", "topitop", "--store", store])
    assert shown.exit_code == 0, shown.output
    assert "arm bots: 3 matches" in shown.output and "arm humans: 1 matches" in shown.output
    assert "1 recorded human matches beside 3 bot matches" in shown.output
