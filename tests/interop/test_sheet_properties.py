"""Properties of the sheet rules, over generated sheets: a Topiary sheet whose winner follows
RULES.md (highest total, then most hand points, then later in turn order) is accepted with
that winner; naming any other seat is refused; a Topas sheet's winners are exactly the seats
with the highest total (a tie is a shared win)."""

from __future__ import annotations

from uuid import uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.errors import Refused
from tablelog.domain.matches.sheet_matches import sheet_match

SEATS = ["Ann", "Ben", "Cleo", "Dev"]
topiary_seat = st.fixed_dictionaries(
    {"visitors": st.integers(0, 60), "type bonus": st.integers(0, 10), "hand": st.integers(0, 12)}
)


def rules_winner(entries: list[dict]) -> int:
    return max(range(len(entries)), key=lambda i: (sum(entries[i].values()), entries[i]["hand"], i))


@settings(max_examples=150, deadline=None)
@given(st.lists(topiary_seat, min_size=2, max_size=4), st.data())
def test_a_topiary_sheet_has_exactly_the_winner_the_rules_give(parts, data):
    seats = SEATS[: len(parts)]
    scores = [{"total": sum(p.values()), "categories": p} for p in parts]
    winner = rules_winner(parts)
    match = sheet_match(uuid4(), "topiary", seats, {"scores": scores, "winners": [seats[winner]]})
    assert match.outcome is not None and match.outcome["winners"] == [winner]
    other = data.draw(st.sampled_from([i for i in range(len(seats)) if i != winner]))
    with pytest.raises(Refused, match="winners"):
        sheet_match(uuid4(), "topiary", seats, {"scores": scores, "winners": [seats[other]]})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 196), min_size=2, max_size=4))
def test_a_topas_sheet_is_won_by_every_seat_with_the_highest_total(totals):
    seats = SEATS[: len(totals)]
    best = [name for name, total in zip(seats, totals) if total == max(totals)]
    scores = [{"total": t} for t in totals]
    match = sheet_match(uuid4(), "topas", seats, {"scores": scores, "winners": best})
    assert match.outcome is not None
    assert [seats[i] for i in match.outcome["winners"]] == best
    assert match.outcome["ranking"][0] == match.outcome["winners"]
    if len(best) < len(seats):
        with pytest.raises(Refused, match="winners"):
            sheet_match(
                uuid4(),
                "topas",
                seats,
                {"scores": scores, "winners": best[:1] + [next(n for n in seats if n not in best)]},
            )
