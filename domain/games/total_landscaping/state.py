"""Total Landscaping declared: the cards and what withers what, what a tile holds, the seats and
the bout schedule; and the state of a match built from them. Pure data and small pure functions;
the rules live in `total_landscaping.py`, the gardens' geometry in `hexgarden`.
"""

from __future__ import annotations

import dataclasses

from ..base import per_state
from . import hexgarden as hexes

# ---- the game, declared -------------------------------------------------------------------

CARDS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "White")  # a hand: one of each
WITHERS = {
    "Red": "Orange",
    "Orange": "Yellow",
    "Yellow": "Blue",
    "Blue": "Purple",
    "Purple": "White",
    "White": "Red",
}  # Green plants grass, which is not a flower
LETTER = {colour: colour[0] for colour in WITHERS}  # R O Y B P W
COLOUR_OF = {letter: colour for colour, letter in LETTER.items()}
GRASS = "G"
# A tile is "" (empty), "G" (grass), a flower letter, or "G" + a flower letter (a flower on grass).

# The effects that can fail (negated by White or by card withering). Green only plants grass;
# Blue's precedence is the clash rule of planting, which neither touches (reading); White's own
# effect can never fail.
NEGATABLE = {"Red", "Orange", "Yellow", "Purple"}
PARAMETER = {"Red": "remove", "Yellow": "spread", "Purple": "recolour"}
RED_DISCARDS = 2

SEATS = ("east", "west")  # a seat is named in moves by the garden it tends
GARDEN = ("Eastern garden", "Western garden")
ROLE = ("Elimination Candidate", "Death Match Opponent")
SHORT = ("E", "W")

BOUTS_TO_WIN = 2
ROUNDS = 25
LEVEL_STARTS = {1: 1, 2: 9, 3: 17}  # the round from which each garden level is played
SIX_COLOURS_UNTIL = 8  # rounds 1-8: all six colours in one connected group
PATCH_ROUND, FLOWERS_ROUND, BLUE_ROUND = 16, 22, 25
BLUE_TIE_WINNER = 1  # a Blue tie in round 25 goes to the Death Match Opponent
CONDITIONS = ("six colours connected", "biggest patch", "most flowers", "most Blue")

EMPTY_GARDEN = ("",) * len(hexes.TILES)

# How a hoe meets the opponent's card (option `hoeing`). Version 2 reads the seed: the card's
# "effect will always trigger, unless it involves the tiles selected by the hoe". Version 1 let
# every effect trigger and only then hoed; its matches replay with AFTER_EFFECTS.
STOPS_EFFECTS, AFTER_EFFECTS = "stops-effects", "after-effects"
HOEING = (STOPS_EFFECTS, AFTER_EFFECTS)


def _level_of(round_no: int) -> int:
    return max(level for level, first in LEVEL_STARTS.items() if round_no >= first)


# Asked on every tile of every listing of choices: looked up, not recomputed.
_LEVEL_OF_ROUND = {round_no: _level_of(round_no) for round_no in range(1, ROUNDS + 1)}


def level_of(round_no: int) -> int:
    level = _LEVEL_OF_ROUND.get(round_no)
    return _level_of(round_no) if level is None else level


def flower(tile: str) -> str | None:
    """The colour of the flower on a tile, or None."""
    return COLOUR_OF.get(tile[-1:])


def in_garden(garden: int, tile: int) -> str:
    return f"{hexes.TILES[tile]} in the {GARDEN[garden]}"


def describe_tile(tile: str) -> str:
    colour = flower(tile)
    if colour:
        return f"a {colour} flower" + (" on grass" if tile.startswith(GRASS) else "")
    return "grass" if tile == GRASS else "nothing"


# ---- state --------------------------------------------------------------------------------

# One thing that happened in a round, as a fact rather than a sentence (issue 43): its kind, then
# seats and gardens by name ("east"), tiles by name ("B3"), cards by colour, numbers as numbers:
# ("withered", "west", "D14", "Blue"). `telling.round_lines` words them for a person.
Happening = tuple[str | int, ...]


@dataclasses.dataclass(frozen=True)
class GardenFigures:
    """What the bout-end conditions measure in one garden."""

    flowers: int
    blue: int
    biggest_patch: int  # the largest connected group of one colour
    colours_connected: int  # the most colours in one connected group of flower tiles

    def to_json(self) -> dict[str, int]:
        # Spelled out: every score lists these, and dataclasses.asdict deep-copies its way there.
        return {
            "flowers": self.flowers,
            "blue": self.blue,
            "biggest_patch": self.biggest_patch,
            "colours_connected": self.colours_connected,
        }


@dataclasses.dataclass(frozen=True)
class BoutResult:
    winner: int
    round: int
    condition: str  # one of CONDITIONS
    figures: tuple[GardenFigures, GardenFigures]  # East's garden, West's garden


@dataclasses.dataclass(frozen=True)
class LandscapingState:
    bout: int  # 1-based; the last bout once the match is over
    round: int  # the round awaited (or the one that ended it)
    gardens: tuple[tuple[str, ...], tuple[str, ...]]  # East, West: 37 tiles each, A to D18
    hands: tuple[tuple[str, ...], tuple[str, ...]]  # East's, West's, in CARDS order
    blocked: tuple[int, int] | None = None  # (garden, tile) nobody may choose this round
    bouts: tuple[BoutResult, ...] = ()
    last_round: tuple[Happening, ...] = ()  # what happened in the previous round
    hoeing: str = STOPS_EFFECTS  # the match's option: one of HOEING

    # Asked many times per round (bots, rules, recorder): worked out on first use and kept on
    # the state (`per_state`; a state never changes, so neither does the answer).
    def wins(self, seat: int) -> int:
        return _wins(self)[seat]

    @property
    def over(self) -> bool:
        return _over(self)

    @property
    def level(self) -> int:
        return level_of(self.round)

    @property
    def size(self) -> int:
        """How many tiles the gardens have this round."""
        return _size(self)


@per_state
def _wins(state: LandscapingState) -> tuple[int, int]:
    return (
        sum(result.winner == 0 for result in state.bouts),
        sum(result.winner == 1 for result in state.bouts),
    )


@per_state
def _over(state: LandscapingState) -> bool:
    return max(_wins(state)) >= BOUTS_TO_WIN


@per_state
def _size(state: LandscapingState) -> int:
    return hexes.TILES_AT_LEVEL[level_of(state.round)]


def new_bout(
    bout: int,
    bouts: tuple[BoutResult, ...] = (),
    last_round: tuple[Happening, ...] = (),
    hoeing: str = STOPS_EFFECTS,
) -> LandscapingState:
    return LandscapingState(
        bout=bout,
        round=1,
        gardens=(EMPTY_GARDEN, EMPTY_GARDEN),
        hands=(CARDS, CARDS),
        bouts=bouts,
        last_round=last_round,
        hoeing=hoeing,
    )
