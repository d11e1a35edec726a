"""GET /stats/{game} answers "is any seat favoured?" beside the seats, with shared wins."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

PLAYERS = ["Ann", "Ben", "Cy"]


def sheet(client, totals, winners):
    answer = client.post(
        "/api/v1/sheets",
        json={
            "game": "topas",
            "players": PLAYERS,
            "sheet": {"scores": [{"total": t} for t in totals], "winners": winners},
        },
    )
    assert answer.status_code == 201, answer.get_json()


def test_the_stats_carry_the_all_seats_test_and_a_fair_rate_that_counts_shared_wins(client):
    sheet(client, [50, 40, 30], ["Ann"])
    sheet(client, [40, 50, 30], ["Ben"])
    sheet(client, [45, 45, 30], ["Ann", "Ben"])  # a shared win
    sheet(client, [30, 30, 50], ["Cy"])
    figures = client.get("/api/v1/stats/topas?players=3").get_json()
    # Wins 2, 2, 1: 5 in 4 matches, so a seat no seat is favoured over wins 5 / 12 of them.
    assert [s["fair"] for s in figures["seats"]] == pytest.approx([5 / 12] * 3)
    assert figures["seats"][2]["p_value"] == pytest.approx(binomtest(1, 4, 5 / 12).pvalue)
    # 5 wins on 3 seats (5/3 expected each): the exact test. Every way of sharing out 5 wins is
    # at most as likely as 2-2-1 (30 of 243), so p = 1.
    (test,) = figures["seat_test"]
    assert (test["players"], test["matches"], test["wins"]) == (3, 4, 5)
    assert test["method"] == "exact multinomial" and test["p_value"] == pytest.approx(1)
