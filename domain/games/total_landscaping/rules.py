"""Total Landscaping (uriquack; The Genius: House of Larks): two gardeners plant flowers in two
growing hexagonal gardens, three bouts to two wins.

Rules as RULES.md reads them. Seat 0, the Elimination Candidate, tends the Eastern garden; seat 1,
the Death Match Opponent, the Western. Both choose in secret, so a round is ONE recorded move
holding both choices: `{"east": CHOICE, "west": CHOICE}`, where CHOICE is a card played onto a
tile of either garden with the card's parameters, or a hoe on two tiles of one's own garden (the
vocabulary is in docs/games/total-landscaping.md). A round resolves in this order:

1. cards leave the hands; each card's effect triggers unless the opponent's White negates it or
   the opponent's card colour withers it (Green and White are exempt);
2. planting: a tile both players chose goes to Blue, else to the colour that withers the other,
   else to nobody, and then nobody may choose it next round;
3. the effects that triggered: Red discards two named cards, Yellow spreads to a named adjacent
   empty tile, Purple turns a named adjacent flower purple, Orange exchanges the hands;
4. withering, all at once: a flower beside a flower of the colour that withers it is removed,
   unless it grows on grass;
5. hoeing clears its two tiles, whatever was planted there this round included; an opponent's
   card whose effect involves a hoed tile (its planting tile, Yellow's spread tile, Purple's
   recoloured flower) did not trigger in step 3 (version 2; option `hoeing=after-effects` is
   version 1's reading, where every effect triggered and the hoe only cleared);
6. the bout-end check, then empty hands are refilled and an Orange exchange takes place (at
   the start of the next round; nothing happens in between).

Readings this engine adds where neither the seed nor RULES.md decides are marked "(reading)" and
listed in the docs. The declared game (cards, tiles, seats, the bout schedule) and the state are
in `total_landscaping_state`, a seat's choice is read in `total_landscaping_moves`, the round's
rules and steps are in `total_landscaping_rounds`; the gardens' geometry lives in `hexgarden`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...plain import PlainMapping
from ...quoting import quoted
from ..base import (
    Component,
    GameRules,
    IllegalMove,
    InvalidSetup,
    Move,
    Moves,
    Outcome,
    seat_score,
)
from ..spelling import as_offered
from . import declaration as declared
from . import fast, moves, rounds
from . import hexgarden as hexes
from .components import components as component_rows
from .declaration import GAME_INFO
from .moves import MOVE_SHAPE, Choice, Hoe, Play

# The game's vocabulary, importable from here as before (tests and the dashboard do).
from .state import (  # noqa: F401
    AFTER_EFFECTS,
    BLUE_ROUND,
    BLUE_TIE_WINNER,
    BOUTS_TO_WIN,
    CARDS,
    COLOUR_OF,
    CONDITIONS,
    EMPTY_GARDEN,
    FLOWERS_ROUND,
    GARDEN,
    GRASS,
    HOEING,
    LETTER,
    LEVEL_STARTS,
    NEGATABLE,
    PARAMETER,
    PATCH_ROUND,
    RED_DISCARDS,
    ROLE,
    ROUNDS,
    SEATS,
    SHORT,
    SIX_COLOURS_UNTIL,
    STOPS_EFFECTS,
    WITHERS,
    BoutResult,
    GardenFigures,
    LandscapingState,
    flower,
    in_garden,
    level_of,
    new_bout,
)
from .telling import round_lines

_ROUND_KEYS = {"east", "west"}
_OPTION_KEYS = {"hoeing"}
_TITLES = tuple((seat, seat.title()) for seat in SEATS)


class TotalLandscaping(GameRules[LandscapingState], declared=declared.GAME_INFO):
    # What the game is (id, name, players, a round of choices made at once) comes from its
    # declaration (declaration.py).
    version = "2"
    components_read_moves = True  # what was drawn or played is gone from the end position
    move_cap = 500  # simulated matches take 32-66 moves (docs/games)
    state_type = LandscapingState

    # ---- setting up -------------------------------------------------------------------------

    def options(self, options: PlainMapping) -> dict[str, str]:
        # Every simulated match starts here: an exact spelling is taken as it is; anything
        # else is structured (and refused in words) by the declaration.
        if type(options) is dict and options.keys() <= _OPTION_KEYS:
            hoeing = options.get("hoeing", STOPS_EFFECTS)
            if type(hoeing) is str and hoeing in HOEING:
                return {"hoeing": hoeing}
        return {"hoeing": GAME_INFO.structure_options(options).hoeing}

    def replay_options(self, rules_version: str, options: PlainMapping) -> dict[str, object]:
        """Version 1 let every card's effect trigger and hoed only afterwards."""
        if rules_version == "1":
            return {**options, "hoeing": AFTER_EFFECTS}
        return super().replay_options(rules_version, options)

    def start(self, seats: int, options: PlainMapping, setup: PlainMapping) -> LandscapingState:
        if seats != 2:
            raise InvalidSetup(
                "Total Landscaping is for 2 players (the Elimination Candidate and "
                f"the Death Match Opponent), not {seats}"
            )
        hoeing = self.options(options)["hoeing"]
        if setup:
            raise InvalidSetup(
                "Total Landscaping starts with empty gardens and full hands: it takes no setup"
            )
        return new_bout(1, hoeing=hoeing)

    # ---- the round's rules (total_landscaping_rounds) ---------------------------------------

    negated = staticmethod(rounds.negated)
    hoed_off = staticmethod(rounds.hoed_off)
    clash_winner = staticmethod(rounds.clash_winner)
    withered = staticmethod(rounds.withered)
    figures = staticmethod(rounds.figures)

    def decide(self, round_no: int, gardens: Sequence[Sequence[str]]) -> tuple[int, str] | None:
        """The bout's winner and the condition, if this round's end decides it."""
        return rounds.decide(round_no, gardens)

    # ---- playing ----------------------------------------------------------------------------

    def _parse_round(
        self, state: LandscapingState, move: object
    ) -> tuple[tuple[Choice, Choice], tuple[bool, bool], tuple[bool, bool]]:
        """The two choices, and per seat whether its effect is negated and whether a hoe stops
        it (asked once here, where the parameters a triggered effect needs are checked)."""
        if state.over:
            raise IllegalMove(f"the match is over: {self._match_result(state)}")
        # A plain dict with exactly the two gardens is a Round (its only keys); else ask.
        if not (type(move) is dict and move.keys() == _ROUND_KEYS) and (
            not isinstance(move, Mapping) or GAME_INFO.move_shape(move) is not declared.Round
        ):
            raise IllegalMove(MOVE_SHAPE + f"; got {quoted(move)}")
        assert isinstance(move, Mapping)
        # A well-formed choice is read by the fast path; anything else by the parser, in the
        # same order, so a refusal is the one the parser gives.
        east = fast.choice(state, 0, move["east"]) or moves.parse_choice(state, 0, move["east"])
        west = fast.choice(state, 1, move["west"]) or moves.parse_choice(state, 1, move["west"])
        choices = (east, west)
        negated, hoed = fast.failing(choices, state.hoeing)
        # Parameters a triggered effect needs; an effect that fails (negated, or stopped by the
        # hoe, which both players see before naming them) may leave them out.
        for choice, fails in zip(choices, (negated[0] or hoed[0], negated[1] or hoed[1])):
            if not isinstance(choice, Play) or fails:
                continue
            rest = len(state.hands[choice.seat]) - 1
            if choice.card == "Red" and choice.remove is None and rest:
                raise IllegalMove(
                    f"the {ROLE[choice.seat]}'s Red takes effect: name "
                    f"{min(RED_DISCARDS, rest)} cards of the hand to remove"
                )
            if (
                choice.card == "Yellow"
                and choice.spread is None
                and moves.spreads(state, choice.garden, choice.tile)
            ):
                raise IllegalMove(
                    f"the {ROLE[choice.seat]}'s Yellow takes effect: name the "
                    f"adjacent empty tile of the {GARDEN[choice.garden]} "
                    "it spreads to"
                )
        return choices, negated, hoed

    def apply(self, state: LandscapingState, move: PlainMapping) -> LandscapingState:
        choices, negated, hoed = self._parse_round(state, move)
        log = rounds.chosen(choices)  # what happens, as facts (`telling` words them)
        if True in negated:
            log += [
                ("negated", SEATS[c.seat], c.card)
                for c, off in zip(choices, negated)
                if off and isinstance(c, Play)
            ]
        if True in hoed:
            log += [
                ("hoed-off", SEATS[c.seat], c.card, SEATS[c.garden], *_tiles(c))
                for c, off in zip(choices, hoed)
                if off and isinstance(c, Play)
            ]
        failing = (negated[0] or hoed[0], negated[1] or hoed[1])
        # The round works on fresh copies; the state itself is never touched.
        gardens = [list(state.gardens[0]), list(state.gardens[1])]
        hands = [
            [
                card
                for card in state.hands[seat]
                if not (isinstance(choice, Play) and card == choice.card)
            ]
            for seat, choice in zip((0, 1), choices)
        ]
        blocked = rounds.plant(gardens, choices, log)
        exchange = rounds.trigger(gardens, hands, choices, failing, log)
        rounds.wither(gardens, log)
        for choice in choices:  # hoeing, strictly last
            if isinstance(choice, Hoe):
                for tile in choice.tiles:
                    gardens[choice.seat][tile] = ""
        return rounds.end_round(
            state, (tuple(gardens[0]), tuple(gardens[1])), hands, blocked, exchange, log
        )

    # ---- what may be played -----------------------------------------------------------------

    def to_move(self, state: LandscapingState) -> tuple[int, ...]:
        return () if state.over else (0, 1)

    def legal_moves(self, state: LandscapingState) -> list[Move]:
        """Empty once the match is over; otherwise refused: a round is the product of both
        seats' choices (often millions). List each seat's with `choices`, join with `combine`."""
        if state.over:
            return []
        raise NotImplementedError(
            "Total Landscaping is simultaneous: list each seat's options "
            "with choices(state, seat) and join two with combine()"
        )

    def choices(self, state: LandscapingState, seat: int) -> list[Move]:
        """Every choice of `seat` that is legal whatever the other seat chooses: a card on each
        tile it may be planted on, in every way its parameters allow (`moves.with_parameters`),
        then the hoes (listed by `fast.choices`)."""
        if state.over:
            return []
        return fast.choices(state, seat)

    def random_choice(self, state: LandscapingState, seat: int, rng: random.Random) -> Move:
        """A card (or the hoe) first, then where and how: a player picks Red as often as Blue,
        not one of Red's fifteen ways to name two cards every time. Uniform over the chosen
        card's entries in `choices`, in their order, but only the one drawn is built (the draws
        of `rng` are those of a choice over the listed `choices`; `fast.draw`)."""
        return fast.draw(state, seat, rng)

    def combine(self, state: LandscapingState, choices: Mapping[int, Move]) -> Move:
        return {SEATS[seat]: dict(choices[seat]) for seat in (0, 1)}

    # ---- scoring ----------------------------------------------------------------------------

    def score(self, state: LandscapingState) -> list[dict[str, Any]]:
        """Total: bouts won; categories: bouts won by each condition; details: every bout's
        round, condition and garden figures, and the gardens as they stand."""
        entries = []
        for seat in (0, 1):
            won = [b for b in state.bouts if b.winner == seat]
            categories = {
                condition: sum(b.condition == condition for b in won) for condition in CONDITIONS
            }
            bouts = [
                {
                    "bout": n,
                    "won": b.winner == seat,
                    "round": b.round,
                    "condition": b.condition,
                    "own_garden": b.figures[seat].to_json(),
                    "other_garden": b.figures[1 - seat].to_json(),
                }
                for n, b in enumerate(state.bouts, start=1)
            ]
            entries.append(
                seat_score(
                    len(won),
                    categories,
                    role=ROLE[seat],
                    garden=GARDEN[seat],
                    bouts=bouts,
                    garden_now=self.figures(state.gardens[seat]).to_json(),
                    hand=list(state.hands[seat]),
                )
            )
        return entries

    def totals(self, state: LandscapingState) -> list[float]:
        """`score`'s totals, the bouts won, without its details (the recorder asks every move)."""
        return [float(state.wins(0)), float(state.wins(1))]

    def outcome(self, state: LandscapingState) -> Outcome | None:
        if not state.over:
            return None
        winner = 0 if state.wins(0) >= BOUTS_TO_WIN else 1
        return Outcome((winner,), ((winner,), (1 - winner,)), self._match_result(state))

    def _match_result(self, state: LandscapingState, seats: Sequence[str] = ROLE) -> str:
        """`"the Elimination Candidate (east) wins the match 2-1 (bout 1: ...)"`."""
        winner = 0 if state.wins(0) >= BOUTS_TO_WIN else 1
        bouts = "; ".join(
            f"bout {n}: {SEATS[b.winner]}, round {b.round}, {b.condition}"
            for n, b in enumerate(state.bouts, start=1)
        )
        who = f"the {ROLE[winner]}" if seats is ROLE else seats[winner]
        return (
            f"{who} ({SEATS[winner]}) wins the match "
            f"{state.wins(winner)}-{state.wins(1 - winner)} ({bouts})"
        )

    def evaluate(self, state: LandscapingState, seat: int) -> float:
        """Bouts won first; within a bout, the lead in what the next check measures: colours
        connected in rounds 1-8, biggest patch until 16, flowers until 22, then Blue (where a tie
        favours the Death Match Opponent)."""
        lead = 100.0 * (state.wins(seat) - state.wins(1 - seat))
        if state.over:
            return lead * 10
        mine, theirs = self.figures(state.gardens[seat]), self.figures(state.gardens[1 - seat])
        field = (
            "colours_connected"
            if state.round <= SIX_COLOURS_UNTIL
            else "biggest_patch"
            if state.round <= PATCH_ROUND
            else "flowers"
            if state.round <= FLOWERS_ROUND
            else "blue"
        )
        lead += getattr(mine, field) - getattr(theirs, field)
        if field == "blue":
            lead += 0.5 if seat == BLUE_TIE_WINNER else -0.5
        return lead

    # ---- describing -------------------------------------------------------------------------

    def move_kind(self, move: PlainMapping) -> str:
        """`"Red v hoe"`: East's card (or hoe) against West's."""
        kinds = []
        for seat in SEATS:
            choice = move.get(seat) if isinstance(move, Mapping) else None
            kinds.append(
                "hoe"
                if isinstance(choice, Mapping) and "hoe" in choice
                else str(choice.get("card"))
                if isinstance(choice, Mapping)
                else "?"
            )
        return " v ".join(kinds)

    def typed_move(self, state: LandscapingState, move: object, seats: Sequence[str]) -> Any:
        """Each garden's choice as that seat's offered choice it spells in any case (a round's
        every combination is too many to list)."""
        if not isinstance(move, Mapping) or state.over:
            return move
        return {
            garden: as_offered(choice, self.choices(state, SEATS.index(garden)))
            if garden in SEATS
            else choice
            for garden, choice in move.items()
        }

    def describe(self, move: PlainMapping, seats: Sequence[str] = ()) -> str:
        parts = []
        # Asked of every recorded move: titles made once, a plain dict (every recorded move)
        # told by its type before the slower check against the abstract Mapping.
        mapping = type(move) is dict or isinstance(move, Mapping)
        for seat, title in _TITLES:
            choice = move.get(seat, {}) if mapping else {}
            if type(choice) is not dict and not isinstance(choice, Mapping):
                parts.append(f"{title}: ?")
            elif "hoe" in choice:
                parts.append(f"{title} hoes {' and '.join(map(str, choice['hoe']))}")
            else:
                garden = str(choice.get("garden", "?")).lower()
                text = f"{title} plays {choice.get('card')} on {choice.get('tile')} in the "
                text += f"{garden} garden"
                if choice.get("remove") is not None:
                    text += f" removing {' and '.join(map(str, choice['remove'])) or 'nothing'}"
                if choice.get("spread") is not None:
                    text += f" spreading to {choice['spread']}"
                if choice.get("recolour") is not None:
                    text += f" turning {choice['recolour']} purple"
                parts.append(text)
        return "; ".join(parts)

    def decode(self, data: PlainMapping) -> LandscapingState:
        """`GameRules.decode`, refusing a state whose last round is told in sentences (written
        before issue 43; the facts cannot be read back out of them): a snapshot holding one
        is not used, and its match replays from its events, which hold the moves."""
        last_round = data.get("last_round") or ()
        if isinstance(last_round, Iterable) and any(isinstance(h, str) for h in last_round):
            raise ValueError("a state from before issue 43: its last round is text, not facts")
        return super().decode(data)

    def render(self, state: LandscapingState, seats: Sequence[str]) -> str:
        level, width = state.level, 5
        drawn = []
        for garden in (1, 0):  # West on the left, East on the right, as on a map
            labels = [
                f"{hexes.TILES[t]}:{_symbol(state.gardens[garden][t])}"
                + ("#" if state.blocked == (garden, t) else "")
                for t in range(len(hexes.TILES))
            ]
            drawn.append(hexes.draw(labels, level, width))
        titles = [f"{GARDEN[g]}: {seats[g]}, {ROLE[g]}" for g in (1, 0)]
        span = max((2 * level + 1) * width, len(titles[0])) + 4
        lines = [
            f"Total Landscaping, bout {state.bout}, round {state.round} of {ROUNDS}, "
            f"gardens LVL{level}; bouts won: {seats[0]} {state.wins(0)}, "
            f"{seats[1]} {state.wins(1)}",
            "",
        ]
        lines.append(f"{titles[0]:<{span}}{titles[1]}")
        lines += [f"{left:<{span}}{right}" for left, right in zip(*drawn)]
        lines.append("")
        lines.append(
            ". empty  g grass  R O Y B P W flowers (lowercase: on grass, never withers)"
            "  # blocked this round"
        )
        for g in (0, 1):
            fig = self.figures(state.gardens[g])
            hand = " ".join(state.hands[g]) or "(empty)"
            lines.append(
                f"{seats[g]} ({SEATS[g]}): hand {hand}; garden: "
                f"{fig.flowers} flowers, {fig.blue} Blue, biggest patch "
                f"{fig.biggest_patch}, {fig.colours_connected} colours connected"
            )
        for n, b in enumerate(state.bouts, start=1):
            lines.append(
                f"bout {n}: {seats[b.winner]} ({SEATS[b.winner]}) in round {b.round}, {b.condition}"
            )
        if state.last_round:
            lines.append("last round: " + "; ".join(round_lines(state.last_round)))
        if state.over:
            lines.append(self._match_result(state, seats))
        else:
            lines.append(f"this bout is decided by: {_next_check(state.round)}")
        return "\n".join(lines)

    def components(
        self, state: LandscapingState, scores: list[dict[str, Any]], moves: Moves
    ) -> list[list[Component]]:
        return component_rows(state, scores, moves)


def _tiles(play: Play) -> list[str]:
    """The tiles a card's effect involves (all in the garden it is played in), by name."""
    return [hexes.TILES[t] for _, t in sorted(rounds.effect_tiles(play))]


def _symbol(tile: str) -> str:
    colour = flower(tile)
    if colour:
        return LETTER[colour].lower() if tile.startswith(GRASS) else LETTER[colour]
    return "g" if tile == GRASS else "."


def _next_check(round_no: int) -> str:
    if round_no <= SIX_COLOURS_UNTIL:
        return f"all six colours connected (checked after every round until {SIX_COLOURS_UNTIL})"
    if round_no <= PATCH_ROUND:
        return f"the biggest one-colour patch after round {PATCH_ROUND}"
    if round_no <= FLOWERS_ROUND:
        return f"the most flowers after round {FLOWERS_ROUND}"
    return (
        f"the most Blue flowers after round {BLUE_ROUND} (a tie goes to the Death Match Opponent)"
    )


RULES = TotalLandscaping()
