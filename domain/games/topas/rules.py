"""Topas (Reiner Knizia, Amigo 2009): gem cards laid edge to edge; lines of one colour score.

Rules as RULES.md reads them:
- 36 cards (data/manifests/topas.json), each of two halves showing 1-3 gems of one colour; a card
  is named by its halves, colours in the manifest's order: `R2-B1` (red 2, blue 1).
- 2-4 players: a start card lies face up, each player holds 3 cards; a turn is to place a card,
  then draw one while the pile lasts (with 4 players it is empty after the 23rd placement and the
  last rounds are played from the hand). "Seven rounds": every player places seven cards.
- A card covers two free edge-adjacent cells (either way round, horizontal or vertical) with at
  least one half edge-adjacent to a half on the table; colours do not matter for that.
- Scoring: through each new half its horizontal and its vertical run of same-colour halves; a run
  of two or more halves is a line and scores its gems, up to four lines a card. A placement that
  would make any run of more than 7 gems is illegal. Expert (option `expert`): the lines' product
  instead of their sum; a placement that makes no line scores 0 either way.
- Solitaire (1 player): each card drawn is played at once (a hand of one); four columns of a start
  card plus seven placed cards, the table cleared between columns; the final score is the lowest
  column.
- Head start (option `head_start`, a designer's variant, not in the rulebook): the first player
  begins with that many points, a compensation for playing first; 0 (the rulebook) by default.
  It counts in the first seat's total like points scored; solitaire, with nobody to make up to,
  refuses one.
- Second head start (option `second_head_start`, a designer's variant too): the second player
  begins with that many points, a compensation for playing before the later seats (at 3 players
  in the expert variant seats 1 and 2 both trail seat 3); 0 by default. It counts in the second
  seat's total the same way; solitaire refuses one too.

Partial information: a logged game's setup may name only the start card. Each placement then names
its card, which must exist and not have been seen; a solitaire column's new start card is turned
up by a move `{"start": CARD}`. With the whole deal (hands and pile) the card must be in hand, and
start cards come off the pile by themselves. Cells are (x, y) from the start card; see
table.py.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...plain import PlainDict, PlainMapping
from ...quoting import quoted
from ..base import (
    Component,
    GameRules,
    IllegalMove,
    InvalidSetup,
    Move,
    Moves,
    Outcome,
    per_state,
    seat_score,
)
from ..declaring import stored_options, structure_options
from ..manifests import read_with
from .components import components as component_rows
from .declaration import (
    GAME_INFO,
    HEAD_START_MOST,
    HEAD_STARTS,
    Options,
    Place,
    StartColumn,
    begins_with,
    points_words,
    solitaire_refusal,
)
from .table import (
    STEPS,
    Cell,
    Half,
    Line,
    Table,
    card_words,
    cell_words,
    direction,
    step,
)

ROUNDS = 7  # cards each player places; in solitaire, cards placed per column
HAND = 3  # cards in hand with 2-4 players
SOLITAIRE_HAND = 1  # the solitaire player plays each card as it is drawn
COLUMNS = 4  # solitaire score-sheet columns
LINE_LIMIT = 7  # no line may hold more gems than this
RUNNING = {"horizontal": "right", "vertical": "down"}  # a line's cells run east, south
MIN_LINE = 2  # halves a run needs to score
CARD_NAME = re.compile(r"([A-Za-z])([1-9])-([A-Za-z])([1-9])")
MOVE_FORMS = (
    'a Topas move is {"card": "R2-B1", "at": [x, y], "dir": "N"|"E"|"S"|"W"} '
    "(the first named half at x,y, the second one step in dir), or in a logged "
    'solitaire game {"start": CARD} to turn up a new column\'s start card'
)


# ---- the deck ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Deck:
    colours: dict[str, str]  # letter -> colour name, in naming order
    cards: tuple[str, ...]  # card names as the manifest writes them
    halves: dict[str, tuple[Half, Half]]  # card -> its two halves, in name order
    by_halves: dict[frozenset[tuple[str, int]], str]  # the pair of halves -> card name

    @functools.cached_property
    def spelled(self) -> dict[str, tuple[str, bool]]:
        """Each card's exact spellings (as listed, and second half first) -> what `identify`
        makes of them: a well-formed move is read by one lookup instead of the regex."""
        spelled = {}
        for spelling in (*self.cards, *map(_reversed, self.cards)):
            try:
                spelled[spelling] = self.identify(spelling)
            except IllegalMove:
                pass  # a colour letter `identify` does not read (lower case): it words why
        return spelled

    @functools.cached_property
    def names(self) -> frozenset[str]:
        return frozenset(self.cards)

    def identify(self, name: object) -> tuple[str, bool]:
        """`"B1-R2"` -> ("R2-B1", True): the card, and whether it was named second half first."""
        match = CARD_NAME.fullmatch(name) if isinstance(name, str) else None
        if not match:
            raise IllegalMove(
                f"{quoted(name)} is not a card name: a card is named by its two halves, "
                "colour letter and gems, like R2-B1"
            )
        first, second = ((match[1].upper(), int(match[2])), (match[3].upper(), int(match[4])))
        for letter, _ in (first, second):
            if letter not in self.colours:
                known = ", ".join(f"{k} {v}" for k, v in self.colours.items())
                raise IllegalMove(f"{quoted(name)}: there is no gem colour {letter} ({known})")
        card = self.by_halves.get(frozenset((first, second)))
        if card is None:
            raise IllegalMove(
                f"there is no card {_name(first, second)} in the Topas deck: the "
                "halves of a card differ in colour and in gems, each card once"
            )
        return card, self.halves[card][0] != first

    def card(self, name: object) -> str:
        """The card `name` names (`identify`'s first answer; an exact spelling is looked up)."""
        known = self.spelled.get(name) if type(name) is str else None
        return self.identify(name)[0] if known is None else known[0]

    def colour(self, letter: str) -> str:
        return self.colours[letter]


def _card(deck: Deck, spelled: dict[str, tuple[str, bool]], name: object) -> str:
    """`deck.card(name)`, its exact-spelling lookup spelled out for a whole deal."""
    known = spelled.get(name) if type(name) is str else None
    return deck.card(name) if known is None else known[0]


def _name(first: Half, second: Half) -> str:
    return f"{first[0]}{first[1]}-{second[0]}{second[1]}"


def _reversed(card: str) -> str:
    return "-".join(reversed(card.split("-")))


def load_deck(manifest: str) -> Deck:
    """The deck a manifest describes (`"topas"` is data/manifests/topas.json); a club's edited
    file is read again (`manifests.read_with`)."""
    return read_with(manifest, _parse_deck)


def _parse_deck(data: Any, manifest: str) -> Deck:
    try:
        colours = dict(data["colours"])
        names = list(data["cards"])
    except (KeyError, TypeError, ValueError):
        raise InvalidSetup(f"manifest {manifest!r} needs 'colours' and 'cards'") from None
    halves, by_halves = {}, {}
    for name in names:
        match = CARD_NAME.fullmatch(name) if isinstance(name, str) else None
        pair = match and ((match[1], int(match[2])), (match[3], int(match[4])))
        if not pair or pair[0][0] == pair[1][0] or not {pair[0][0], pair[1][0]} <= set(colours):
            raise InvalidSetup(
                f"manifest {quoted(manifest)}: {quoted(name)} is not a card of two colours "
                f"out of {', '.join(colours)}"
            )
        if frozenset(pair) in by_halves:
            raise InvalidSetup(f"manifest {manifest!r} lists {name} twice")
        halves[name], by_halves[frozenset(pair)] = pair, name
    return Deck(colours, tuple(names), halves, by_halves)


# ---- the state --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Placement:
    """One card placed, and what it scored."""

    seat: int
    column: int  # solitaire column 0-3; always 0 with 2-4 players
    card: str  # the deck's name of the card
    cells: tuple[Cell, Cell]  # where its first and its second named half lie
    lines: tuple[Line, ...]  # the lines it scored (runs of two or more halves)
    points: int


@dataclasses.dataclass(frozen=True)
class TopasState:
    players: int
    expert: bool
    manifest: str
    # Each column's start card as laid: first written half at (0, 0), second at (1, 0).
    starts: tuple[str, ...]
    placements: tuple[Placement, ...] = ()
    hands: tuple[tuple[str, ...], ...] | None = None  # None: hidden (a logged game)
    pile: tuple[str, ...] | None = None  # top card first; None: unknown order
    head_start: int = 0  # the first seat's points before any card (a designer's variant)
    second_head_start: int = 0  # the second seat's (a designer's variant too)

    @property
    def solitaire(self) -> bool:
        return self.players == 1

    @property
    def cards_to_place(self) -> int:
        return COLUMNS * ROUNDS if self.solitaire else ROUNDS * self.players

    @property
    def over(self) -> bool:
        # Kept (`per_state`): every step of a match asks it a few times.
        return _over(self)

    @property
    def column(self) -> int:
        """The column the next placement belongs to (always 0 with 2-4 players)."""
        return len(self.placements) // ROUNDS if self.solitaire else 0

    @property
    def awaiting_start(self) -> bool:
        """A logged solitaire game between columns: the next start card is not yet turned up."""
        return not self.over and len(self.starts) <= self.column

    @property
    def seat(self) -> int:
        return len(self.placements) % self.players

    def round_of(self, index: int) -> int:
        """The round (1-7) of the placement at `index`; in solitaire, its place in its column."""
        return index % ROUNDS + 1 if self.solitaire else index // self.players + 1

    def seen(self) -> dict[str, str]:
        """Every card the table has seen, with where: start cards and placed cards."""
        seen, deck = {}, load_deck(self.manifest)
        for column, start in enumerate(self.starts):
            seen[deck.identify(start)[0]] = (
                f"is the start card of column {column + 1}"
                if self.solitaire
                else "is the start card"
            )
        for index, placement in enumerate(self.placements):
            when = (
                f"column {placement.column + 1}"
                if self.solitaire
                else f"round {self.round_of(index)}"
            )
            seen[placement.card] = f"has already been played ({when})"
        return seen


def _cell(value: object) -> Cell:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return value[0], value[1]
    raise IllegalMove(f"'at' must be a cell [x, y] of two whole numbers, got {quoted(value)}")


def _direction(value: object) -> str:
    if isinstance(value, str) and value.upper() in STEPS:
        return value.upper()
    raise IllegalMove(
        f"'dir' must be N, E, S or W (where the second half lies), got {quoted(value)}"
    )


def _head_starts(state: TopasState) -> tuple[int, ...]:
    """The match's head starts, in the order of HEAD_STARTS (the state's fields are named as
    the options are): the first seat's, the second's."""
    return tuple(getattr(state, name) for name in HEAD_STARTS)


def _head_start(state: TopasState, seat: int) -> int:
    """The points `seat` begins with (`begins_with`: the first and second seats' head starts,
    never solitaire's)."""
    return begins_with(seat, state.players, _head_starts(state))


def _points(lines: Sequence[Line], expert: bool) -> int:
    if not lines:
        return 0  # no line, no points, in the expert variant too
    gems = [line.gems for line in lines]
    return math.prod(gems) if expert else sum(gems)


# options, keyed -> structured
_STRUCTURED: dict[tuple[tuple[str, type, object], ...], Options] = {}


def _structured(options: PlainMapping) -> Options:
    """`structure_options` of the options, kept per value (a pure function of them, asked
    three times a new match): keyed by each option's name, type and value, so that 1 and True
    are told apart; options holding anything unhashable are structured afresh. The deck is not
    kept here: a club's file is read each time (`load_deck`)."""
    try:
        key = tuple(sorted((k, type(v), v) for k, v in options.items()))
        kept = _STRUCTURED.get(key)
    except TypeError:  # an unhashable value, or names that do not sort: no key
        return structure_options(Options, options, GAME_INFO.name)
    if kept is None:
        kept = structure_options(Options, options, GAME_INFO.name)
        if len(_STRUCTURED) < 64:
            _STRUCTURED[key] = kept
    return kept


# ---- the rules --------------------------------------------------------------------------------


class Topas(GameRules[TopasState], declared=GAME_INFO):
    # What the game is (id, name, players) comes from its declaration (declaration.py).
    version = "1"
    default_manifest = "topas"
    move_cap = 200  # a 2-player match has about 14 moves (docs/games)
    state_type = TopasState

    # ---- setting up -------------------------------------------------------------------------

    def encode(self, state: TopasState) -> PlainDict:
        """The state as plain JSON; without a head start (either) it reads as before there was
        one (snapshots, `show --json` and the golden data unchanged; `decode` gives 0 back)."""
        encoded = super().encode(state)
        for name in HEAD_STARTS:
            if not encoded[name]:
                del encoded[name]
        return encoded

    def options(self, options: PlainMapping) -> dict[str, Any]:
        return self._declared(options)[0]

    def _declared(self, options: PlainMapping) -> tuple[dict[str, Any], Deck]:
        """The options checked, and their deck (loaded once: a club's file is read each time)."""
        declared = _structured(options)
        for name in HEAD_STARTS:
            if not 0 <= getattr(declared, name) <= HEAD_START_MOST:
                raise InvalidSetup(
                    f"option {name} must be between 0 and {HEAD_START_MOST} points, "
                    f"got {quoted(getattr(declared, name))}"
                )
        deck = load_deck(declared.manifest)
        checked = stored_options(declared)  # a head start of 0 left out: declared later
        return checked, deck

    def words(self, state: TopasState) -> Mapping[str, Sequence[str]]:
        """The deck's cards, either half named first (as `identify` reads them)."""
        return {"card": tuple(load_deck(state.manifest).spelled)}

    def deal(self, seats: int, options: PlainMapping, rng: random.Random) -> dict[str, Any]:
        cards = list(self._declared(options)[1].cards)
        rng.shuffle(cards)
        size = SOLITAIRE_HAND if seats == 1 else HAND
        # One card at a time, in turn, until every hand is full; then the start card.
        hands = [cards[seat : size * seats : seats] for seat in range(seats)]
        return {"start": cards[size * seats], "hands": hands, "pile": cards[size * seats + 1 :]}

    def start(self, seats: int, options: PlainMapping, setup: PlainMapping) -> TopasState:
        if not self.min_players <= seats <= self.max_players:
            raise InvalidSetup(f"Topas is for 2-4 players, or 1 for solitaire, not {seats}")
        opts, deck = self._declared(options)
        for name in HEAD_STARTS:
            if seats == 1 and opts.get(name):
                raise InvalidSetup(solitaire_refusal(name))
        if (
            not isinstance(setup, Mapping)
            or "start" not in setup
            or set(setup) - {"start", "hands", "pile"}
        ):
            raise InvalidSetup(
                'a Topas setup is {"start": CARD} as the table sees it, or the '
                'whole deal {"start": CARD, "hands": [[CARD, ...], ...], '
                '"pile": [CARD, ...]}'
            )
        needed = COLUMNS * (1 + ROUNDS) if seats == 1 else 1 + ROUNDS * seats
        if len(deck.cards) < needed:
            raise InvalidSetup(
                f"{seats} player(s) need {needed} cards, the deck has {len(deck.cards)}"
            )
        try:
            card, flipped = deck.identify(setup["start"])
        except IllegalMove as err:
            raise InvalidSetup(f"start card: {err.reason}") from None
        state = TopasState(
            seats,
            opts["expert"],
            opts["manifest"],
            (_reversed(card) if flipped else card,),
            head_start=opts.get("head_start", 0),
            second_head_start=opts.get("second_head_start", 0),
        )
        if "hands" not in setup and "pile" not in setup:
            return state
        hands, pile = self._deal_of(deck, seats, card, setup)
        return dataclasses.replace(state, hands=hands, pile=pile)

    def _deal_of(
        self, deck: Deck, seats: int, start: str, setup: PlainMapping
    ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
        """The hands and pile of a whole deal, checked: every card of the deck exactly once."""
        hands, pile = setup.get("hands"), setup.get("pile")
        size = SOLITAIRE_HAND if seats == 1 else HAND
        if (
            not isinstance(hands, (list, tuple))
            or len(hands) != seats
            or any(not isinstance(h, (list, tuple)) or len(h) != size for h in hands)
            or not isinstance(pile, (list, tuple))
        ):
            raise InvalidSetup(
                f"a whole deal gives 'hands' ({seats} of {size} card(s)) and the "
                "'pile' (top card first) together"
            )
        spelled = deck.spelled  # an exact spelling looked up (`Deck.card`), else `card` words it
        try:
            hands = tuple(tuple(_card(deck, spelled, c) for c in hand) for hand in hands)
            pile = tuple(_card(deck, spelled, c) for c in pile)
        except IllegalMove as err:
            raise InvalidSetup(f"deal: {err.reason}") from None
        dealt = [start, *(c for hand in hands for c in hand), *pile]
        # Every card once: as many cards as the deck's (all distinct), and all of them.
        if len(dealt) != len(deck.cards) or deck.names != set(dealt):
            twice = sorted({c for c in dealt if dealt.count(c) > 1})
            missing = sorted(set(deck.cards) - set(dealt))
            raise InvalidSetup(
                f"a whole deal holds every card once: twice {twice or 'none'}, "
                f"missing {missing or 'none'}"
            )
        return hands, pile

    # ---- playing ----------------------------------------------------------------------------

    def table(self, state: TopasState) -> Table:
        """The cards on the table now: the current column's start card and placements. Kept
        on the state (`per_state`: a state never changes), because a bot's draw and the
        rules' check of the move drawn both ask for it; callers never lay cards on it."""
        return _laid(state)

    def playable(self, state: TopasState) -> tuple[str, ...]:
        """The cards the player to move may play: the hand, or every unseen card if hidden."""
        if state.hands is not None:
            return state.hands[state.seat]
        seen = state.seen()
        return tuple(c for c in load_deck(state.manifest).cards if c not in seen)

    def _card_error(self, state: TopasState, card: str) -> str | None:
        seen = state.seen()
        if card in seen:
            return f"{card} {seen[card]}: each card exists once"
        if state.hands is not None and card not in state.hands[state.seat]:
            return (
                f"{card} is not in the hand of the player to move "
                f"({', '.join(state.hands[state.seat])})"
            )
        return None

    def _placement_error(
        self,
        table: Table,
        card: str,
        cells: tuple[Cell, Cell],
        halves: tuple[Half, Half],
        deck: Deck,
        runs: tuple[Line, ...] | None = None,
    ) -> str | None:
        """Why the card may not go on `cells`, or None; `runs` are `table.runs_with(cells,
        halves)` when the caller has them already."""
        for cell in cells:
            if cell in table.halves:
                return (
                    f"{cell_words(cell)} already holds a half of "
                    f"{table.cards[cell]}: cards may not overlap"
                )
        if not table.touches(cells):
            return (
                f"{card} there ({card_words(card, cells)}) touches no card: "
                "a card is placed edge to edge with a half already on the table"
            )
        for run in table.runs_with(cells, halves) if runs is None else runs:
            if run.gems > LINE_LIMIT:
                return (
                    f"the {deck.colour(run.colour)} {run.axis} line of {len(run.cells)} halves "
                    f"running {RUNNING[run.axis]} from {cell_words(run.cells[0])} would hold "
                    f"{run.gems} gems: no line of more than {LINE_LIMIT} gems may be formed"
                )
        return None

    def apply(self, state: TopasState, move: PlainMapping) -> TopasState:
        placed = self._fast_place(state, move)
        return self._parsed_apply(state, move) if placed is None else placed

    def _parsed_apply(self, state: TopasState, move: PlainMapping) -> TopasState:
        """`apply` of any other move: the full parser, which words every refusal (what both
        paths answer is golden data: tests/games/test_golden.py)."""
        if state.over:
            raise IllegalMove(
                "the game is over: "
                + (
                    "all four columns are played"
                    if state.solitaire
                    else f"every player has placed {ROUNDS} cards"
                )
            )
        if not isinstance(move, Mapping):
            raise IllegalMove(f"{MOVE_FORMS}; got {quoted(move)}")
        shape = GAME_INFO.move_shape(move)
        if shape is StartColumn:
            return self._turn_up(state, move["start"])
        if shape is Place:
            return self._place(state, move)
        raise IllegalMove(f"{MOVE_FORMS}; got the keys {sorted(map(str, move))}")

    def _turn_up(self, state: TopasState, name: object) -> TopasState:
        if not state.awaiting_start:
            raise IllegalMove(
                "a start card is turned up only in a logged solitaire game, once "
                "the seventh card of a column is placed"
            )
        card, flipped = load_deck(state.manifest).identify(name)
        error = self._card_error(state, card)
        if error:
            raise IllegalMove(error)
        return dataclasses.replace(
            state, starts=(*state.starts, _reversed(card) if flipped else card)
        )

    def _place(self, state: TopasState, move: PlainMapping) -> TopasState:
        if state.awaiting_start:
            raise IllegalMove(
                f"column {state.column + 1} has no start card yet: turn its start card up first"
            )
        deck = load_deck(state.manifest)
        card, flipped = deck.identify(move["card"])
        at = _cell(move["at"])
        second = step(at, _direction(move["dir"]))
        cells = (second, at) if flipped else (at, second)  # cells[i] holds the card's half i
        table, halves = self.table(state), deck.halves[card]
        runs = table.runs_with(cells, halves)  # checked against the limit, then scored
        error = self._card_error(state, card) or self._placement_error(
            table, card, cells, halves, deck, runs
        )
        if error:
            raise IllegalMove(error)
        lines = tuple(run for run in runs if len(run.cells) >= MIN_LINE)
        placement = Placement(
            state.seat, state.column, card, cells, lines, _points(lines, state.expert)
        )
        return self._draw(
            dataclasses.replace(state, placements=(*state.placements, placement)), card
        )

    def _fast_place(self, state: TopasState, move: object) -> TopasState | None:
        """The state after a well-formed legal placement (as bots and pickers write them), or
        None: then the full parser reads the move and words any refusal. Checks what `_place`
        checks, in a few lookups, without wording anything."""
        if type(move) is not dict or len(move) != 3 or state.over:
            return None
        name, at, way = move.get("card"), move.get("at"), move.get("dir")
        deck = load_deck(state.manifest)
        known = deck.spelled.get(name) if type(name) is str else None
        if known is None or type(way) is not str or way not in STEPS:
            return None
        if not isinstance(at, (list, tuple)) or len(at) != 2:
            return None
        x, y = at
        if type(x) is not int or type(y) is not int or state.awaiting_start:
            return None
        card, flipped = known
        if state.hands is not None and card not in state.hands[state.seat]:
            return None
        if card in _cards_seen(state):
            return None
        dx, dy = STEPS[way]
        cells = ((x + dx, y + dy), (x, y)) if flipped else ((x, y), (x + dx, y + dy))
        table, halves = self.table(state), deck.halves[card]
        if cells[0] in table.halves or cells[1] in table.halves or not table.touches(cells):
            return None
        lines = table.lines_with(cells, halves, LINE_LIMIT)  # MIN_LINE is 2: no single halves
        if lines is None:
            return None
        placement = Placement(
            state.seat, state.column, card, cells, lines, _points(lines, state.expert)
        )
        return self._placed(state, placement, table.laid_with(card, cells, halves))

    def _placed(self, state: TopasState, placement: Placement, table: Table) -> TopasState:
        """What `_draw` makes of the state with the placement added, built in one step; the
        table laid with the card goes with it unless a new column's start card came up."""
        placements = (*state.placements, placement)
        starts, hands, pile = state.starts, state.hands, state.pile
        if hands is not None and pile is not None:
            seat = placement.seat
            hand = tuple(c for c in hands[seat] if c != placement.card)
            count, solitaire = len(placements), state.players == 1
            over = count >= (COLUMNS * ROUNDS if solitaire else ROUNDS * state.players)
            if not over and len(starts) <= (count // ROUNDS if solitaire else 0) and pile:
                starts, pile = (*starts, pile[0]), pile[1:]  # the next column's start card
            if pile:
                hand, pile = (*hand, pile[0]), pile[1:]
            hands = tuple(hand if s == seat else h for s, h in enumerate(hands))
        after = TopasState(
            state.players,
            state.expert,
            state.manifest,
            starts,
            placements,
            hands,
            pile,
            state.head_start,
            state.second_head_start,
        )
        if starts is state.starts:  # the same column: its table, with the card laid
            _laid.give(after, table)
            seen = _cards_seen.known(state)
            if seen is not None:
                _cards_seen.give(after, seen | {placement.card})
        return after

    def _draw(self, state: TopasState, played: str) -> TopasState:
        """After placing: a solitaire column may end (the next start card comes off the pile),
        then the player draws while the pile lasts. Nothing to do when the deal is hidden."""
        if state.hands is None or state.pile is None:
            return state
        seat, pile, starts = state.placements[-1].seat, state.pile, state.starts
        hand = tuple(c for c in state.hands[seat] if c != played)
        if state.awaiting_start and pile:
            starts, pile = (*starts, pile[0]), pile[1:]
        if pile:
            hand, pile = (*hand, pile[0]), pile[1:]
        hands = tuple(hand if s == seat else h for s, h in enumerate(state.hands))
        return dataclasses.replace(state, hands=hands, pile=pile, starts=starts)

    def _move(self, card: str, cells: tuple[Cell, Cell]) -> Move:
        return {"card": card, "at": list(cells[0]), "dir": direction(*cells)}

    def legal_moves(self, state: TopasState) -> list[Move]:
        if state.over:
            return []
        if state.awaiting_start:
            return [{"start": card} for card in self.playable(state)]
        # A span is two free cells touching the table (`Table.spans`), so of the placement
        # rules only the line limit is left to check.
        deck, table = load_deck(state.manifest), self.table(state)
        spans = table.spans()
        return [
            self._move(card, cells)
            for card in self.playable(state)
            for cells in spans
            if table.most_gems_with(cells, deck.halves[card]) <= LINE_LIMIT
        ]

    def random_move(self, state: TopasState, rng: random.Random) -> Move:
        """Uniform over the legal moves, by drawing a card and a place until they fit (far
        faster than listing every move; some legal place exists for every card)."""
        if state.over or state.awaiting_start:
            return super().random_move(state, rng)
        deck, table = load_deck(state.manifest), self.table(state)
        # The spans by their keys, in their order: the same draws, without spelling out every
        # span (`Table.drawable`).
        cards, spans, span_of = self.playable(state), table.drawable(), table.span_of
        # A span is free and touches the table: only the line limit is left to check, by
        # `lines_with`, which keeps its answer for the rules' check of the move drawn.
        while True:
            card, cells = rng.choice(cards), span_of(rng.choice(spans))
            if table.lines_with(cells, deck.halves[card], LINE_LIMIT) is not None:
                return self._move(card, cells)

    def to_move(self, state: TopasState) -> tuple[int, ...]:
        return () if state.over else (state.seat,)

    # ---- scoring ----------------------------------------------------------------------------

    def column_totals(self, state: TopasState) -> list[int]:
        """Solitaire: each begun column's points."""
        return [
            sum(p.points for p in state.placements if p.column == column)
            for column in range(len(state.starts))
        ]

    def score(self, state: TopasState) -> list[dict[str, Any]]:
        """Per seat: the total (solitaire: the lowest column begun so far), points by gem colour
        (each line's gems to its colour), in the expert variant the `product bonus` that
        multiplying added, and with a head start its points (`head start`, the first and the
        second seat's; so the categories still add up to the total); details list every
        placement with its lines, and a seat's head start when it began with one."""
        deck = load_deck(state.manifest)
        result = []
        for seat in range(state.players):
            mine = [(i, p) for i, p in enumerate(state.placements) if p.seat == seat]
            categories = {name: 0 for name in deck.colours.values()}
            for _, placement in mine:
                for line in placement.lines:
                    categories[deck.colour(line.colour)] += line.gems
            points = sum(p.points for _, p in mine)
            if state.expert:
                categories["product bonus"] = points - sum(
                    categories[c] for c in deck.colours.values()
                )
            details: dict[str, object] = {
                "placements": [self._detail(state, deck, i, p) for i, p in mine]
            }
            if any(_head_starts(state)):  # only then: a rulebook match's reads as it always did
                given = _head_start(state, seat)
                categories["head start"], points = given, points + given
                if given:
                    details["head_start"] = given
            if state.hands is not None:
                details["hand"] = list(state.hands[seat])
            if state.solitaire:
                columns = self.column_totals(state)
                categories.update(
                    {
                        f"column {c + 1}": (columns[c] if c < len(columns) else 0)
                        for c in range(COLUMNS)
                    }
                )
                details["columns"] = columns
                points = min(columns)
            result.append(seat_score(points, categories, **details))
        return result

    def totals(self, state: TopasState) -> list[float]:
        """`score`'s totals without its details (the recorder asks after every move)."""
        return [float(points) for points in self._whole_totals(state)]

    def _whole_totals(self, state: TopasState) -> list[int]:
        """`score`'s totals, as the whole numbers it gives."""
        if state.solitaire:
            return [min(self.column_totals(state))]
        points = [_head_start(state, seat) for seat in range(state.players)]
        for placement in state.placements:
            points[placement.seat] += placement.points
        return points

    def _detail(self, state: TopasState, deck: Deck, index: int, p: Placement) -> dict[str, object]:
        detail = {
            "round": state.round_of(index),
            "card": p.card,
            "cells": [list(c) for c in p.cells],
            "points": p.points,
            "lines": [
                {
                    "colour": deck.colour(line.colour),
                    "gems": line.gems,
                    "axis": line.axis,
                    "cells": [list(c) for c in line.cells],
                }
                for line in p.lines
            ],
        }
        if state.solitaire:
            detail["column"] = p.column + 1
        return detail

    def outcome(self, state: TopasState) -> Outcome | None:
        if not state.over:
            return None
        totals = self._whole_totals(state)
        if state.solitaire:
            columns = ", ".join(map(str, self.column_totals(state)))
            return Outcome(
                (0,),
                ((0,),),
                f"final score {totals[0]}: the lowest of the four columns ({columns})",
            )
        ranking = tuple(
            tuple(s for s, t in enumerate(totals) if t == value)
            for value in sorted(set(totals), reverse=True)
        )
        best = max(totals)
        reason = (
            f"most points after {ROUNDS} rounds: {best}"
            if len(ranking[0]) == 1
            else f"{len(ranking[0])} players tie on {best} points: a shared win"
        )
        return Outcome(ranking[0], ranking, reason)

    # ---- describing -------------------------------------------------------------------------

    def move_kind(self, move: PlainMapping) -> str:
        return "start column" if "start" in move else "place"

    def describe(self, move: PlainMapping, seats: Sequence[str] = ()) -> str:
        if "start" in move:
            return f"turns up {move['start']} to start a new column"
        try:
            at = _cell(move["at"])
            cells = (at, step(at, _direction(move["dir"])))
            return f"places {move['card']}: {card_words(str(move['card']).upper(), cells)}"
        except (IllegalMove, KeyError, ValueError):
            return super().describe(move, seats)

    def render(self, state: TopasState, seats: Sequence[str]) -> str:
        deck = load_deck(state.manifest)
        variant = "expert (product of lines)" if state.expert else "standard (sum of lines)"
        for seat in range(state.players):
            if _head_start(state, seat):
                given = points_words(_head_start(state, seat))
                variant += f", {seats[seat]} began with a head start of {given}"
        if state.solitaire:
            done = min(len(state.placements) // ROUNDS + 1, COLUMNS)
            where = f"solitaire, column {done} of {COLUMNS}"
        else:
            where = f"round {min(len(state.placements) // state.players + 1, ROUNDS)} of {ROUNDS}"
        lines = [f"Topas, {where}, {variant}", "", *self.table(state).drawing(), ""]
        lines.append(
            ", ".join(f"{k} {v}" for k, v in deck.colours.items())
            + "; a card's halves are joined by -- or |; cells are x east, y south "
            "of the start card's first half"
        )
        if state.placements:
            last, index = state.placements[-1], len(state.placements) - 1
            operator = " x " if state.expert else " + "
            lines_text = operator.join(
                f"{deck.colour(line.colour)} {line.gems}" for line in last.lines
            )
            scored = f"{lines_text} = {last.points}" if last.lines else "no line, 0"
            when = (
                f"column {last.column + 1}, card {state.round_of(index)}"
                if state.solitaire
                else f"round {state.round_of(index)}"
            )
            lines.append(
                f"last: {seats[last.seat]} placed {last.card} "
                f"({card_words(last.card, last.cells)}; {when}): {scored}"
            )
        for seat, entry in enumerate(self.score(state)):
            extra = f" (columns {entry['details']['columns']})" if state.solitaire else ""
            if entry["details"].get("head_start"):
                extra = f" ({entry['details']['head_start']} of them a head start)"
            hand = f"; hand {' '.join(state.hands[seat]) or '-'}" if state.hands is not None else ""
            lines.append(f"{seats[seat]}: {entry['total']} points{extra}{hand}")
        if state.pile is not None:
            lines.append(f"draw pile: {len(state.pile)} cards")
        outcome = self.outcome(state)
        if outcome:
            lines.append(
                f"game over: {', '.join(seats[s] for s in outcome.winners)} ({outcome.reason})"
            )
        elif state.awaiting_start:
            lines.append(f"column {state.column + 1}: turn up the next start card")
        else:
            lines.append(f"to move: {seats[state.seat]}")
        return "\n".join(lines)

    def components(
        self, state: TopasState, scores: list[dict[str, Any]], moves: Moves
    ) -> list[list[Component]]:
        return component_rows(state, scores, moves)


RULES = Topas()


@per_state
def _over(state: TopasState) -> bool:
    return len(state.placements) >= state.cards_to_place


@per_state
def _laid(state: TopasState) -> Table:
    """The current column's table, laid afresh from the start card and the placements."""
    deck, column = load_deck(state.manifest), len(state.starts) - 1
    table = Table()
    card, flipped = deck.identify(state.starts[column])
    first, second = deck.halves[card]
    table.lay(card, ((0, 0), (1, 0)), (second, first) if flipped else (first, second))
    for placement in state.placements:
        if placement.column == column:
            table.lay(placement.card, placement.cells, deck.halves[placement.card])
    return table


@per_state
def _cards_seen(state: TopasState) -> set[str]:
    """The cards `state.seen()` names, without the wording of where each was seen: `_placed`
    hands it on, added to."""
    deck = load_deck(state.manifest)
    return {p.card for p in state.placements}.union(map(deck.card, state.starts))
