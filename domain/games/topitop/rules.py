"""Topitop (Thierry Denoual): buckets on sand castles on a 3x3 board.

Rules as RULES.md reads them (GamesCrafters' published implementation):
- seat 0 is Blue and moves first, seat 1 is Red; each has 2 buckets; 4 small and 4 large sand
  piles are neutral (counts are the options `small` and `large`);
- a turn is one action: place an own bucket or a sand pile from the supply on an empty cell, or
  slide one piece or stack one cell in any of 8 directions onto an empty cell or a legal stack;
- legal stacks: bucket on small pile; small pile on large pile (a sand castle); a bucket-topped
  small pile on a large pile; a bucket on a castle. Stacks are never taken apart;
- a player moves own buckets, stacks topped by an own bucket, and any neutral piece or castle;
- no reversal: after a neutral piece or castle slides to an empty cell, the opponent may not slide
  it straight back on the very next turn;
- a player with no legal action passes; the first with both buckets on sand castles wins.

A cell holds its stack bottom to top as a string: "" empty, "L" large pile, "S" small pile,
"B"/"R" a Blue/Red bucket; so "LS" is a sand castle and "LSB" a Blue bucket on a castle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

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
from ..cells import KING_STEPS, cell_name, parse_cell
from ..declaring import unstructure
from .declaration import GAME_INFO, Pass, Place, Slide

SIZE = 3
COLOURS = ("Blue", "Red")
BUCKET = ("B", "R")  # seat -> bucket letter
BUCKETS_PER_SEAT = 2
PIECES = {"bucket": "bucket", "small": "S", "large": "L"}

# What may slide onto what: (moving stack, target stack) -> resulting stack, for either colour.
STACKINGS = {}
for _b in BUCKET:
    STACKINGS[(_b, "S")] = "S" + _b  # (b) bucket onto a small pile
    STACKINGS[(_b, "LS")] = "LS" + _b  # (e) bucket onto a sand castle
    STACKINGS[("S" + _b, "L")] = "LS" + _b  # (d) bucket on small pile onto a large pile
STACKINGS[("S", "L")] = "LS"  # (c) small pile onto a large pile: a castle

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * SIZE + (c + dc)
        for dc, dr in KING_STEPS
        if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
)
NAMES = tuple(cell_name(i % SIZE, i // SIZE) for i in range(SIZE * SIZE))


@dataclasses.dataclass(frozen=True)
class TopitopState:
    cells: tuple[str, ...]  # 9 stacks, a1 b1 c1 a2 ... c3
    turn: int  # the seat to act
    small: int  # the match's number of small piles
    large: int  # and of large piles
    no_return: tuple[int, int] | None = None  # (from, to): the slide the player to act may not make
    winner: int | None = None
    actions: int = 0  # actions taken, passes included

    def supply(self, piece: str) -> int:
        """How many of a piece ("S", "L", "B", "R") are still off the board."""
        total = {"S": self.small, "L": self.large}.get(piece, BUCKETS_PER_SEAT)
        return total - sum(stack.count(piece) for stack in self.cells)


def _cell(name: object) -> int:
    col, row = parse_cell(name, SIZE, SIZE)
    return row * SIZE + col


def _owner(stack: str) -> int | None:
    """The seat controlling a stack, or None when it is neutral (no bucket on top)."""
    top = stack[-1:]
    return BUCKET.index(top) if top in BUCKET else None


def _describe_stack(stack: str) -> str:
    names = {"": "nothing", "L": "a large pile", "S": "a small pile", "LS": "a sand castle"}
    if stack in names:
        return names[stack]
    colour = COLOURS[BUCKET.index(stack[-1])]
    return (
        f"a {colour} bucket"
        + {"": "", "S": " on a small pile", "LS": " on a sand castle"}[stack[:-1]]
    )


def _slides(state: TopitopState) -> Iterator[tuple[int, int]]:
    """Every legal slide (from, to): what `_slide_error` allows, checked without wording the
    refusals (a bot's turn asks for every slide; most are refused)."""
    cells, mine = state.cells, BUCKET[state.turn]
    for src, moving in enumerate(cells):
        if not moving or (moving[-1] in BUCKET and moving[-1] != mine):
            continue  # nothing to move, or the opponent's bucket on top
        for dst in NEIGHBOURS[src]:
            target = cells[dst]
            if (not target or (moving, target) in STACKINGS) and state.no_return != (src, dst):
                yield src, dst


# An action read off a move: a piece placed on a cell, a slide between cells, or a pass.
_Action = (
    tuple[Literal["place"], str, int] | tuple[Literal["slide"], int, int] | tuple[Literal["pass"]]
)


class Topitop(GameRules[TopitopState], declared=GAME_INFO):
    # What the game is (id, name, players) comes from its declaration (declaration.py).
    version = "1"
    move_cap = 200  # as for simulations: past it the buckets go round in circles (docs/games)
    state_type = TopitopState
    playout_cap = 200  # simulations end loops as a draw by agreement after this many actions

    def options(self, options: PlainMapping) -> dict[str, int]:
        declared = GAME_INFO.structure_options(options)
        for name, count in dataclasses.asdict(declared).items():
            if not 0 <= count <= SIZE * SIZE:
                raise InvalidSetup(f"option {name} must be between 0 and 9, got {quoted(count)}")
        return unstructure(declared)

    def start(self, seats: int, options: PlainMapping, setup: PlainMapping) -> TopitopState:
        if seats != 2:
            raise InvalidSetup(f"Topitop is for 2 players (Blue and Red), not {seats}")
        if setup:
            raise InvalidSetup("Topitop starts on an empty board: it takes no setup")
        opts = self.options(options)
        return TopitopState(
            cells=("",) * (SIZE * SIZE), turn=0, small=opts["small"], large=opts["large"]
        )

    # ---- the actions ------------------------------------------------------------------------

    def _place_error(self, state: TopitopState, piece: str, to: int) -> str | None:
        letter = BUCKET[state.turn] if piece == "bucket" else PIECES[piece]
        if state.cells[to]:
            return (
                f"{NAMES[to]} holds {_describe_stack(state.cells[to])}: pieces are placed "
                "on empty cells only; move a piece to stack it"
            )
        if state.supply(letter) <= 0:
            what = f"{COLOURS[state.turn]} buckets" if piece == "bucket" else f"{piece} sand piles"
            return f"no {what} are left to place"
        return None

    def _slide_error(self, state: TopitopState, src: int, dst: int) -> str | None:
        moving, target = state.cells[src], state.cells[dst]
        if not moving:
            return f"{NAMES[src]} is empty: there is nothing to move"
        owner = _owner(moving)
        if owner is not None and owner != state.turn:
            return (
                f"{NAMES[src]} holds {_describe_stack(moving)}: "
                f"{COLOURS[state.turn]} may not move the opponent's bucket"
            )
        if dst not in NEIGHBOURS[src]:
            return f"{NAMES[src]} to {NAMES[dst]} is not one step in any of the 8 directions"
        if target and (moving, target) not in STACKINGS:
            return (
                f"{_describe_stack(moving)} may not go onto {_describe_stack(target)} "
                f"at {NAMES[dst]}"
            )
        if state.no_return == (src, dst):
            return (
                f"no reversal: the opponent just slid that piece from {NAMES[dst]} to "
                f"{NAMES[src]}, it may not go straight back"
            )
        return None

    def _parse(self, state: TopitopState, move: PlainMapping) -> _Action:
        if not isinstance(move, Mapping):
            raise IllegalMove(f"a Topitop move is a JSON object, got {quoted(move)}")
        keys, shape = set(move), GAME_INFO.move_shape(move)
        if shape is Place:
            # A list or object is no piece (and no key of PIECES: unhashable, it would raise).
            piece = move["place"].strip().lower() if isinstance(move["place"], str) else None
            if piece is None or piece not in PIECES:  # any case, as every name
                raise IllegalMove(
                    f"place must be bucket, small or large, not {quoted(move['place'])}"
                )
            return ("place", piece, _cell(move["to"]))
        if shape is Slide:
            return ("slide", _cell(move["from"]), _cell(move["to"]))
        if shape is Pass and move["pass"] is True:
            return ("pass",)
        raise IllegalMove(
            'a Topitop move is {"place": "bucket"|"small"|"large", "to": CELL}, '
            '{"from": CELL, "to": CELL} or {"pass": true}, '
            f"got {quoted(sorted(keys))}"
        )

    def apply(self, state: TopitopState, move: PlainMapping) -> TopitopState:
        if state.winner is not None:
            raise IllegalMove(f"the game is over: {COLOURS[state.winner]} has won")
        action = self._parse(state, move)
        cells = list(state.cells)
        no_return = None
        if action[0] == "pass":
            if self._actions(state):
                raise IllegalMove("a player may pass only when no other move is legal")
        elif action[0] == "place":
            _, piece, to = action
            error = self._place_error(state, piece, to)
            if error:
                raise IllegalMove(error)
            cells[to] = BUCKET[state.turn] if piece == "bucket" else PIECES[piece]
        else:
            _, src, dst = action
            error = self._slide_error(state, src, dst)
            if error:
                raise IllegalMove(error)
            moving, target = cells[src], cells[dst]
            cells[src], cells[dst] = "", STACKINGS.get((moving, target), moving)
            if not target and _owner(moving) is None:
                no_return = (dst, src)
        won = sum(stack == "LS" + BUCKET[state.turn] for stack in cells) == BUCKETS_PER_SEAT
        return dataclasses.replace(
            state,
            cells=tuple(cells),
            turn=1 - state.turn,
            no_return=no_return,
            winner=state.turn if won else None,
            actions=state.actions + 1,
        )

    def _actions(self, state: TopitopState) -> list[Move]:
        # The supply is counted once, not once per cell and piece (`_place_error`'s checks: an
        # empty cell and a piece left); every slide is checked by the rule itself.
        left = [
            piece
            for piece in PIECES
            if state.supply(BUCKET[state.turn] if piece == "bucket" else PIECES[piece]) > 0
        ]
        moves: list[Move] = [
            {"place": piece, "to": NAMES[to]}
            for to in range(SIZE * SIZE)
            if not state.cells[to]
            for piece in left
        ]
        moves.extend({"from": NAMES[src], "to": NAMES[dst]} for src, dst in _slides(state))
        return moves

    def legal_moves(self, state: TopitopState) -> list[Move]:
        if state.winner is not None:
            return []
        return self._actions(state) or [{"pass": True}]

    def to_move(self, state: TopitopState) -> tuple[int, ...]:
        return () if state.winner is not None else (state.turn,)

    def totals(self, state: TopitopState) -> list[float]:
        return [float(state.cells.count("LS" + bucket)) for bucket in BUCKET]

    def score(self, state: TopitopState) -> list[dict[str, Any]]:
        """Topitop has no points: the total is the buckets crowning a castle (2 wins)."""
        result = []
        for seat, bucket in enumerate(BUCKET):
            on_castle = sum(stack == "LS" + bucket for stack in state.cells)
            on_small = sum(stack == "S" + bucket for stack in state.cells)
            placed = BUCKETS_PER_SEAT - state.supply(bucket)
            result.append(
                seat_score(
                    on_castle,
                    {"buckets on castles": on_castle},
                    colour=COLOURS[seat],
                    buckets_placed=placed,
                    buckets_on_small_piles=on_small,
                )
            )
        return result

    def outcome(self, state: TopitopState) -> Outcome | None:
        if state.winner is None:
            return None
        loser = 1 - state.winner
        return Outcome(
            (state.winner,),
            ((state.winner,), (loser,)),
            f"{COLOURS[state.winner]} has both buckets on sand castles",
        )

    # ---- describing -------------------------------------------------------------------------

    def move_kind(self, move: PlainMapping) -> str:
        if "place" in move:
            return f"place {move['place']}"
        return "pass" if "pass" in move else "slide"

    def describe(self, move: PlainMapping, seats: Sequence[str] = ()) -> str:
        if "place" in move:
            pile = "sand pile " if move["place"] != "bucket" else ""
            return f"places a {move['place']} {pile}on {move['to']}"
        if "pass" in move:
            return "passes (no legal move)"
        return f"moves {move['from']} to {move['to']}"

    def render(self, state: TopitopState, seats: Sequence[str]) -> str:
        lines = ["     " + "".join(f"{chr(ord('a') + c):^7}" for c in range(SIZE))]
        for r in range(SIZE):
            row = [state.cells[r * SIZE + c] or "." for c in range(SIZE)]
            lines.append(f"  {r + 1}  " + "".join(f"{stack:^7}" for stack in row))
        lines.append("")
        lines.append(
            "L large pile, S small pile, B Blue bucket, R Red bucket (stacks bottom to top)"
        )
        lines.append(
            f"supply: small {state.supply('S')}, large {state.supply('L')}, "
            f"Blue buckets {state.supply('B')}, Red buckets {state.supply('R')}"
        )
        if state.winner is not None:
            lines.append(f"{seats[state.winner]} ({COLOURS[state.winner]}) has won")
        else:
            lines.append(f"to move: {seats[state.turn]} ({COLOURS[state.turn]})")
            if state.no_return:
                src, dst = state.no_return
                lines.append(f"may not slide {NAMES[src]} back to {NAMES[dst]} this turn")
        return "\n".join(lines)

    def components(
        self, state: TopitopState, scores: list[dict[str, Any]], moves: Moves
    ) -> list[list[Component]]:
        """Nothing to measure: two buckets each, no scored components."""
        return [[] for _ in scores]


RULES = Topitop()
