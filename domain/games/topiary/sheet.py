"""Topiary's score sheet (RULES.md, Topiary).

Bounds, per seat (never negative: every category adds):
- visitors: a visitor sees the nearest face-up sculpture and then only strictly larger ones
  along one line, so at most 1+2+3+4+5 = 15; a player has 8, 6 or 5 visitors (2, 3, 4 players);
- type bonus: +1 per seen sculpture of a type seen twice or more, at most the 5 it sees;
- hand: three tiles at the end, each scoring only if a larger one of its type is seen, so each
  at most 4: 12.
Winner: highest total; tie: most hand points; still tied: the player later in turn order. So
exactly one winner, checked as far as the sheet's totals and hand points go.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import Refused
from ...plain import PlainMapping
from ..sheeting import Sheet, SheetRules, num

VISITORS = {2: 8, 3: 6, 4: 5}
SEEN_MAX, BONUS_MAX, HAND_MAX = 15, 5, 12


class TopiarySheet(SheetRules):
    game = "topiary"
    tie_rule = "tie: most hand points, then the player later in turn order"

    def categories(
        self, options: PlainMapping, components: object, players: int
    ) -> tuple[str, ...]:
        return ("visitors", "type bonus", "hand")

    def category_max(self, players: int) -> dict[str, int]:
        visitors = VISITORS.get(players, 8)
        return {
            "visitors": visitors * SEEN_MAX,
            "type bonus": visitors * BONUS_MAX,
            "hand": HAND_MAX,
        }

    def bounds(
        self, options: PlainMapping, components: object, players: int, won: bool
    ) -> tuple[float, float]:
        return 0, sum(self.category_max(players).values())

    def check_seats(
        self,
        sheet: Sheet,
        seats: Sequence[str],
        options: PlainMapping,
        components: object,
    ) -> None:
        highest = self.category_max(len(seats))
        for index, entry in enumerate(sheet["scores"]):
            for name, points in ((entry["categories"] if entry else None) or {}).items():
                if not 0 <= points <= highest[name]:
                    raise Refused(
                        f"seat {index + 1} ({seats[index]}): {name} {num(points)} is "
                        f"outside 0 to {highest[name]} (docs/interop.md)"
                    )

    def check_winners(self, sheet: Sheet, seats: Sequence[str]) -> None:
        if len(sheet["winners"]) > 1:
            raise Refused(
                f"winners: Topiary has one winner ({self.tie_rule}), the sheet names "
                f"{', '.join(sheet['winners'])}"
            )
        if not sheet["winners"]:
            raise Refused(
                f"winners: Topiary always has a winner ({self.tie_rule}); the sheet names nobody"
            )
        entries = [e for e in sheet["scores"] if e is not None]
        totals = [e["total"] for e in entries if e["total"] is not None]
        if len(totals) < len(sheet["scores"]):  # a seat without a total: nothing to check
            return
        best = max(totals)
        tied = [i for i, e in enumerate(entries) if e["total"] == best]
        hands = [(entries[i]["categories"] or {}).get("hand") for i in tied]
        basis = "totals"
        known = [h for h in hands if h is not None]
        if len(tied) > 1 and len(known) == len(hands):
            most = max(known)
            tied = [i for i, h in zip(tied, hands) if h == most]
            expected, basis = [seats[tied[-1]]], "totals and hand points"  # later in turn order
        else:
            expected = [seats[i] for i in tied]
        if sheet["winners"][0] not in expected:
            raise Refused(
                f"winners: the sheet names {sheet['winners'][0]}, but by the {basis} "
                f"{' or '.join(expected)} wins ({self.tie_rule})"
            )
