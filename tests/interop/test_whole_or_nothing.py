"""A BG Stats or BGG file is imported whole or not at all: one bad play refuses it in one line
naming every bad play (the first ten with why), exit 2, the store unchanged to the byte;
`--skip-invalid` stores the others, lists what it skipped, exits 1. Duplicates name the play
they repeat; a file over the size cap is refused unread."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tablelog.cli.sheets import MOST_BYTES
from tablelog.files import size_words
from tests.conftest import stored_rows

from .files import ZONE, bgg_file, bgg_play, bgstats_file, bgstats_play
from .helpers import tablelog


def unchanged(store: str):
    """What proves the store unchanged: its rows, and for an SQLite file its bytes."""
    path = Path(store)
    raw = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None
    return stored_rows(store), raw


def said(err: str) -> list[str]:
    """What the command said on stderr, less its progress bar."""
    return [line for line in err.splitlines() if line.startswith("tablelog")]


def seeded(store: str) -> str:
    """The store holds one match already (a refusal must leave it as it was)."""
    code, _, err = tablelog(store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann")
    assert code == 0, err
    return store


def importing(store: str, tmp_path, tool: str, text: str, *more: str):
    source = tmp_path / f"plays.{tool}"
    source.write_text(text)
    return tablelog(store, "import", "--from", tool, str(source), *ZONE, *more)


# 100 good plays, and three bad ones among them: the kinds the issue names.
BAD_BGSTATS: dict[int, tuple[dict[str, Any], str]] = {
    7: ({"seat_score": float("nan")}, "Ann's score nan is not a finite number"),
    40: ({"playDate": "9999-01-01 12:00:00"}, "playDate lies in the future"),
    77: ({"durationMin": -5}, "durationMin -5 is not a number of minutes"),
}
BAD_BGG: dict[int, tuple[dict[str, Any], str]] = {
    7: ({"seat_score": "1e999"}, "Ann's score '1e999' is not a number"),
    40: ({"date": "9999-01-01"}, "date lies in the future"),
    77: ({"length": "-5"}, "length '-5' is not a number of minutes"),
    90: ({"quantity": "101"}, "quantity '101' is not a number of times from 1 to 100"),
}


def hundred_and_bad(tool: str) -> tuple[str, dict]:
    bad = BAD_BGSTATS if tool == "bgstats" else BAD_BGG
    if tool == "bgstats":
        plays = [bgstats_play(n, **bad.get(n, ({}, ""))[0]) for n in range(1, 101)]
        return bgstats_file(plays), bad
    return bgg_file([bgg_play(n, **bad.get(n, ({}, ""))[0]) for n in range(1, 101)]), bad


@pytest.mark.parametrize("tool", ["bgstats", "bgg"])
def test_one_bad_play_refuses_the_file_naming_every_bad_play(any_store, tmp_path, tool):
    before = unchanged(seeded(any_store))
    text, bad = hundred_and_bad(tool)
    code, out, err = importing(any_store, tmp_path, tool, text)
    assert code == 2 and out == "" and len(said(err)) == 1
    assert said(err)[0].startswith(
        f"tablelog: {len(bad)} of 100 plays are refused, nothing was imported"
    )
    for number, (_, reason) in bad.items():
        assert f"play {number} (" in err and reason in err
    assert unchanged(any_store) == before


@pytest.mark.parametrize("tool", ["bgstats", "bgg"])
def test_skip_invalid_stores_the_others_names_what_it_skipped_and_exits_1(
    any_store, tmp_path, tool
):
    text, bad = hundred_and_bad(tool)
    code, out, err = importing(any_store, tmp_path, tool, text, "--skip-invalid")
    good = 100 - len(bad)
    assert code == 1 and f"{len(bad)} of 100 plays refused and skipped" in err
    assert out.startswith(f"imported {good} plays as score-sheet matches\n")
    listed = [line for line in out.splitlines() if line.startswith("  play ")]
    assert [line.split()[1] for line in listed] == [str(n) for n in bad]
    assert len(stored_rows(any_store)) == 2 * good  # a Started and a SheetRecorded each
    code, out, _ = importing(any_store, tmp_path, tool, text, "--skip-invalid")
    assert code == 1 and out.startswith(f"nothing new: {good} plays already in this store\n")


def test_a_refusal_is_one_bounded_line_however_many_and_however_long_the_bad_plays(store, tmp_path):
    hostile = "x\n\x1b[31m" * 500  # newlines and terminal escapes, 4 KB a score
    plays = [bgstats_play(n, seat_score=hostile) for n in range(1, 501)]
    code, _, err = importing(store, tmp_path, "bgstats", bgstats_file(plays))
    assert code == 2 and len(said(err)) == 1 and "\x1b" not in err
    line = said(err)[0]
    assert line.startswith("tablelog: 500 of 500 plays are refused")
    assert "play 10 (" in line and "play 11 (" not in line and "; and 490 more" in line
    assert len(line) < 4_000


@pytest.mark.parametrize(
    ("tool", "text", "words"),
    [
        (
            "bgstats",
            bgstats_file([bgstats_play(1), bgstats_play(2), bgstats_play(3, uuid="PLAY-00001")]),
            "play 3 (2023-01-01 03:00:00, Topas, PLAY-00001): the same uuid as play 1",
        ),
        (
            "bgg",
            bgg_file([bgg_play(1), bgg_play(2), bgg_play(3, id="80000002")]),
            "play 3 (2023-01-02, Topas, id 80000002): the same play id as play 2",
        ),
    ],
)
def test_a_duplicate_in_the_file_names_the_play_it_repeats(any_store, tmp_path, tool, text, words):
    before = unchanged(seeded(any_store))
    code, _, err = importing(any_store, tmp_path, tool, text)
    assert code == 2 and len(err.splitlines()) == 1 and words in err, err
    assert "another writer" not in err
    assert unchanged(any_store) == before


def test_a_play_stored_with_other_events_is_named(any_store, tmp_path):
    importing(any_store, tmp_path, "bgstats", bgstats_file([bgstats_play(1), bgstats_play(2)]))
    before = unchanged(any_store)
    changed = bgstats_file([bgstats_play(1), bgstats_play(2, durationMin=45)])
    code, _, err = importing(any_store, tmp_path, "bgstats", changed)
    assert code == 2 and len(err.splitlines()) == 1
    assert "1 of 2 plays is refused" in err
    assert "play 2 (2023-01-01 02:00:00, Topas, PLAY-00002): already in this store as match" in err
    assert unchanged(any_store) == before


@pytest.mark.parametrize("quantity", ["0", "-1", "101", "2.5", "many", "1" * 5000])
def test_a_bgg_quantity_outside_1_to_100_is_refused_not_read_as_1(store, tmp_path, quantity):
    code, _, err = importing(store, tmp_path, "bgg", bgg_file([bgg_play(1, quantity=quantity)]))
    assert code == 2 and "quantity" in err and "from 1 to 100" in err
    assert stored_rows(store) == []


def test_a_bgg_quantity_makes_that_many_matches(store, tmp_path):
    code, out, _ = importing(store, tmp_path, "bgg", bgg_file([bgg_play(1, quantity="100")]))
    assert code == 0 and out.startswith("imported 100 plays")


@pytest.mark.parametrize(
    ("tool", "text", "words"),
    [
        ("bgstats", "[" * 100_000 + "]" * 100_000, "the file: not a BG Stats export: nested too"),
        ("bgstats", '{"plays": [' + "1" * 5000 + "]}", "more than 4,300 digits"),
        (
            "bgg",
            bgg_file(
                [
                    bgg_play(1, id="0").replace(
                        "</play>", "<x>" * 100_000 + "</x>" * 100_000 + "</play>"
                    )
                ]
            ),
            "play 1 (2023-01-02, Topas, id 0): nested too deep to read",
        ),
    ],
)
def test_deeply_nested_input_is_one_line(store, tmp_path, tool, text, words):
    code, _, err = importing(store, tmp_path, tool, text)
    assert code == 2 and len(err.splitlines()) == 1 and words in err, err


@pytest.mark.parametrize("tool", ["bgstats", "bgg"])
def test_a_file_over_the_size_cap_is_refused_unread(any_store, tmp_path, tool):
    before = unchanged(seeded(any_store))
    big = tmp_path / "big"
    with big.open("w") as out:  # valid up to where it is cut: the size alone refuses it
        out.write('{"plays": [' if tool == "bgstats" else "<plays>")
        out.write(" " * MOST_BYTES)
    code, _, err = tablelog(any_store, "import", "--from", tool, str(big), *ZONE)
    assert code == 2 and len(err.splitlines()) == 1
    assert f"larger than {size_words(MOST_BYTES)}" in err  # 20 MiB
    assert unchanged(any_store) == before


def test_skip_invalid_is_for_bg_stats_and_bgg_files(store, tmp_path):
    record = tmp_path / "records.jsonl"
    record.write_text(json.dumps({}) + "\n")
    code, _, err = tablelog(store, "import", str(record), "--skip-invalid")
    assert code == 2 and "--skip-invalid is for --from bgstats or bgg" in err


def test_a_file_asking_for_too_many_matches_is_refused_before_storing(store, tmp_path, monkeypatch):
    # The cap lowered from 20,000 so the test builds a few matches, not 20,000.
    monkeypatch.setattr("tablelog.interop.common.MOST_MATCHES", 150)
    plays = [bgg_play(n, quantity="100") for n in (1, 2)]
    code, _, err = importing(store, tmp_path, "bgg", bgg_file(plays))
    assert code == 2 and len(said(err)) == 1
    assert "the file: more than 150 matches of Tablelog's games" in err
    assert stored_rows(store) == []
