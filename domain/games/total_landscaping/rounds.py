"""Total Landscaping's rounds: which effects are negated, who takes a tile both players chose,
what withers, what the bout-end conditions measure and whether they decide the bout; and the
steps of resolving a round, in the order `TotalLandscaping.apply` takes them. The rules are pure
functions; the steps change the round's own copies of the gardens and hands, and its log (facts,
`state.Happening`), in place (the state itself is never touched).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from . import hexgarden as hexes
from .hexgarden import TILES
from .moves import Choice, Hoe, Play
from .state import (
    BLUE_ROUND,
    BLUE_TIE_WINNER,
    CARDS,
    CONDITIONS,
    FLOWERS_ROUND,
    GRASS,
    LETTER,
    NEGATABLE,
    PATCH_ROUND,
    SEATS,
    SIX_COLOURS_UNTIL,
    STOPS_EFFECTS,
    WITHERS,
    BoutResult,
    GardenFigures,
    Happening,
    LandscapingState,
    flower,
    new_bout,
)

# ---- the round's rules --------------------------------------------------------------------


def negated(choices: tuple[Choice, Choice]) -> tuple[bool, bool]:
    """Per seat: is its card's effect negated (by White, or by card withering)?"""
    result = []
    for mine, theirs in (choices, choices[::-1]):
        if not (isinstance(mine, Play) and isinstance(theirs, Play) and mine.card in NEGATABLE):
            result.append(False)
        else:
            result.append(theirs.card == "White" or WITHERS.get(theirs.card) == mine.card)
    return result[0], result[1]


def effect_tiles(play: Play) -> set[tuple[int, int]]:
    """The (garden, tile)s a card's effect involves: where it is planted, and the tile its
    effect acts on (Yellow's spread tile, Purple's recoloured flower)."""
    acted_on = [t for t in (play.spread, play.recolour) if t is not None]
    return {(play.garden, tile) for tile in [play.tile, *acted_on]}


def hoed_off(choices: tuple[Choice, Choice], hoeing: str) -> tuple[bool, bool]:
    """Per seat: does the opponent's hoe stop its card's effect? The seed: "the flower will
    always be planted and its effect will always trigger, unless it involves the tiles selected
    by the hoe". Only a card with an effect that can fail (Red, Orange, Yellow, Purple) is
    touched: its flower is still planted, and then hoed as usual."""
    result = []
    for mine, theirs in (choices, choices[::-1]):
        result.append(
            hoeing == STOPS_EFFECTS
            and isinstance(mine, Play)
            and isinstance(theirs, Hoe)
            and mine.card in NEGATABLE
            and bool(effect_tiles(mine) & {(theirs.seat, t) for t in theirs.tiles})
        )
    return result[0], result[1]


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


# What each tile content grows, looked up rather than parsed (withering and the figures ask it
# of every tile of both gardens every round); any other string is read by `flower`.
_COLOUR = {
    content: flower(content)
    for content in ["", GRASS, *LETTER.values(), *(GRASS + letter for letter in LETTER.values())]
}
_WITHERED_BY = {colour: by for by, colour in WITHERS.items()}  # one withering colour for each


def _colours(garden: Sequence[str]) -> list[str | None]:
    return [_COLOUR[c] if c in _COLOUR else flower(c) for c in garden]


# A bare flower's letter -> the contents beside it that wither it (that colour, grass or not).
_FATAL = {
    LETTER[colour]: frozenset({LETTER[by], GRASS + LETTER[by]})
    for colour, by in _WITHERED_BY.items()
}


@functools.lru_cache(maxsize=8192)
def withered(garden: tuple[str, ...]) -> tuple[int, ...]:
    """Tiles whose flower withers now: beside a flower of the colour that withers it, and not
    on grass. Computed on the whole garden at once, so removals do not save anyone.
    (Cached: gardens are immutable tuples and the same ones come back often.)"""
    present = set(garden)
    if not _COLOUR.keys() >= present:  # a content no round plants: read as what it grows
        garden = tuple(map(_planted, garden))
        present = set(garden)
    # Only a bare flower whose withering colour grows in the garden too can wither.
    doomed = {c for c in present if c in _FATAL and not _FATAL[c].isdisjoint(present)}
    if not doomed:
        return ()
    neighbours, at = hexes.NEIGHBOURS, garden.__getitem__
    return tuple(
        tile
        for tile, content in enumerate(garden)
        if content in doomed and not _FATAL[content].isdisjoint(map(at, neighbours[tile]))
    )


def _planted(content: str) -> str:
    """A tile's content as a round plants it: grass or not, and the flower it grows (`flower`
    reads its last letter), so that any string reads as the tile it stands for."""
    colour = flower(content)
    return (GRASS if content.startswith(GRASS) else "") + (LETTER[colour] if colour else "")


@functools.lru_cache(maxsize=8192)
def figures(garden: tuple[str, ...]) -> GardenFigures:
    """Gardens are immutable tuples and bots ask about the same ones again and again."""
    colours = _colours(garden)
    patches = hexes.groups(colours)
    flower_groups = hexes.groups([colour and "flower" for colour in colours])
    return GardenFigures(
        flowers=sum(map(bool, colours)),
        blue=colours.count("Blue"),
        biggest_patch=max(map(len, patches), default=0),
        colours_connected=max(
            (len({colours[t] for t in group}) for group in flower_groups), default=0
        ),
    )


def _six_connected(garden: Sequence[str]) -> bool:
    """All six colours in one connected group: never with fewer than six colours planted (the
    common case, answered without grouping the tiles)."""
    if len(set(garden)) < len(WITHERS):  # six colours need six different contents
        return False
    planted = set(_colours(garden)) - {None}
    if len(planted) < len(WITHERS):
        return False
    return figures(tuple(garden)).colours_connected == len(WITHERS)


def decide(round_no: int, gardens: Sequence[Sequence[str]]) -> tuple[int, str] | None:
    """The bout's winner and the condition, if this round's end decides it."""
    if round_no <= SIX_COLOURS_UNTIL:
        done = (_six_connected(gardens[0]), _six_connected(gardens[1]))
        # Both at once: not fulfilled this round; later rounds of LVL1 check again (reading).
        if done[0] != done[1]:
            return (0 if done[0] else 1), CONDITIONS[0]
    for at, field, condition in (
        (PATCH_ROUND, "biggest_patch", CONDITIONS[1]),
        (FLOWERS_ROUND, "flowers", CONDITIONS[2]),
        (BLUE_ROUND, "blue", CONDITIONS[3]),
    ):
        if round_no == at:
            east, west = (figures(tuple(g)) for g in gardens)
            mine, theirs = getattr(east, field), getattr(west, field)
            if mine != theirs:
                return (0 if mine > theirs else 1), condition
            if at == BLUE_ROUND:
                return BLUE_TIE_WINNER, condition
    return None


# ---- a round, resolved --------------------------------------------------------------------


def chosen(choices: tuple[Choice, Choice]) -> list[Happening]:
    """The round's two choices as facts: what each seat played where, with the parameters it
    named, or the tiles it hoed."""
    told: list[Happening] = []
    for choice in choices:
        seat = SEATS[choice.seat]
        if isinstance(choice, Hoe):
            told.append(("hoes", seat, *(TILES[t] for t in choice.tiles)))
            continue
        told.append(("plays", seat, choice.card, SEATS[choice.garden], TILES[choice.tile]))
        if choice.remove is not None:
            told.append(("removing", seat, *choice.remove))
        if choice.spread is not None:
            told.append(("spreading", seat, TILES[choice.spread]))
        if choice.recolour is not None:
            told.append(("recolouring", seat, TILES[choice.recolour]))
    return told


def plant(
    gardens: list[list[str]], choices: tuple[Choice, Choice], log: list[Happening]
) -> tuple[int, int] | None:
    """Plant the cards; a tile both chose goes to the clash winner or to nobody, and then
    it is returned as next round's blocked tile."""
    plays = [c for c in choices if isinstance(c, Play)]
    blocked = None
    if len(plays) == 2 and (plays[0].garden, plays[0].tile) == (plays[1].garden, plays[1].tile):
        winner = clash_winner(plays[0].card, plays[1].card)
        spot = (SEATS[plays[0].garden], TILES[plays[0].tile])
        if winner is None:
            plays, blocked = [], (plays[0].garden, plays[0].tile)
            log.append(("clash-blocked", *spot))
        else:
            plays = [plays[winner]]
            log.append(("clash-taken", *spot, plays[0].card))
    for play in plays:
        before = gardens[play.garden][play.tile]
        gardens[play.garden][play.tile] = (
            GRASS if play.card == "Green" else before + LETTER[play.card]
        )
    return blocked


def trigger(
    gardens: list[list[str]],
    hands: list[list[str]],
    choices: tuple[Choice, Choice],
    negated: tuple[bool, bool],
    log: list[Happening],
) -> bool:
    """The effects that were not negated (nor stopped by a hoe); returns whether an Orange
    exchanges the hands.
    A card that lost its tile in a clash keeps its effect: only negation stops one (reading)."""
    exchange = False
    for play, off in zip(choices, negated):
        if not isinstance(play, Play) or off:
            continue
        other = choices[1 - play.seat]
        if play.card == "Red" and play.remove:
            hands[play.seat] = [c for c in hands[play.seat] if c not in play.remove]
            log.append(("removes", SEATS[play.seat], *play.remove))
        elif play.card == "Orange":
            exchange = True  # two Oranges exchange the hands once (reading)
        elif play.card == "Yellow" and play.spread is not None:
            spot = (SEATS[play.garden], TILES[play.spread])
            if isinstance(other, Play) and (other.garden, other.tile) == (play.garden, play.spread):
                log.append(("spread-stopped", *spot))
            else:
                gardens[play.garden][play.spread] = LETTER["Yellow"]
                log.append(("spreads", *spot))
        elif play.card == "Purple" and play.recolour is not None:
            content = gardens[play.garden][play.recolour]
            gardens[play.garden][play.recolour] = content[:-1] + LETTER["Purple"]
            log.append(("recolours", SEATS[play.garden], TILES[play.recolour]))
    return exchange


def wither(gardens: list[list[str]], log: list[Happening]) -> None:
    for g, garden in enumerate(gardens):
        gone = withered(tuple(garden))
        log += [("withered", SEATS[g], TILES[t], flower(garden[t]) or "") for t in gone]
        for tile in gone:
            garden[tile] = ""


def end_round(
    state: LandscapingState,
    gardens: tuple[tuple[str, ...], tuple[str, ...]],
    hands: list[list[str]],
    blocked: tuple[int, int] | None,
    exchange: bool,
    log: list[Happening],
) -> LandscapingState:
    """The bout-end check; then the next bout, the end of the match, or the next round
    with empty hands refilled and an Orange exchange made."""
    decided = decide(state.round, gardens)  # round 25 always decides
    if decided is not None:
        winner, condition = decided
        result = BoutResult(
            winner, state.round, condition, (figures(gardens[0]), figures(gardens[1]))
        )
        log.append(("bout", SEATS[winner], state.bout, state.round, condition))
        ended = dataclasses.replace(state, bouts=state.bouts + (result,), last_round=tuple(log))
        if not ended.over:  # a blocked tile or a pending exchange lapses (reading)
            return new_bout(state.bout + 1, ended.bouts, ended.last_round, state.hoeing)
        # The match is over: the deciding gardens stay on show.
        return dataclasses.replace(
            ended, gardens=gardens, blocked=None, hands=(tuple(hands[0]), tuple(hands[1]))
        )
    for seat in (0, 1):
        if not hands[seat]:
            hands[seat] = list(CARDS)
            log.append(("fresh-hand", SEATS[seat]))
    if exchange:  # at the start of the next round: nothing happens in between
        hands.reverse()
        log.append(("exchange",))
    # Built directly, not by dataclasses.replace: this is every round of every simulation.
    return LandscapingState(
        bout=state.bout,
        round=state.round + 1,
        gardens=gardens,
        hands=(_sorted_hand(tuple(hands[0])), _sorted_hand(tuple(hands[1]))),
        blocked=blocked,
        bouts=state.bouts,
        last_round=tuple(log),
        hoeing=state.hoeing,
    )


@functools.lru_cache(maxsize=1024)  # a hand is one of 128 sets of cards: sorted once each
def _sorted_hand(hand: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(hand, key=CARDS.index))
