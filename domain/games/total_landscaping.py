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
5. hoeing clears its two tiles, whatever was planted there this round included;
6. the bout-end check, then empty hands are refilled and an Orange exchange takes place (at
   the start of the next round; nothing happens in between).

Readings this engine adds where neither the seed nor RULES.md decides are marked "(reading)" and
listed in the docs. The gardens' geometry lives in `hexgarden`.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Union

from . import hexgarden as hexes
from .base import GameRules, IllegalMove, InvalidSetup, Move, Outcome, seat_score

# ---- the game, declared -------------------------------------------------------------------

CARDS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "White")  # a hand: one of each
WITHERS = {"Red": "Orange", "Orange": "Yellow", "Yellow": "Blue", "Blue": "Purple",
           "Purple": "White", "White": "Red"}  # Green plants grass, which is not a flower
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

SEATS = ("east", "west")              # a seat is named in moves by the garden it tends
GARDEN = ("Eastern garden", "Western garden")
ROLE = ("Elimination Candidate", "Death Match Opponent")
SHORT = ("E", "W")

BOUTS_TO_WIN = 2
ROUNDS = 25
LEVEL_STARTS = {1: 1, 2: 9, 3: 17}    # the round from which each garden level is played
SIX_COLOURS_UNTIL = 8                 # rounds 1-8: all six colours in one connected group
PATCH_ROUND, FLOWERS_ROUND, BLUE_ROUND = 16, 22, 25
BLUE_TIE_WINNER = 1                   # a Blue tie in round 25 goes to the Death Match Opponent
CONDITIONS = ("six colours connected", "biggest patch", "most flowers", "most Blue")

EMPTY_GARDEN = ("",) * len(hexes.TILES)


def level_of(round_no: int) -> int:
    return max(level for level, first in LEVEL_STARTS.items() if round_no >= first)


def flower(tile: str) -> str | None:
    """The colour of the flower on a tile, or None."""
    return COLOUR_OF.get(tile[-1:])


def where(garden: int, tile: int) -> str:
    return f"{SHORT[garden]}:{hexes.TILES[tile]}"


def in_garden(garden: int, tile: int) -> str:
    return f"{hexes.TILES[tile]} in the {GARDEN[garden]}"


def _describe_tile(tile: str) -> str:
    colour = flower(tile)
    if colour:
        return f"a {colour} flower" + (" on grass" if tile.startswith(GRASS) else "")
    return "grass" if tile == GRASS else "nothing"


# ---- state --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class GardenFigures:
    """What the bout-end conditions measure in one garden."""
    flowers: int
    blue: int
    biggest_patch: int        # the largest connected group of one colour
    colours_connected: int    # the most colours in one connected group of flower tiles

    def to_json(self) -> dict[str, int]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class BoutResult:
    winner: int
    round: int
    condition: str                                 # one of CONDITIONS
    figures: tuple[GardenFigures, GardenFigures]   # East's garden, West's garden


@dataclasses.dataclass(frozen=True)
class LandscapingState:
    bout: int                                      # 1-based; the last bout once the match is over
    round: int                                     # the round awaited (or the one that ended it)
    gardens: tuple[tuple[str, ...], tuple[str, ...]]  # East, West: 37 tiles each, A to D18
    hands: tuple[tuple[str, ...], tuple[str, ...]]    # East's, West's, in CARDS order
    blocked: tuple[int, int] | None = None         # (garden, tile) nobody may choose this round
    bouts: tuple[BoutResult, ...] = ()
    last_round: tuple[str, ...] = ()               # what happened in the previous round

    def wins(self, seat: int) -> int:
        return sum(result.winner == seat for result in self.bouts)

    @property
    def over(self) -> bool:
        return max(self.wins(0), self.wins(1)) >= BOUTS_TO_WIN

    @property
    def level(self) -> int:
        return level_of(self.round)

    @property
    def size(self) -> int:
        """How many tiles the gardens have this round."""
        return hexes.TILES_AT_LEVEL[self.level]


def new_bout(bout: int, bouts: tuple[BoutResult, ...] = (),
             last_round: tuple[str, ...] = ()) -> LandscapingState:
    return LandscapingState(bout=bout, round=1, gardens=(EMPTY_GARDEN, EMPTY_GARDEN),
                            hands=(CARDS, CARDS), bouts=bouts, last_round=last_round)


# ---- a seat's choice, parsed --------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Play:
    seat: int
    card: str
    garden: int
    tile: int
    remove: tuple[str, ...] | None = None   # Red
    spread: int | None = None               # Yellow, a tile of the same garden
    recolour: int | None = None             # Purple, a tile of the same garden


@dataclasses.dataclass(frozen=True)
class Hoe:
    seat: int
    tiles: tuple[int, int]


Choice = Union[Play, Hoe]

MOVE_SHAPE = ('a Total Landscaping move is one round: {"east": CHOICE, "west": CHOICE}, a CHOICE '
              'being {"card": COLOUR, "garden": "east"|"west", "tile": TILE, ...parameters} '
              'or {"hoe": [TILE, TILE]}')


def _name(value: object, allowed: Sequence[str], what: str) -> str:
    """Case-insensitive match of a name against the allowed spellings."""
    if isinstance(value, str):
        for name in allowed:
            if value.lower() == name.lower():
                return name
    raise IllegalMove(f"{what} must be one of {', '.join(allowed)}, not {value!r}")


def _tile(state: LandscapingState, garden: int, value: object) -> int:
    index = hexes.INDEX.get(value.upper()) if isinstance(value, str) else None
    if index is None:
        raise IllegalMove(f"{value!r} is not a tile: tiles are {hexes.level_tiles(3)}")
    if index >= state.size:
        raise IllegalMove(
            f"{hexes.TILES[index]} is not in the {GARDEN[garden]} in round {state.round}: "
            f"the gardens are LVL{state.level} ({hexes.level_tiles(state.level)}) until they grow")
    return index


class TotalLandscaping(GameRules[LandscapingState]):
    id = "total-landscaping"
    name = "Total Landscaping"
    version = "1"
    min_players = max_players = 2
    state_type = LandscapingState
    simultaneous = True

    # ---- setting up -------------------------------------------------------------------------

    def start(self, seats: int, options: Mapping[str, Any],
              setup: Mapping[str, Any]) -> LandscapingState:
        if seats != 2:
            raise InvalidSetup("Total Landscaping is for 2 players (the Elimination Candidate and "
                               f"the Death Match Opponent), not {seats}")
        self.options(options)
        if setup:
            raise InvalidSetup("Total Landscaping starts with empty gardens and full hands: "
                               "it takes no setup")
        return new_bout(1)

    # ---- reading a choice -------------------------------------------------------------------

    def _parse_choice(self, state: LandscapingState, seat: int, raw: object) -> Choice:
        who = f"the {ROLE[seat]} ({SEATS[seat]})"
        if not isinstance(raw, Mapping):
            raise IllegalMove(f"{who}'s choice must be a card or a hoe; " + MOVE_SHAPE)
        if "hoe" in raw:
            if set(raw) != {"hoe"}:
                raise IllegalMove('a hoe is {"hoe": [TILE, TILE]}, got keys '
                                  f"{sorted(map(str, raw))}")
            return self._parse_hoe(state, seat, raw["hoe"])
        if "card" in raw:
            return self._parse_play(state, seat, raw)
        raise IllegalMove(f"{who} must play a card or hoe; " + MOVE_SHAPE)

    def _parse_hoe(self, state: LandscapingState, seat: int, raw: object) -> Hoe:
        if not isinstance(raw, list | tuple) or len(raw) != 2:
            raise IllegalMove(f"a hoe names two tiles of one's own garden, got {raw!r}")
        tiles = (_tile(state, seat, raw[0]), _tile(state, seat, raw[1]))
        for tile in tiles:
            if not state.gardens[seat][tile]:
                raise IllegalMove(f"{in_garden(seat, tile)} has nothing planted: a hoe destroys "
                                  "only tiles where something is already planted")
        if not hexes.adjacent(*tiles):
            raise IllegalMove(f"{hexes.TILES[tiles[0]]} and {hexes.TILES[tiles[1]]} are not "
                              "adjacent: a hoe destroys two adjacent tiles")
        return Hoe(seat, tiles)

    def _parse_play(self, state: LandscapingState, seat: int, raw: Mapping[str, Any]) -> Play:
        card = _name(raw["card"], CARDS, "a card")
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalMove(f"{card} is not in the {ROLE[seat]}'s hand "
                              f"({', '.join(hand)})")
        allowed = {"card", "garden", "tile"} | ({PARAMETER[card]} if card in PARAMETER else set())
        if not {"garden", "tile"} <= set(raw) <= allowed:
            extra = ", ".join(sorted(set(raw) - allowed))
            raise IllegalMove(f"{card} is played onto a garden and a tile"
                              + (f"; {extra} is not a parameter of {card}" if extra else "")
                              + f"; got keys {sorted(map(str, raw))}")
        garden = SEATS.index(_name(raw["garden"], SEATS, "the garden"))
        tile = _tile(state, garden, raw["tile"])
        error = self._planting_error(state, card, garden, tile)
        if error:
            raise IllegalMove(error)
        play = Play(seat, card, garden, tile)
        if raw.get("remove") is not None:
            play = dataclasses.replace(play, remove=self._parse_remove(state, seat, raw["remove"]))
        if raw.get("spread") is not None:
            spread = _tile(state, garden, raw["spread"])
            error = self._spread_error(state, garden, tile, spread)
            if error:
                raise IllegalMove(error)
            play = dataclasses.replace(play, spread=spread)
        if raw.get("recolour") is not None:
            target = _tile(state, garden, raw["recolour"])
            if not hexes.adjacent(tile, target):
                raise IllegalMove(f"Purple turns an adjacent flower purple: {hexes.TILES[target]} "
                                  f"is not adjacent to {hexes.TILES[tile]}")
            content = state.gardens[garden][target]
            if not flower(content):
                raise IllegalMove("Purple turns an existing flower purple: "
                                  f"{in_garden(garden, target)} holds {_describe_tile(content)}")
            play = dataclasses.replace(play, recolour=target)
        return play

    def _parse_remove(self, state: LandscapingState, seat: int, raw: object) -> tuple[str, ...]:
        rest = [card for card in state.hands[seat] if card != "Red"]
        count = min(RED_DISCARDS, len(rest))
        if not isinstance(raw, list | tuple):
            raise IllegalMove(f"Red names {count} cards of its player's hand as a list, "
                              f"got {raw!r}")
        names = tuple(_name(card, CARDS, "a card Red names") for card in raw)
        if len(set(names)) != len(names) or len(names) != count:
            raise IllegalMove(f"Red names {count} different cards in hand "
                              f"(the rest of the hand: {', '.join(rest) or 'none'}), "
                              f"got {list(raw)}")
        for card in names:
            if card not in rest:
                raise IllegalMove(f"Red names cards in its player's hand: {card} is not there "
                                  f"(the rest of the hand: {', '.join(rest) or 'none'})")
        return tuple(sorted(names, key=CARDS.index))

    def _planting_error(self, state: LandscapingState, card: str, garden: int,
                        tile: int) -> str | None:
        if state.blocked == (garden, tile):
            return (f"{in_garden(garden, tile)} cannot be chosen this round: last round both "
                    "players chose it and nobody planted there")
        content = state.gardens[garden][tile]
        if content == "" or (content == GRASS and card != "Green"):
            return None
        return (f"{in_garden(garden, tile)} holds {_describe_tile(content)}: "
                + ("Green is planted on empty tiles only" if content == GRASS
                   else "a card plants on an empty tile, or a flower on grass"))

    def _spread_error(self, state: LandscapingState, garden: int, tile: int,
                      spread: int) -> str | None:
        if not hexes.adjacent(tile, spread):
            return (f"Yellow spreads to an adjacent tile: {hexes.TILES[spread]} is not adjacent "
                    f"to {hexes.TILES[tile]}")
        if state.gardens[garden][spread]:
            return (f"Yellow spreads to an empty tile: {in_garden(garden, spread)} holds "
                    f"{_describe_tile(state.gardens[garden][spread])}")
        if state.blocked == (garden, spread):
            return (f"Yellow cannot spread to {in_garden(garden, spread)}: it cannot be chosen "
                    "this round after last round's clash")
        return None

    def _spreads(self, state: LandscapingState, garden: int, tile: int) -> list[int]:
        """The tiles a Yellow planted on `tile` may spread to."""
        return [n for n in hexes.NEIGHBOURS[tile]
                if n < state.size and self._spread_error(state, garden, tile, n) is None]

    # ---- the round's rules ------------------------------------------------------------------

    @staticmethod
    def negated(choices: tuple[Choice, Choice]) -> tuple[bool, bool]:
        """Per seat: is its card's effect negated (by White, or by card withering)?"""
        result = []
        for mine, theirs in (choices, choices[::-1]):
            if not (isinstance(mine, Play) and isinstance(theirs, Play) and mine.card in NEGATABLE):
                result.append(False)
            else:
                result.append(theirs.card == "White" or WITHERS.get(theirs.card) == mine.card)
        return result[0], result[1]

    @staticmethod
    def clash_winner(first: str, second: str) -> int | None:
        """Which of two cards takes a tile both chose (0 or 1), or None: nobody plants."""
        if (first == "Blue") != (second == "Blue"):
            return 0 if first == "Blue" else 1
        if first != "Blue":
            if WITHERS.get(first) == second:
                return 0
            if WITHERS.get(second) == first:
                return 1
        return None

    @staticmethod
    @functools.lru_cache(maxsize=8192)
    def withered(garden: tuple[str, ...]) -> tuple[int, ...]:
        """Tiles whose flower withers now: beside a flower of the colour that withers it, and not
        on grass. Computed on the whole garden at once, so removals do not save anyone.
        (Cached: gardens are immutable tuples and the same ones come back often.)"""
        gone = []
        for tile, content in enumerate(garden):
            colour = flower(content)
            if colour and not content.startswith(GRASS) and any(
                    WITHERS.get(flower(garden[n]) or "") == colour for n in hexes.NEIGHBOURS[tile]):
                gone.append(tile)
        return tuple(gone)

    @staticmethod
    @functools.lru_cache(maxsize=8192)
    def figures(garden: tuple[str, ...]) -> GardenFigures:
        """Gardens are immutable tuples and bots ask about the same ones again and again."""
        colours = [flower(content) for content in garden]
        patches = hexes.groups(colours)
        flower_groups = hexes.groups([colour and "flower" for colour in colours])
        return GardenFigures(
            flowers=sum(map(bool, colours)),
            blue=colours.count("Blue"),
            biggest_patch=max(map(len, patches), default=0),
            colours_connected=max((len({colours[t] for t in group}) for group in flower_groups),
                                  default=0))

    def decide(self, round_no: int, gardens: Sequence[Sequence[str]]) -> tuple[int, str] | None:
        """The bout's winner and the condition, if this round's end decides it."""
        east, west = (self.figures(g) for g in gardens)
        if round_no <= SIX_COLOURS_UNTIL:
            done = (east.colours_connected == len(WITHERS), west.colours_connected == len(WITHERS))
            # Both at once: not fulfilled this round; later rounds of LVL1 check again (reading).
            if done[0] != done[1]:
                return (0 if done[0] else 1), CONDITIONS[0]
        for at, field, condition in ((PATCH_ROUND, "biggest_patch", CONDITIONS[1]),
                                     (FLOWERS_ROUND, "flowers", CONDITIONS[2]),
                                     (BLUE_ROUND, "blue", CONDITIONS[3])):
            if round_no == at:
                mine, theirs = getattr(east, field), getattr(west, field)
                if mine != theirs:
                    return (0 if mine > theirs else 1), condition
                if at == BLUE_ROUND:
                    return BLUE_TIE_WINNER, condition
        return None

    # ---- playing ----------------------------------------------------------------------------

    def _parse_round(self, state: LandscapingState, move: object) -> tuple[Choice, Choice]:
        if state.over:
            raise IllegalMove(f"the match is over: {self._match_result(state)}")
        if not isinstance(move, Mapping) or set(move) != set(SEATS):
            raise IllegalMove(MOVE_SHAPE + f"; got {move!r}")
        choices = (self._parse_choice(state, 0, move["east"]),
                   self._parse_choice(state, 1, move["west"]))
        # Parameters a triggered effect needs; a negated effect may leave them out.
        for choice, negated in zip(choices, self.negated(choices)):
            if not isinstance(choice, Play) or negated:
                continue
            rest = len(state.hands[choice.seat]) - 1
            if choice.card == "Red" and choice.remove is None and rest:
                raise IllegalMove(f"the {ROLE[choice.seat]}'s Red takes effect: name "
                                  f"{min(RED_DISCARDS, rest)} cards of the hand to remove")
            if (choice.card == "Yellow" and choice.spread is None
                    and self._spreads(state, choice.garden, choice.tile)):
                raise IllegalMove(f"the {ROLE[choice.seat]}'s Yellow takes effect: name the "
                                  f"adjacent empty tile of the {GARDEN[choice.garden]} "
                                  "it spreads to")
        return choices

    def apply(self, state: LandscapingState, move: Mapping[str, Any]) -> LandscapingState:
        choices = self._parse_round(state, move)
        negated = self.negated(choices)
        log = [self.describe(move)] + [f"{SEATS[c.seat].title()}'s {c.card} effect is negated"
                                       for c, off in zip(choices, negated) if off]
        # The round works on fresh copies; the state itself is never touched.
        gardens = [list(state.gardens[0]), list(state.gardens[1])]
        hands = [[card for card in state.hands[seat]
                  if not (isinstance(choices[seat], Play) and card == choices[seat].card)]
                 for seat in (0, 1)]
        blocked = self._plant(gardens, choices, log)
        exchange = self._trigger(gardens, hands, choices, negated, log)
        self._wither(gardens, log)
        for choice in choices:  # hoeing, strictly last
            if isinstance(choice, Hoe):
                for tile in choice.tiles:
                    gardens[choice.seat][tile] = ""
        return self._end_round(state, (tuple(gardens[0]), tuple(gardens[1])), hands, blocked,
                               exchange, log)

    def _plant(self, gardens: list[list[str]], choices: tuple[Choice, Choice],
               log: list[str]) -> tuple[int, int] | None:
        """Plant the cards; a tile both chose goes to the clash winner or to nobody, and then
        it is returned as next round's blocked tile."""
        plays = [c for c in choices if isinstance(c, Play)]
        blocked = None
        if len(plays) == 2 and (plays[0].garden, plays[0].tile) == (plays[1].garden, plays[1].tile):
            winner = self.clash_winner(plays[0].card, plays[1].card)
            spot = where(plays[0].garden, plays[0].tile)
            if winner is None:
                plays, blocked = [], (plays[0].garden, plays[0].tile)
                log.append(f"clash on {spot}: nobody plants; it cannot be chosen next round")
            else:
                plays = [plays[winner]]
                log.append(f"clash on {spot}: {plays[0].card} takes it")
        for play in plays:
            before = gardens[play.garden][play.tile]
            gardens[play.garden][play.tile] = (GRASS if play.card == "Green"
                                               else before + LETTER[play.card])
        return blocked

    def _trigger(self, gardens: list[list[str]], hands: list[list[str]],
                 choices: tuple[Choice, Choice], negated: tuple[bool, bool],
                 log: list[str]) -> bool:
        """The effects that were not negated; returns whether an Orange exchanges the hands.
        A card that lost its tile in a clash keeps its effect: only negation stops one (reading)."""
        exchange = False
        for play, off in zip(choices, negated):
            if not isinstance(play, Play) or off:
                continue
            other = choices[1 - play.seat]
            if play.card == "Red" and play.remove:
                hands[play.seat] = [c for c in hands[play.seat] if c not in play.remove]
                log.append(f"{SEATS[play.seat].title()} removes {' and '.join(play.remove)}")
            elif play.card == "Orange":
                exchange = True  # two Oranges exchange the hands once (reading)
            elif play.card == "Yellow" and play.spread is not None:
                spot = where(play.garden, play.spread)
                if isinstance(other, Play) and (other.garden, other.tile) == (play.garden,
                                                                              play.spread):
                    log.append(f"Yellow does not spread to {spot}: the opponent planted there")
                else:
                    gardens[play.garden][play.spread] = LETTER["Yellow"]
                    log.append(f"Yellow spreads to {spot}")
            elif play.card == "Purple" and play.recolour is not None:
                content = gardens[play.garden][play.recolour]
                gardens[play.garden][play.recolour] = content[:-1] + LETTER["Purple"]
                log.append(f"Purple turns {where(play.garden, play.recolour)} purple")
        return exchange

    def _wither(self, gardens: list[list[str]], log: list[str]) -> None:
        for g, garden in enumerate(gardens):
            gone = self.withered(tuple(garden))
            if gone:
                log.append("withered: " + ", ".join(f"{where(g, t)} ({flower(garden[t])})"
                                                     for t in gone))
            for tile in gone:
                garden[tile] = ""

    def _end_round(self, state: LandscapingState, gardens: tuple[tuple[str, ...], ...],
                   hands: list[list[str]], blocked: tuple[int, int] | None, exchange: bool,
                   log: list[str]) -> LandscapingState:
        """The bout-end check; then the next bout, the end of the match, or the next round
        with empty hands refilled and an Orange exchange made."""
        decided = self.decide(state.round, gardens)  # round 25 always decides
        if decided is not None:
            winner, condition = decided
            result = BoutResult(winner, state.round, condition,
                                (self.figures(gardens[0]), self.figures(gardens[1])))
            log.append(f"bout {state.bout} to the {ROLE[winner]} ({SEATS[winner]}) in round "
                       f"{state.round}: {condition}")
            ended = dataclasses.replace(state, bouts=state.bouts + (result,), last_round=tuple(log))
            if not ended.over:  # a blocked tile or a pending exchange lapses (reading)
                return new_bout(state.bout + 1, ended.bouts, ended.last_round)
            # The match is over: the deciding gardens stay on show.
            return dataclasses.replace(ended, gardens=gardens, blocked=None,
                                       hands=(tuple(hands[0]), tuple(hands[1])))
        for seat in (0, 1):
            if not hands[seat]:
                hands[seat] = list(CARDS)
                log.append(f"{SEATS[seat].title()}'s hand is empty: a fresh seven")
        if exchange:  # at the start of the next round: nothing happens in between
            hands.reverse()
            log.append("Orange: the hands are exchanged")
        return dataclasses.replace(
            state, round=state.round + 1, gardens=gardens, blocked=blocked,
            hands=tuple(tuple(sorted(h, key=CARDS.index)) for h in hands), last_round=tuple(log))

    # ---- what may be played -----------------------------------------------------------------

    def to_move(self, state: LandscapingState) -> tuple[int, ...]:
        return () if state.over else (0, 1)

    def legal_moves(self, state: LandscapingState) -> list[Move]:
        """Empty once the match is over; otherwise refused: a round is the product of both
        seats' choices (often millions). List each seat's with `choices`, join with `combine`."""
        if state.over:
            return []
        raise NotImplementedError("Total Landscaping is simultaneous: list each seat's options "
                                  "with choices(state, seat) and join two with combine()")

    def choices(self, state: LandscapingState, seat: int) -> list[Move]:
        """Every choice of `seat` that is legal whatever the other seat chooses."""
        if state.over:
            return []
        result: list[Move] = []
        size, hand = state.size, state.hands[seat]
        for garden in (0, 1):
            for tile in range(size):
                for card in hand:
                    if self._planting_error(state, card, garden, tile) is None:
                        base = {"card": card, "garden": SEATS[garden], "tile": hexes.TILES[tile]}
                        result.extend(self._with_parameters(state, seat, base, garden, tile))
        own = state.gardens[seat]
        for a in range(size):
            for b in hexes.NEIGHBOURS[a]:
                if a < b < size and own[a] and own[b]:
                    result.append({"hoe": [hexes.TILES[a], hexes.TILES[b]]})
        return result

    def random_choice(self, state: LandscapingState, seat: int, rng) -> Move:
        """A card (or the hoe) first, then where and how: a player picks Red as often as Blue,
        not one of Red's fifteen ways to name two cards every time."""
        by_card: dict[str, list[Move]] = {}
        for choice in self.choices(state, seat):
            by_card.setdefault(choice.get("card", "hoe"), []).append(choice)
        return rng.choice(by_card[rng.choice(sorted(by_card))])

    def _with_parameters(self, state: LandscapingState, seat: int, base: Move,
                         garden: int, tile: int) -> list[Move]:
        card = base["card"]
        if card == "Red":
            rest = [c for c in state.hands[seat] if c != "Red"]
            return [{**base, "remove": list(pair)}
                    for pair in itertools.combinations(rest, min(RED_DISCARDS, len(rest)))]
        if card == "Yellow":
            spreads = self._spreads(state, garden, tile)
            return [{**base, "spread": hexes.TILES[t]} for t in spreads] or [base]
        if card == "Purple":
            return [base] + [{**base, "recolour": hexes.TILES[t]} for t in hexes.NEIGHBOURS[tile]
                             if t < state.size and flower(state.gardens[garden][t])]
        return [base]

    def combine(self, state: LandscapingState, choices: Mapping[int, Move]) -> Move:
        return {SEATS[seat]: dict(choices[seat]) for seat in (0, 1)}

    # ---- scoring ----------------------------------------------------------------------------

    def score(self, state: LandscapingState) -> list[dict[str, Any]]:
        """Total: bouts won; categories: bouts won by each condition; details: every bout's
        round, condition and garden figures, and the gardens as they stand."""
        entries = []
        for seat in (0, 1):
            won = [b for b in state.bouts if b.winner == seat]
            categories = {condition: sum(b.condition == condition for b in won)
                          for condition in CONDITIONS}
            bouts = [{"bout": n, "won": b.winner == seat, "round": b.round,
                      "condition": b.condition, "own_garden": b.figures[seat].to_json(),
                      "other_garden": b.figures[1 - seat].to_json()}
                     for n, b in enumerate(state.bouts, start=1)]
            entries.append(seat_score(
                len(won), categories, role=ROLE[seat], garden=GARDEN[seat], bouts=bouts,
                garden_now=self.figures(state.gardens[seat]).to_json(),
                hand=list(state.hands[seat])))
        return entries

    def outcome(self, state: LandscapingState) -> Outcome | None:
        if not state.over:
            return None
        winner = 0 if state.wins(0) >= BOUTS_TO_WIN else 1
        return Outcome((winner,), ((winner,), (1 - winner,)), self._match_result(state))

    def _match_result(self, state: LandscapingState, seats: Sequence[str] = ROLE) -> str:
        """`"the Elimination Candidate (east) wins the match 2-1 (bout 1: ...)"`."""
        winner = 0 if state.wins(0) >= BOUTS_TO_WIN else 1
        bouts = "; ".join(f"bout {n}: {SEATS[b.winner]}, round {b.round}, {b.condition}"
                          for n, b in enumerate(state.bouts, start=1))
        who = f"the {ROLE[winner]}" if seats is ROLE else seats[winner]
        return (f"{who} ({SEATS[winner]}) wins the match "
                f"{state.wins(winner)}-{state.wins(1 - winner)} ({bouts})")

    def evaluate(self, state: LandscapingState, seat: int) -> float:
        """Bouts won first; within a bout, the lead in what the next check measures: colours
        connected in rounds 1-8, biggest patch until 16, flowers until 22, then Blue (where a tie
        favours the Death Match Opponent)."""
        lead = 100.0 * (state.wins(seat) - state.wins(1 - seat))
        if state.over:
            return lead * 10
        mine, theirs = self.figures(state.gardens[seat]), self.figures(state.gardens[1 - seat])
        field = ("colours_connected" if state.round <= SIX_COLOURS_UNTIL else
                 "biggest_patch" if state.round <= PATCH_ROUND else
                 "flowers" if state.round <= FLOWERS_ROUND else "blue")
        lead += getattr(mine, field) - getattr(theirs, field)
        if field == "blue":
            lead += 0.5 if seat == BLUE_TIE_WINNER else -0.5
        return lead

    # ---- describing -------------------------------------------------------------------------

    def move_kind(self, move: Mapping[str, Any]) -> str:
        """`"Red v hoe"`: East's card (or hoe) against West's."""
        kinds = []
        for seat in SEATS:
            choice = move.get(seat) if isinstance(move, Mapping) else None
            kinds.append("hoe" if isinstance(choice, Mapping) and "hoe" in choice
                         else str(choice.get("card")) if isinstance(choice, Mapping) else "?")
        return " v ".join(kinds)

    def describe(self, move: Mapping[str, Any]) -> str:
        parts = []
        for seat in SEATS:
            choice = move.get(seat, {}) if isinstance(move, Mapping) else {}
            if not isinstance(choice, Mapping):
                parts.append(f"{seat.title()}: ?")
            elif "hoe" in choice:
                parts.append(f"{seat.title()} hoes {' and '.join(map(str, choice['hoe']))}")
            else:
                garden = str(choice.get("garden", "?"))[:1].upper()
                text = f"{seat.title()} plays {choice.get('card')} on {garden}:{choice.get('tile')}"
                if choice.get("remove") is not None:
                    text += f" removing {' and '.join(map(str, choice['remove'])) or 'nothing'}"
                if choice.get("spread") is not None:
                    text += f" spreading to {garden}:{choice['spread']}"
                if choice.get("recolour") is not None:
                    text += f" turning {garden}:{choice['recolour']} purple"
                parts.append(text)
        return "; ".join(parts)

    def render(self, state: LandscapingState, seats: Sequence[str]) -> str:
        level, width = state.level, 5
        drawn = []
        for garden in (1, 0):  # West on the left, East on the right, as on a map
            labels = [f"{hexes.TILES[t]}:{_symbol(state.gardens[garden][t])}"
                      + ("#" if state.blocked == (garden, t) else "")
                      for t in range(len(hexes.TILES))]
            drawn.append(hexes.draw(labels, level, width))
        titles = [f"{GARDEN[g]}: {seats[g]}, {ROLE[g]}" for g in (1, 0)]
        span = max((2 * level + 1) * width, len(titles[0])) + 4
        lines = [f"Total Landscaping, bout {state.bout}, round {state.round} of {ROUNDS}, "
                 f"gardens LVL{level}; bouts won: {seats[0]} {state.wins(0)}, "
                 f"{seats[1]} {state.wins(1)}", ""]
        lines.append(f"{titles[0]:<{span}}{titles[1]}")
        lines += [f"{left:<{span}}{right}" for left, right in zip(*drawn)]
        lines.append("")
        lines.append(". empty  g grass  R O Y B P W flowers (lowercase: on grass, never withers)"
                     "  # blocked this round")
        for g in (0, 1):
            fig = self.figures(state.gardens[g])
            hand = " ".join(state.hands[g]) or "(empty)"
            lines.append(f"{seats[g]} ({SEATS[g]}): hand {hand}; garden: "
                         f"{fig.flowers} flowers, {fig.blue} Blue, biggest patch "
                         f"{fig.biggest_patch}, {fig.colours_connected} colours connected")
        for n, b in enumerate(state.bouts, start=1):
            lines.append(f"bout {n}: {seats[b.winner]} ({SEATS[b.winner]}) in round {b.round}, "
                         f"{b.condition}")
        if state.last_round:
            lines.append("last round: " + "; ".join(state.last_round))
        if state.over:
            lines.append(self._match_result(state, seats))
        else:
            lines.append(f"this bout is decided by: {_next_check(state.round)}")
        return "\n".join(lines)


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
    return (f"the most Blue flowers after round {BLUE_ROUND} "
            "(a tie goes to the Death Match Opponent)")


RULES = TotalLandscaping()
