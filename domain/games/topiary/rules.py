"""Topiary: visitors around a 5x5 garden of sculpture tiles, scoring the sculptures they see.

Rules as RULES.md reads them (the seed's real rules start at "A beautiful, sunny day"):
- 40 tiles, 8 types x values 1-5 (`data/manifests/topiary.json`); with 2-3 players the 5 tiles
  of one type are removed. 25 go face down into the garden, `c3` is turned face up, every player
  gets a secret hand of 3, the rest go back to the box unseen. Option `last_player_chooses`: the
  last player is dealt all the remaining tiles too and first keeps 3 of them.
- Visitors: 8 each with 2 players, 6 with 3, 5 with 4; the 56 spots are in `topiary_garden.py`.
- A turn: place a visitor on a free spot (mandatory); then optionally take one face-down tile of
  its sight line into hand and place any tile of the hand face up into the gap.
- A visitor sees the nearest face-up sculpture and each further one strictly larger than all
  face-up sculptures in front of it; face-down tiles are not seen and block nothing.
- When every visitor is placed: each visitor scores the values it sees, +1 per seen sculpture of
  each type it sees 2 or more of; each hand tile scores its value if one of its owner's visitors
  sees a larger sculpture of its type. Highest total wins; ties: more hand points, then the
  player later in turn order.

Partial information: the state holds a tile whose identity the table never saw as None (in the
garden or in a hand). Moves carry the identities they reveal (the tile placed, optionally the tile
taken, the hands at the end) and each is checked against the manifest and everything known.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict, TypeVar

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
    UnknownInformation,
    per_state,
    seat_score,
)
from ..declaring import structure_options
from ..manifests import REF_PREFIX, load_manifest
from . import declaration as declared
from . import fast, scoring
from .components import components as component_rows
from .garden import (
    CELLS,
    CENTRE,
    SIGHT_LINES,
    SIZE,
    draw_garden,
    parse_garden_cell,
    parse_spot,
    spot_words,
)
from .state import Sculptures, TopiaryState, Visitor, _tiles_in_play

HAND = 3
VISITORS = {2: 8, 3: 6, 4: 5}  # visitors per player, by player count
REMOVES_A_TYPE = {2, 3}  # player counts that play without one sculpture type
KEEP, VISIT, REVEAL, OVER = "keep", "visit", "reveal", "over"


def _player(seat: int) -> str:
    return f"player {seat + 1}"


# "player 2" in a stored outcome reason: its words are fixed (`audit` compares them with the
# rules'), so the name goes in where it is shown (`named_reason`).
PLAYER_IN_REASON = re.compile(r"\bplayer (\d+)\b")


def _listing(tiles: Sequence[str | None]) -> str:
    return ", ".join(tile or "?" for tile in tiles) or "nothing"


# ---- moves, parsed at the boundary ------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Keep:
    tiles: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Visit:
    spot: str
    take: int | None = None  # the garden cell taken from
    place: str | None = None  # the tile put face up into that gap
    took: str | None = None  # the taken tile's identity, when the table saw it


@dataclasses.dataclass(frozen=True)
class Reveal:
    tiles: tuple[str, ...]


MOVE_FORMS = (
    '{"visitor": SPOT}, {"visitor": SPOT, "take": CELL, "place": TILE} (optionally with '
    '"took": TILE), {"keep": [TILE, ...]} or {"reveal": [TILE, ...]}'
)


def _tile_list(sculptures: Sculptures, value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise IllegalMove(
            f'{what} is a list of tiles like ["Swan 4", "Whale 1"], got {quoted(value)}'
        )
    tiles = tuple(sculptures.parse(name) for name in value)
    for tile, count in Counter(tiles).items():
        if count > 1:
            raise IllegalMove(f"{tile} is named twice: there is only one {tile}")
    return tiles


def parse_move(sculptures: Sculptures, move: object) -> Keep | Visit | Reveal:
    if not isinstance(move, Mapping):
        raise IllegalMove(f"a Topiary move is a JSON object: {MOVE_FORMS}; got {quoted(move)}")
    keys, shape = set(move), declared.GAME_INFO.move_shape(move)
    if shape is declared.Keep:
        return Keep(_tile_list(sculptures, move["keep"], "keep"))
    if shape is declared.Reveal:
        return Reveal(_tile_list(sculptures, move["reveal"], "reveal"))
    if shape is declared.Visit:
        return Visit(parse_spot(move["visitor"]))
    if shape is declared.VisitAndTake:
        took = move.get("took")
        return Visit(
            parse_spot(move["visitor"]),
            parse_garden_cell(move["take"]),
            sculptures.parse(move["place"]),
            None if took is None else sculptures.parse(took),
        )
    if "visitor" in keys and keys & {"take", "place"}:
        raise IllegalMove(
            "taking and placing go together: a tile taken from the sight line is "
            "replaced by one placed face up from the hand (give take and place)"
        )
    raise IllegalMove(f"a Topiary move is {MOVE_FORMS}; got keys {quoted(sorted(keys))}")


# ---- the manifest and options -----------------------------------------------------------------


def _components(manifest: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    data = load_manifest(manifest)
    types, values = (data.get("types"), data.get("values")) if isinstance(data, dict) else (0, 0)
    if (
        not isinstance(types, list)
        or not types
        or len(set(types)) != len(types)
        or not all(isinstance(t, str) and t.strip() for t in types)
    ):
        raise InvalidSetup(f"manifest {manifest}: types must be a list of distinct names")
    if (
        not isinstance(values, list)
        or not values
        or len(set(values)) != len(values)
        or not all(isinstance(v, int) and v > 0 for v in values)
    ):
        raise InvalidSetup(f"manifest {manifest}: values must be distinct positive numbers")
    return tuple(types), tuple(values)


V = TypeVar("V")


class _ViewDetail(TypedDict):
    """What one visitor sees, as a score's details list it."""

    spot: str
    sees: list[str]
    points: int
    bonus: int


class _HandTile(TypedDict):
    tile: str
    points: int


# A seat's tally: its three categories ("type bonus" is no name, hence this form) and details.
_Tally = TypedDict(
    "_Tally",
    {
        "visitors": int,
        "type bonus": int,
        "hand": int,
        "views": list[_ViewDetail],
        "hand_tiles": list[_HandTile],
    },
)


_recorded: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {}  # reference -> components
# options, keyed -> structured
_STRUCTURED: dict[tuple[tuple[str, type, object], ...], declared.Options] = {}


def _structured(options: PlainMapping) -> declared.Options:
    """`structure_options` of the options, kept per value (a pure function of them, asked
    three times a new match): keyed by each option's name, type and value, so that 1 and True
    are told apart; options holding anything unhashable are structured afresh."""
    try:
        key = tuple(sorted((k, type(v), v) for k, v in options.items()))
        kept = _STRUCTURED.get(key)
    except TypeError:  # an unhashable value, or names that do not sort: no key
        return structure_options(declared.Options, options, declared.GAME_INFO.name)
    if kept is None:
        kept = structure_options(declared.Options, options, declared.GAME_INFO.name)
        if len(_STRUCTURED) < 64:
            _STRUCTURED[key] = kept
    return kept


def _check_players(seats: int) -> None:
    if seats not in VISITORS:
        raise InvalidSetup(f"Topiary is for 2 to 4 players, not {seats}")


class Topiary(GameRules[TopiaryState], declared=declared.GAME_INFO):
    # What the game is (id, name, players) comes from its declaration (declaration.py).
    version = "1"
    default_manifest = "topiary"
    move_cap = 200  # a 2-player match has 16 moves, 4 players about twice that (docs/games)
    state_type = TopiaryState

    # ---- setting up -----------------------------------------------------------------------

    def options(self, options: PlainMapping) -> PlainDict:
        return self._options_and_components(options)[0]

    def _options_and_components(
        self, options: PlainMapping
    ) -> tuple[PlainDict, tuple[str, ...], tuple[int, ...]]:
        """The checked options and their manifest's types and values, the manifest read once
        (by name it is a file to find: a third of a simulated match's setup when read twice)."""
        chosen = _structured(options)
        manifest = chosen.manifest
        # Recorded content (a `sha256:` reference) never changes: read once; a manifest named
        # is found (a club's file is read again) each time.
        found = _recorded.get(manifest)
        types, values = _components(manifest) if found is None else found
        if found is None and manifest.startswith(REF_PREFIX) and len(_recorded) < 64:
            _recorded[manifest] = types, values
        opts: PlainDict = {"last_player_chooses": chosen.last_player_chooses, "manifest": manifest}
        return opts, types, values

    def words(self, state: TopiaryState) -> Mapping[str, Sequence[str]]:
        """Every tile of the manifest: the type removed at setup too (its tiles are refused
        with that reason)."""
        return {"tile": dataclasses.replace(state.sculptures, removed=None).tiles()}

    def _dealt(self, seats: int, options: PlainMapping, tiles: int) -> list[int]:
        """How many tiles each seat is dealt (the last player gets the rest when choosing)."""
        rest = tiles - SIZE * SIZE - HAND * seats
        if rest < 0:
            raise InvalidSetup(
                f"{tiles} tiles do not fill a {SIZE}x{SIZE} garden and {seats} hands of {HAND}"
            )
        return [HAND] * (seats - 1) + [HAND + rest if options["last_player_chooses"] else HAND]

    def deal(self, seats: int, options: PlainMapping, rng: random.Random) -> dict[str, object]:
        opts, types, values = self._options_and_components(options)
        _check_players(seats)
        removed = rng.choice(types) if seats in REMOVES_A_TYPE else None
        tiles = list(_tiles_in_play(Sculptures(types, values, removed)))
        rng.shuffle(tiles)
        dealt = self._dealt(seats, opts, len(tiles))
        garden, rest = tiles[: SIZE * SIZE], tiles[SIZE * SIZE :]
        starts = list(itertools.accumulate(dealt, initial=0))
        setup: dict[str, object] = {
            "garden": dict(zip(CELLS, garden)),
            "hands": [rest[starts[s] : starts[s + 1]] for s in range(seats)],
        }
        if removed:
            setup["removed"] = removed
        return setup

    def start(self, seats: int, options: PlainMapping, setup: Mapping[str, Any]) -> TopiaryState:
        opts, types, values = self._options_and_components(options)
        _check_players(seats)
        if not isinstance(setup, Mapping) or set(setup) - {"removed", "garden", "hands"}:
            raise InvalidSetup(
                'a Topiary setup is {"removed": TYPE (2-3 players), "garden": '
                '{CELL: TILE, ...} (c3 at least), "hands": [[TILE, ...] per seat]}'
            )
        removed = setup.get("removed")
        if isinstance(removed, str):  # any case, in the manifest's spelling
            removed = {t.casefold(): t for t in types}.get(removed.strip().casefold(), removed)
        if seats in REMOVES_A_TYPE and removed not in types:
            raise InvalidSetup(
                f"with {seats} players one sculpture type is removed: setup "
                f"'removed' names one of {', '.join(types)}, got {quoted(removed)}"
            )
        if seats not in REMOVES_A_TYPE and removed is not None:
            raise InvalidSetup(f"with {seats} players no sculpture type is removed")
        sculptures = Sculptures(types, values, removed)
        dealt = self._dealt(seats, opts, len(sculptures.tiles()))
        try:
            garden = {
                fast.garden_cell(cell): sculptures.parse(tile)
                for cell, tile in dict(setup.get("garden") or {}).items()
            }
            hands = [
                _tile_list(sculptures, hand, "a hand")
                for hand in (setup.get("hands") or [[]] * seats)
            ]
        except (IllegalMove, TypeError, ValueError) as err:
            raise InvalidSetup(f"setup: {err}") from None
        if CENTRE not in garden:
            raise InvalidSetup("setup: the garden's c3 is face up from the start: name its tile")
        if len(hands) != seats:
            raise InvalidSetup(f"setup: hands lists the known tiles of each of the {seats} hands")
        for seat, (hand, size) in enumerate(zip(hands, dealt)):
            if len(hand) > size:
                raise InvalidSetup(f"setup: {_player(seat)} is dealt {size} tiles, not {len(hand)}")
        named = Counter(list(garden.values()) + [t for hand in hands for t in hand])
        twice = sorted(tile for tile, count in named.items() if count > 1)
        if twice:
            raise InvalidSetup(f"setup: {', '.join(twice)} dealt twice: each tile exists once")
        return TopiaryState(
            sculptures=sculptures,
            visitors_each=VISITORS[seats],
            tiles=tuple(garden.get(cell) for cell in range(SIZE * SIZE)),
            face_up=tuple(cell == CENTRE for cell in range(SIZE * SIZE)),
            hands=tuple(_hand(hand, size) for hand, size in zip(hands, dealt)),
        )

    # ---- whose turn -----------------------------------------------------------------------

    def phase(self, state: TopiaryState) -> str:
        hands = state.hands
        if max(map(len, hands)) > HAND:  # asked several times a move: no generator
            return KEEP
        if len(state.visitors) < state.visitors_each * len(hands):
            return VISIT
        return REVEAL if any(None in hand for hand in state.hands) else OVER

    def _seat(self, state: TopiaryState, phase: str) -> int:
        if phase == KEEP:
            return state.players - 1
        if phase == VISIT:
            return len(state.visitors) % state.players
        return next(seat for seat, hand in enumerate(state.hands) if None in hand)

    def to_move(self, state: TopiaryState) -> tuple[int, ...]:
        phase = self.phase(state)
        return () if phase == OVER else (self._seat(state, phase),)

    # ---- what is known --------------------------------------------------------------------

    def _whereabouts(self, state: TopiaryState, tile: str) -> str | None:
        """Where a known tile is, in words, or None when the table has not seen it."""
        if tile in state.tiles:
            cell = state.tiles.index(tile)
            return f"{'face up' if state.face_up[cell] else 'face down'} at {CELLS[cell]}"
        for seat, hand in enumerate(state.hands):
            if tile in hand:
                return f"in {_player(seat)}'s hand"
        return "back in the box" if tile in state.box else None

    def _unseen(self, state: TopiaryState, tile: str) -> str:
        """`tile`, when the table has not seen it yet; a second copy is refused."""
        where = self._whereabouts(state, tile)
        if where:
            raise IllegalMove(f"{tile} is already {where}: there is only one {tile}")
        return tile

    def _free(self, state: TopiaryState) -> list[str]:
        """The tiles in play the table has not seen (any of them may turn up)."""
        known = set(state.tiles) | set(state.box) | {t for hand in state.hands for t in hand}
        return [tile for tile in state.sculptures.tiles() if tile not in known]

    # ---- playing --------------------------------------------------------------------------

    def apply(self, state: TopiaryState, move: PlainMapping) -> TopiaryState:
        quick = fast.quick_visit(state.sculptures, move)
        if quick is not None and self.phase(state) == VISIT:
            # A canonical visiting move reads as the parser would read it; anything else
            # (including a visit out of turn) goes the full way, which words every refusal.
            return self._visit(state, len(state.visitors) % state.players, Visit(*quick))
        action = parse_move(state.sculptures, move)
        phase = self.phase(state)
        if phase == OVER:
            raise IllegalMove("the game is over: every visitor is placed and every hand revealed")
        seat = self._seat(state, phase)
        if isinstance(action, Keep):
            if phase != KEEP:
                raise IllegalMove(
                    "only the last player keeps tiles, once, before the first "
                    "visitor (option last_player_chooses)"
                )
            return self._keep(state, seat, action.tiles)
        if isinstance(action, Reveal):
            if phase != REVEAL:
                raise IllegalMove("hands are revealed at the end, once every visitor is placed")
            return self._reveal(state, seat, action.tiles)
        if phase == KEEP:
            raise IllegalMove(
                f"{_player(seat)} first keeps {HAND} of the tiles dealt to them "
                "(option last_player_chooses)"
            )
        if phase == REVEAL:
            raise IllegalMove(
                "the game is over: every visitor is placed; what remains is to reveal the hands"
            )
        return self._visit(state, seat, action)

    def _keep(self, state: TopiaryState, seat: int, keep: tuple[str, ...]) -> TopiaryState:
        pool = state.hands[seat]
        unseen = pool.count(None)
        dealt = f"you were dealt {len(pool)} tiles ({_listing(pool)}) and keep {HAND}"
        if len(keep) > HAND:
            raise IllegalMove(f"{dealt}, not {len(keep)}")
        newly_seen = [self._unseen(state, tile) for tile in keep if tile not in pool]
        if newly_seen and not unseen:
            raise IllegalMove(f"{dealt}: {newly_seen[0]} is not among them")
        if len(newly_seen) + HAND - len(keep) > unseen:
            raise IllegalMove(
                f"{dealt}: name every kept tile the record knows, "
                f"{HAND} in all when the whole deal is known"
            )
        box = tuple(sorted(state.box + tuple(t for t in pool if t and t not in keep)))
        hands = _replace(state.hands, seat, _hand(keep, HAND))
        return dataclasses.replace(state, hands=hands, box=box)

    def _reveal(self, state: TopiaryState, seat: int, shown: tuple[str, ...]) -> TopiaryState:
        hand = state.hands[seat]
        if len(shown) != len(hand):
            raise IllegalMove(f"reveal the whole hand: {len(hand)} tiles, not {len(shown)}")
        for tile in hand:
            if tile and tile not in shown:
                raise IllegalMove(f"the hand is known to hold {tile}: the reveal must show it")
        for tile in shown:
            if tile not in hand:
                self._unseen(state, tile)
        return dataclasses.replace(state, hands=_replace(state.hands, seat, _hand(shown, HAND)))

    def _visit(self, state: TopiaryState, seat: int, visit: Visit) -> TopiaryState:
        if any(v.spot == visit.spot for v in state.visitors):
            raise IllegalMove(f"visitor spot {visit.spot} is taken: one visitor per spot")
        visitors = state.visitors + (Visitor(visit.spot, seat),)
        if visit.take is None:
            after = TopiaryState(
                sculptures=state.sculptures,
                visitors_each=state.visitors_each,
                tiles=state.tiles,
                face_up=state.face_up,
                hands=state.hands,
                box=state.box,
                visitors=visitors,
            )
            fast.give_tables(state, after, None, "")
            return after
        assert visit.place is not None  # the move's parser gives take and place together
        cell, line = visit.take, SIGHT_LINES[visit.spot]
        if cell not in line:
            raise IllegalMove(
                f"{CELLS[cell]} is not in the sight line of {visit.spot} "
                f"({' '.join(CELLS[c] for c in line)}): a visitor takes only a tile "
                "it looks at"
            )
        if state.face_up[cell]:
            raise IllegalMove(
                f"{CELLS[cell]} is face up ({state.tiles[cell]}): only face-down tiles are taken"
            )
        taken = state.tiles[cell]
        if visit.took is not None and visit.took != taken:
            if taken is not None:
                raise IllegalMove(
                    f"the tile at {CELLS[cell]} is {taken} (known from the deal), not {visit.took}"
                )
            taken = self._unseen(state, visit.took)
        hand = list(state.hands[seat]) + [taken]
        if visit.place in hand:
            hand.remove(visit.place)
        elif None in hand:  # an unseen tile of the hand (or the one just taken) is revealed
            self._unseen(state, visit.place)
            hand.remove(None)
        else:
            raise IllegalMove(
                f"{visit.place} is not in your hand: you hold "
                f"{_listing(hand[:-1])} and took {taken} from {CELLS[cell]}"
            )
        after = TopiaryState(
            sculptures=state.sculptures,
            visitors_each=state.visitors_each,
            tiles=_replace(state.tiles, cell, visit.place),
            face_up=_replace(state.face_up, cell, True),
            hands=_replace(state.hands, seat, _hand([t for t in hand if t], HAND)),
            box=state.box,
            visitors=visitors,
        )  # built directly: dataclasses.replace costs more than the whole move
        fast.give_tables(state, after, cell, visit.place)
        return after

    # ---- what may be played ---------------------------------------------------------------

    def legal_moves(self, state: TopiaryState) -> list[Move]:
        phase = self.phase(state)
        if phase == OVER:
            return []
        seat = self._seat(state, phase)
        if phase == KEEP:
            return self._keep_moves(state, seat)
        if phase == REVEAL:
            known = [t for t in state.hands[seat] if t]
            return [
                {"reveal": known + list(more)}
                for more in itertools.combinations(self._free(state), state.hands[seat].count(None))
            ]
        return self._visit_moves(state, seat)

    def _keep_moves(self, state: TopiaryState, seat: int) -> list[Move]:
        pool = state.hands[seat]
        known, unseen = [t for t in pool if t], pool.count(None)
        # Kept tiles the record names: known ones of the deal; the rest of the 3 stay unseen.
        return [
            {"keep": list(kept)}
            for size in range(max(0, HAND - unseen), HAND + 1)
            for kept in itertools.combinations(known, size)
        ]

    def _visit_moves(self, state: TopiaryState, seat: int) -> list[Move]:
        moves: list[Move] = []
        for spot, cell, places in self._visit_offers(state, seat):
            if cell is None:
                moves.append({"visitor": spot})
            else:
                moves.extend(
                    {"visitor": spot, "take": CELLS[cell], "place": tile} for tile in places
                )
        return moves

    def _visit_offers(
        self, state: TopiaryState, seat: int
    ) -> list[tuple[str, int | None, list[str]]]:
        """The visiting moves, grouped: (spot, None, []) for a visitor alone, then (spot, cell,
        tiles) for each face-down tile it may take and the tiles that may replace it."""
        taken_spots = {v.spot for v in state.visitors}
        places = self._places(state, seat)
        offers: list[tuple[str, int | None, list[str]]] = []
        for spot, line in SIGHT_LINES.items():
            if spot not in taken_spots:
                offers.append((spot, None, []))
                offers += [
                    (spot, cell, places(state.tiles[cell]))
                    for cell in line
                    if not state.face_up[cell]
                ]
        return offers

    def _places(self, state: TopiaryState, seat: int) -> Callable[[str | None], list[str]]:
        """The tiles a visitor taking a face-down tile (None: unseen) may place into the gap:
        the hand's, the taken tile back, and any unseen tile while the hand or the taken tile
        is unseen."""
        hand = [t for t in state.hands[seat] if t]
        hand_unseen = None in state.hands[seat]
        free = self._free(state) if hand_unseen or None in state.tiles else []

        def places(taken: str | None) -> list[str]:
            if taken is None:
                return hand + free
            return hand + [taken] + free if hand_unseen else hand + [taken]

        return places

    def random_move(self, state: TopiaryState, rng: random.Random) -> Move:
        """Uniform over `legal_moves`, drawing exactly as a choice from that list does, but
        building only the move drawn (a turn offers hundreds): `_visit_offers` counted per
        spot from how many face-down tiles, seen and unseen, its sight line holds."""
        phase = self.phase(state)
        if phase != VISIT:
            return super().random_move(state, rng)
        places = self._places(state, len(state.visitors) % state.players)
        # Every seen tile offers as many places (which one does not matter), as does every
        # unseen one.
        seen_ways, unseen_ways = len(places(state.tiles[CENTRE])), len(places(None))
        down, unseen = fast.down_in_sight(state)
        taken_spots = {fast.SPOT_NUMBER[v.spot] for v in state.visitors}
        # The free spots' face-down tiles, and of those the unseen ones.
        face_down = sum(down) - sum(down[number] for number in taken_spots)
        hidden = sum(unseen) and sum(unseen) - sum(unseen[number] for number in taken_spots)
        drawn = rng.choice(
            range(
                len(down)
                - len(taken_spots)
                + seen_ways * (face_down - hidden)
                + unseen_ways * hidden
            )
        )
        for number, here in enumerate(down):
            if number in taken_spots:
                continue
            moves = (
                seen_ways * (here - unseen[number]) + unseen_ways * unseen[number]
                if hidden
                else seen_ways * here
            )
            if drawn > moves:
                drawn -= moves + 1
                continue
            spot, line = fast.SPOT_LINES[number]
            if not drawn:
                return {"visitor": spot}
            drawn -= 1
            for cell in line:
                if not state.face_up[cell]:
                    tiles = places(state.tiles[cell])
                    if drawn < len(tiles):
                        return {"visitor": spot, "take": CELLS[cell], "place": tiles[drawn]}
                    drawn -= len(tiles)
        raise AssertionError("the draw falls within the moves counted")

    # ---- scoring --------------------------------------------------------------------------

    def sight(self, state: TopiaryState, spot: str) -> list[str]:
        """The sculptures a visitor at `spot` sees, nearest first."""
        return [
            name for _, _, name in scoring.seen_along(scoring.face_up(state), SIGHT_LINES[spot])
        ]

    def _tally(self, state: TopiaryState, seat: int) -> _Tally:
        """A seat's categories and details; unseen hand tiles count nothing here."""
        seen, tallest = scoring.views(state, seat)
        views: list[_ViewDetail] = [
            {
                "spot": view.spot,
                "sees": [name for _, _, name in view.seen],
                "points": view.points,
                "bonus": view.bonus,
            }
            for view in seen
        ]
        hand: list[_HandTile] = [
            {"tile": tile, "points": scoring.hand_tile_points(tile, tallest)}
            for tile in state.hands[seat]
            if tile
        ]
        return {
            "visitors": sum(v["points"] for v in views),
            "type bonus": sum(v["bonus"] for v in views),
            "hand": sum(h["points"] for h in hand),
            "views": views,
            "hand_tiles": hand,
        }

    def _require_hands(self, state: TopiaryState) -> None:
        if not any(None in hand for hand in state.hands):
            return  # every hand known (the usual case): no wording
        unseen = [
            f"{_player(seat)}'s hand has {hand.count(None)} unrevealed tile(s)"
            for seat, hand in enumerate(state.hands)
            if None in hand
        ]
        if unseen:
            raise UnknownInformation(
                "hand points need every hand: "
                + "; ".join(unseen)
                + " (record each hand's tiles as they are shown)"
            )

    def score(self, state: TopiaryState) -> list[dict[str, Any]]:
        self._require_hands(state)
        result = []
        for seat in range(state.players):
            tally = self._tally(state, seat)
            categories = {
                "visitors": tally["visitors"],
                "type bonus": tally["type bonus"],
                "hand": tally["hand"],
            }
            result.append(
                seat_score(
                    sum(categories.values()),
                    categories,
                    visitors=tally["views"],
                    hand=tally["hand_tiles"],
                )
            )
        return result

    def totals(self, state: TopiaryState) -> list[float]:
        """`score`'s totals without its details (the recorder asks after every move)."""
        self._require_hands(state)
        return [float(total) for total in scoring.points(state)[0]]

    def outcome(self, state: TopiaryState) -> Outcome | None:
        # The reveal of the hands is part of play: until it is recorded the game is running
        # (`to_move` names whose hand is awaited) and `score` says which hands are missing.
        if self.phase(state) != OVER:
            return None
        # The recorder and the simulation ask the final position's outcome several times: kept
        # on the state, the Outcome being immutable.
        return _final_outcome(state)

    def _ranked(self, state: TopiaryState, key: list[tuple[int, int, int]]) -> Outcome:
        """The outcome from each seat's (total, hand points, seat)."""
        ranked = sorted(range(state.players), key=lambda seat: key[seat], reverse=True)
        (total, hand, winner), (total2, hand2, _) = key[ranked[0]], key[ranked[1]]
        if total > total2:
            reason = f"{_player(winner)} has the highest total, {total} points"
        elif hand > hand2:
            reason = (
                f"tied on {total} points, {_player(winner)} has the most hand points "
                f"({hand} to {hand2})"
            )
        else:
            reason = (
                f"tied on {total} points and {hand} hand points, {_player(winner)} "
                "played later in turn order"
            )
        return Outcome((winner,), tuple((seat,) for seat in ranked), reason)

    def evaluate(self, state: TopiaryState, seat: int) -> float:
        """What a player can count mid-game: the points its visitors see now plus its own hand
        points, against the best opponent's visible points (their hands are secret)."""
        totals, hands = scoring.points(state)  # the greedy bot asks it of every candidate
        sight = [total - hand for total, hand in zip(totals, hands)]
        return totals[seat] - max(points for s, points in enumerate(sight) if s != seat)

    # ---- describing -----------------------------------------------------------------------

    def move_kind(self, move: PlainMapping) -> str:
        if "take" in move:
            return "visitor and rearrange"
        return next((kind for kind in ("visitor", "keep", "reveal") if kind in move), "move")

    def named_reason(self, reason: str, seats: Sequence[str]) -> str:
        def name(found: re.Match[str]) -> str:
            number = int(found[1])
            return seats[number - 1] if 1 <= number <= len(seats) else found[0]

        return PLAYER_IN_REASON.sub(name, reason)

    def describe(self, move: Mapping[str, Any], seats: Sequence[str] = ()) -> str:
        if "keep" in move:
            unnamed = HAND - len(move["keep"])
            kept = list(move["keep"]) + ([f"{unnamed} unrecorded"] if unnamed else [])
            return f"keeps {', '.join(kept)} of the tiles dealt"
        if "reveal" in move:
            return f"reveals a hand of {_listing(move['reveal'])}"
        text = f"places a visitor at {spot_words(move.get('visitor', '?'))}"
        if "take" in move:
            took = f" ({move['took']})" if move.get("took") else ""
            text += f"; takes the tile at {move['take']}{took} and places {move['place']} there"
        return text

    def render(self, state: TopiaryState, seats: Sequence[str]) -> str:
        labels = [
            (tile if up else f"[{tile}]") if tile else "[ ? ]"
            for tile, up in zip(state.tiles, state.face_up)
        ]
        removed = f", {state.sculptures.removed} removed" if state.sculptures.removed else ""
        lines = [
            f"Topiary, {state.players} players{removed}. Swan 4: face up; [Swan 4]: face "
            "down, known to the record; [ ? ]: face down, unseen"
        ]
        lines += draw_garden(labels, {v.spot: str(v.seat + 1) for v in state.visitors})
        lines.append(
            "around the garden: each visitor spot, · when free or the number of the "
            "player standing there; the arrow is the way it looks"
        )
        for seat, name in enumerate(seats):
            tally = self._tally(state, seat)
            placed = sum(v.seat == seat for v in state.visitors)
            lines.append(
                f"{seat + 1} {name}: {placed}/{state.visitors_each} visitors, hand "
                f"{_listing(state.hands[seat])}; visitors {tally['visitors']}, type bonus "
                f"{tally['type bonus']}, hand {tally['hand']}"
            )
            lines += [
                f"    {view['spot']:<6} sees {_listing(view['sees'])}: {view['points']}"
                + (f" + {view['bonus']} type bonus" if view["bonus"] else "")
                for view in tally["views"]
            ]
        lines.append(self._status(state, seats))
        return "\n".join(lines)

    def _status(self, state: TopiaryState, seats: Sequence[str]) -> str:
        phase = self.phase(state)
        if phase == KEEP:
            return f"to move: {seats[-1]} keeps {HAND} of the tiles dealt (last_player_chooses)"
        if phase == OVER:
            result = self.outcome(state)
            assert result is not None  # every hand is revealed: the game is over
            reason = self.named_reason(result.reason, seats)
            return f"game over: {seats[result.winners[0]]} wins ({reason})"
        seat = self._seat(state, phase)
        if phase == VISIT:
            number = sum(v.seat == seat for v in state.visitors) + 1
            return f"to move: {seats[seat]}, visitor {number} of {state.visitors_each}"
        return f"every visitor is placed; awaiting {seats[seat]}'s hand to be revealed"

    def components(
        self, state: TopiaryState, scores: list[dict[str, Any]], moves: Moves
    ) -> list[list[Component]]:
        return component_rows(state, scores, moves)


def _hand(known: Sequence[str | None], size: int) -> tuple[str | None, ...]:
    """A hand in canonical order (known tiles sorted, then one None per unseen tile)."""
    tiles = sorted(t for t in known if t)
    return tuple(tiles) + (None,) * (size - len(tiles))


def _replace(items: tuple[V, ...], index: int, value: V) -> tuple[V, ...]:
    return items[:index] + (value,) + items[index + 1 :]


RULES = Topiary()


@per_state
def _final_outcome(state: TopiaryState) -> Outcome:
    totals, hands = scoring.points(state)  # what `score` totals, without its details
    key = [(total, hand, seat) for seat, (total, hand) in enumerate(zip(totals, hands))]
    return RULES._ranked(state, key)
