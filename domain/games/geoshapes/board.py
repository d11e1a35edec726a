"""The GeoShapes board and deck: the manifest model, read and checked once per match.

Nothing public describes the published board, so a board is a manifest (RULES.md): four quadrants
listed clockwise (neighbours in the list adjoin, and so do the last and the first), each with two
figures and a circle described as the multiset of shapes that completes them; every shape's point
value; the card deck (cards per shape, one GeoShape piece per card); and which shape is the Wild.

    {"format": "geoshapes-manifest/1", "name": "...", "wild": "Wild",
     "shapes": {"Square": 4, ..., "Wild": 10},            # point values
     "deck": {"Square": 4, ..., "Wild": 2},               # cards (and pieces) per shape
     "quadrants": [{"name": "North-West",
                    "figures": {"Sailboat": {"Trapezoid": 1, "Right Triangle": 2, ...},
                                "House": {...}},
                    "circle": {"Semicircle": 2}}, ...]}

A figure or circle is a *place*; figures are named by the manifest, a circle by its quadrant
("North-West circle"). Every problem with a manifest is an InvalidSetup naming the file and the
entry at fault.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from ...quoting import quoted
from ..base import InvalidSetup
from ..manifests import read_with

FORMAT = "geoshapes-manifest/1"
QUADRANTS = 4
FIGURES_PER_QUADRANT = 2
LARGEST_DEAL = 16  # 4 players x 4 cards, or 2 half-board players x 8: the deck must outlast it
GAP_MEMO = 50_000
GapCount = tuple[int, tuple[tuple[str, int], ...]]
TOP_KEYS = {"format", "name", "notes", "wild", "shapes", "deck", "quadrants"}


@dataclasses.dataclass(frozen=True)
class Place:
    """A figure or a circle, and the shapes that complete it."""

    name: str
    quadrant: str
    is_circle: bool
    needs: dict[str, int]

    # Computed once per place (the board is read once per match): the rules ask these on every
    # move. A cached_property lives outside the dataclass fields, so == and encoding ignore it.
    @cached_property
    def size(self) -> int:
        return sum(self.needs.values())

    @cached_property
    def _slots(self) -> tuple[str, ...]:
        return tuple(shape for shape, count in self.needs.items() for _ in range(count))

    def slots(self) -> list[str]:
        """The completed place's shapes one by one, in manifest order."""
        return list(self._slots)


@dataclasses.dataclass(frozen=True)
class Board:
    name: str
    wild: str
    values: dict[str, int]  # shape -> points
    deck: dict[str, int]  # shape -> cards in the deck
    quadrants: tuple[str, ...]  # clockwise
    places: tuple[Place, ...]  # per quadrant: its figures, then its circle

    @cached_property
    def cards(self) -> int:
        return sum(self.deck.values())

    # Lookup tables built on first use (the rules ask them on every move); cached_property
    # keeps them out of the dataclass fields, so == and encoding see only the manifest.
    @cached_property
    def _indices(self) -> dict[str, int]:
        return {place.name: i for i, place in enumerate(self.places)}

    @cached_property
    def _figures(self) -> dict[str, tuple[Place, ...]]:
        return {
            q: tuple(p for p in self.places if p.quadrant == q and not p.is_circle)
            for q in self.quadrants
        }

    @cached_property
    def _circles(self) -> dict[str, Place]:
        return {p.quadrant: p for p in self.places if p.is_circle}

    # Index tables for the engine's fast paths (legality.py, playing.py): places and stacks by
    # position, so that a move reads tuples by index rather than searching names.
    @cached_property
    def quadrant_at(self) -> dict[str, int]:
        return {q: i for i, q in enumerate(self.quadrants)}

    @cached_property
    def place_quadrant(self) -> tuple[int, ...]:
        """Per place index, the index of its quadrant."""
        return tuple(self.quadrants.index(p.quadrant) for p in self.places)

    @cached_property
    def rivals(self) -> tuple[tuple[int, ...], ...]:
        """Per place index, the other figures of its quadrant (none for a circle)."""
        return tuple(
            ()
            if p.is_circle
            else tuple(
                i
                for i, o in enumerate(self.places)
                if o.quadrant == p.quadrant and not o.is_circle and o is not p
            )
            for p in self.places
        )

    @cached_property
    def parts(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Per quadrant, the index of its circle and those of its figures."""
        return {
            q: (
                next(i for i, p in enumerate(self.places) if p.quadrant == q and p.is_circle),
                tuple(i for i, p in enumerate(self.places) if p.quadrant == q and not p.is_circle),
            )
            for q in self.quadrants
        }

    @cached_property
    def fit_memo(self) -> dict[tuple[int, tuple[str, ...]], frozenset[str]]:
        """Memo of `fitting` (bounded like `gap_memo`)."""
        return {}

    def fitting(self, index: int, placed: tuple[str, ...]) -> frozenset[str]:
        """The shapes that `fits` the place at `index` holding `placed` (the Wild among them
        while a slot is free)."""
        key = (index, placed)
        found = self.fit_memo.get(key)
        if found is None:
            place = self.places[index]
            found = frozenset(s for s in self.values if fits(place, placed, s, self.wild))
            if len(self.fit_memo) >= GAP_MEMO:
                self.fit_memo.clear()
            self.fit_memo[key] = found
        return found

    @cached_property
    def need_memo(self) -> dict[tuple[object, ...], int]:
        """The rules' memo of one quadrant's shapes needed (scoring.shapes_needed)."""
        return {}

    @cached_property
    def gap_memo(self) -> dict[tuple[int, tuple[str, ...], tuple[str, ...]], GapCount]:
        """Memo of `gap_count`: a place holds a handful of shapes, so a board meets few distinct
        fillings (cleared past GAP_MEMO entries all the same)."""
        return {}

    def gap_count(
        self, figure: int, on_figure: tuple[str, ...], on_circle: tuple[str, ...]
    ) -> GapCount:
        """The slots a figure and its quadrant's circle still need that no placed shape covers
        (a Wild placed covers one), as (how many, ((shape, how many), ...)) in slot order."""
        key = (figure, on_figure, on_circle)
        found = self.gap_memo.get(key)
        if found is None:
            circle = self.parts[self.places[figure].quadrant][0]
            gaps = _uncovered(self.places[figure], on_figure, self.wild)
            gaps += _uncovered(self.places[circle], on_circle, self.wild)
            found = (len(gaps), tuple(Counter(gaps).items()))
            if len(self.gap_memo) >= GAP_MEMO:
                self.gap_memo.clear()
            self.gap_memo[key] = found
        return found

    @cached_property
    def _own(self) -> dict[tuple[str, ...], tuple[int, ...]]:
        return {}

    def own_indices(self, quadrants: tuple[str, ...]) -> tuple[int, ...]:
        """The indices of `places_of(quadrants)`, in board order (kept per quadrant choice)."""
        found = self._own.get(quadrants)
        if found is None:
            found = self._own[quadrants] = tuple(
                i for i, p in enumerate(self.places) if p.quadrant in quadrants
            )
        return found

    def index(self, name: str) -> int | None:
        return self._indices.get(name)

    def where(self, name: str) -> int:
        """The index of a place the rules already found on this board."""
        index = self.index(name)
        if index is None:
            raise KeyError(f"{name!r} is not a place of {self.name}")
        return index

    def places_of(self, quadrants: Iterable[str]) -> list[Place]:
        wanted = set(quadrants)
        return [place for place in self.places if place.quadrant in wanted]

    def figures(self, quadrant: str) -> list[Place]:
        return list(self._figures.get(quadrant, ()))

    def circle(self, quadrant: str) -> Place:
        return self._circles[quadrant]

    def adjoin(self, first: str, second: str) -> bool:
        a, b = self.quadrants.index(first), self.quadrants.index(second)
        return (a - b) % QUADRANTS in (1, QUADRANTS - 1)


# ---- the fit restriction and the Wild -------------------------------------------------------
# A place's shapes stay a sub-multiset of what completes it, the Wild standing for any one shape
# still missing; so a real shape fits while the place needs more of it and has a free slot, and
# the Wild fits any free slot.


def fits(place: Place, placed: tuple[str, ...], shape: str, wild: str) -> bool:
    if len(placed) >= place.size:
        return False
    return shape == wild or placed.count(shape) < place.needs.get(shape, 0)


def is_complete(place: Place, placed: tuple[str, ...]) -> bool:
    return len(placed) == place.size


def missing(place: Place, placed: tuple[str, ...], wild: str) -> list[str]:
    """The slots no real shape fills, in manifest order (the Wilds placed cover the first ones)."""
    if not placed:
        return list(place._slots)
    have = list(placed)  # a list, not a Counter: a place holds a handful of shapes
    gaps = []
    for shape in place._slots:
        if shape in have and shape != wild:
            have.remove(shape)
        else:
            gaps.append(shape)
    return gaps


def _uncovered(place: Place, placed: tuple[str, ...], wild: str) -> list[str]:
    """The slots of `place` that neither a real shape nor a Wild placed fills."""
    return missing(place, placed, wild)[placed.count(wild) :]


# ---- reading a manifest ---------------------------------------------------------------------


def _fail(source: str, problem: str) -> InvalidSetup:
    return InvalidSetup(f"GeoShapes manifest {source}: {problem}")


def _counts(
    raw: object, what: str, source: str, shapes: Mapping[str, int] | None, wild: str | None = None
) -> dict[str, int]:
    """A {shape: positive count} mapping; shapes must be known (when `shapes` is given)."""
    if not isinstance(raw, Mapping) or not raw:
        raise _fail(source, f"{what} must be a non-empty object of shape: count")
    for shape, count in raw.items():
        if shapes is not None and shape not in shapes:
            raise _fail(source, f"{what} names {quoted(shape)}, which is not among the shapes")
        if shape == wild:
            raise _fail(
                source,
                f"{what} needs the Wild {quoted(wild)}: the Wild stands in for a shape, "
                "it is never part of a completed figure",
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise _fail(
                source,
                f"{what}: the count of {quoted(shape)} must be a whole number of at "
                f"least 1, got {quoted(count)}",
            )
    return dict(raw)


def parse_board(data: Any, source: str) -> Board:
    """The Board a manifest describes, or InvalidSetup saying what is wrong with it."""
    _check_entries(data, source)
    shapes = _shape_values(data["shapes"], source)
    wild = data["wild"]
    if wild not in shapes:
        raise _fail(source, f"the wild shape {quoted(wild)} is not among the shapes")
    deck = _counts(data["deck"], "the deck", source, shapes)
    if sum(deck.values()) <= LARGEST_DEAL:
        raise _fail(
            source,
            f"the deck holds {sum(deck.values())} cards; it must hold more than "
            f"{LARGEST_DEAL} (four players dealt four) to leave a card to draw",
        )
    names, places = _quadrants(data["quadrants"], source, shapes, wild)
    every_name = names + [place.name for place in places]
    repeated = sorted(name for name, n in Counter(every_name).items() if n > 1)
    if repeated:
        raise _fail(source, f"quadrant and figure names must differ; repeated: {repeated}")
    return Board(
        name=str(data.get("name", source)),
        wild=wild,
        values=dict(shapes),
        deck=deck,
        quadrants=tuple(names),
        places=tuple(places),
    )


def _check_entries(data: object, source: str) -> None:
    if not isinstance(data, Mapping):
        raise _fail(source, "must be a JSON object")
    missing_keys = {"wild", "shapes", "deck", "quadrants"} - set(data)
    if missing_keys:
        raise _fail(source, f"lacks {', '.join(sorted(missing_keys))}")
    if set(data) - TOP_KEYS:
        raise _fail(
            source,
            f"has unknown entries {sorted(set(data) - TOP_KEYS)}; it may hold {sorted(TOP_KEYS)}",
        )
    if data.get("format", FORMAT) != FORMAT:
        raise _fail(source, f"format must be {FORMAT!r}, got {quoted(data['format'])}")


def _shape_values(shapes: object, source: str) -> Mapping[str, int]:
    if not isinstance(shapes, Mapping) or not shapes:
        raise _fail(source, "shapes must be a non-empty object of shape: point value")
    for shape, value in shapes.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _fail(
                source,
                f"the point value of {quoted(shape)} must be a whole number of at least 0, "
                f"got {quoted(value)}",
            )
    return shapes


def _quadrants(
    quadrants: object, source: str, shapes: Mapping[str, int], wild: str
) -> tuple[list[str], list[Place]]:
    """The quadrants' names, clockwise, and their places: each quadrant's figures, then its
    circle."""
    if not isinstance(quadrants, list) or len(quadrants) != QUADRANTS:
        raise _fail(source, f"the board has {QUADRANTS} quadrants, listed clockwise")
    names: list[str] = []
    places: list[Place] = []
    for number, quadrant in enumerate(quadrants, 1):
        if not isinstance(quadrant, Mapping) or set(quadrant) != {"name", "figures", "circle"}:
            raise _fail(
                source, f"quadrant {number} must be an object with exactly name, figures and circle"
            )
        qname, figures = quadrant["name"], quadrant["figures"]
        if not isinstance(qname, str) or not qname.strip():
            raise _fail(source, f"quadrant {number} needs a name")
        if not isinstance(figures, Mapping) or len(figures) != FIGURES_PER_QUADRANT:
            raise _fail(
                source, f"quadrant {quoted(qname)} must have exactly {FIGURES_PER_QUADRANT} figures"
            )
        for figure, needs in figures.items():
            places.append(
                Place(
                    figure,
                    qname,
                    False,
                    _counts(needs, f"figure {quoted(figure)}", source, shapes, wild),
                )
            )
        places.append(
            Place(
                f"{qname} circle",
                qname,
                True,
                _counts(quadrant["circle"], f"the {qname} circle", source, shapes, wild),
            )
        )
        names.append(qname)
    return names, places


def load_board(name_or_path: str) -> Board:
    """The board a manifest describes, by name (packaged, or a club's file) or by a recorded
    reference (`sha256:...`); a club's edited file is read again (`manifests.read_with`)."""
    return read_with(name_or_path, parse_board)
