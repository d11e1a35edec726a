"""Determinisation: a position as one seat might imagine it, the unseen components drawn anew.

An agent that searched the recorded state itself would cheat: in a simulation the state holds the
whole deal (every face-down tile, every hand, the order of the pile). Before each search
iteration the MCTS agent redraws what its seat cannot see, from what that seat cannot tell
apart, so it plans against every deal it cannot rule out (Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search").

Declared here, keyed by game id, from outside the engines: each function only shuffles fields of
the engine's own frozen state with `dataclasses.replace`. What each seat cannot see:

- topiary: the face-down garden tiles, the other seats' hands, and the tiles the last player put
  back in the box (unless it is that player);
- topas: the pile's order and the other seats' hands;
- geoshapes: the order of the draw deck (every hand is public);
- total-landscaping and topitop: nothing; Total Landscaping's hidden part is the other seat's
  choice this round, which the agent draws at random instead.

The redraw keeps counts where they are (a hand keeps its size, a face-down cell stays face down).
The tiles that went back to the box unseen at the start are not in the state, so the Topiary draw
is among the recorded unknowns only: an approximation, said here rather than hidden.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TypeVar, cast

from tablelog.domain.games import GameRules
from tablelog.domain.games.geoshapes.state import GeoShapesState
from tablelog.domain.games.topas.rules import TopasState
from tablelog.domain.games.topiary.state import TopiaryState

S = TypeVar("S")


def _topiary(state: TopiaryState, seat: int, rng: random.Random) -> TopiaryState:
    hidden = [
        (i, tile) for i, tile in enumerate(state.tiles) if tile is not None and not state.face_up[i]
    ]
    hidden_cells = [i for i, _ in hidden]
    other_hands = [s for s in range(len(state.hands)) if s != seat]
    last = len(state.hands) - 1
    pool = [tile for _, tile in hidden]
    pool += [t for s in other_hands for t in state.hands[s] if t is not None]
    box_hidden = seat != last
    if box_hidden:
        pool += list(state.box)
    rng.shuffle(pool)
    tiles = list(state.tiles)
    for i in hidden_cells:
        tiles[i] = pool.pop()
    hands = list(state.hands)
    for s in other_hands:
        known = sum(t is not None for t in hands[s])
        drawn = sorted(pool.pop() for _ in range(known))
        hands[s] = tuple(drawn) + (None,) * (len(hands[s]) - known)
    box = tuple(sorted(pool)) if box_hidden else state.box
    return dataclasses.replace(state, tiles=tuple(tiles), hands=tuple(hands), box=box)


def _topas(state: TopasState, seat: int, rng: random.Random) -> TopasState:
    if state.hands is None or state.pile is None:
        return state  # a logged game: nothing recorded to redraw
    others = [s for s in range(len(state.hands)) if s != seat]
    pool = list(state.pile) + [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(pool[: len(hands[s])]), pool[len(hands[s]) :]
    return dataclasses.replace(state, hands=tuple(hands), pile=tuple(pool))


def _geoshapes(state: GeoShapesState, seat: int, rng: random.Random) -> GeoShapesState:
    if not state.deck:
        return state
    deck = list(state.deck)
    rng.shuffle(deck)
    return dataclasses.replace(state, deck=tuple(deck))


def _redrawn(state: object, seat: int, rng: random.Random) -> object:
    """`state` redrawn by its own game's determiniser; the state itself in open games."""
    if isinstance(state, TopiaryState):
        return _topiary(state, seat, rng)
    if isinstance(state, TopasState):
        return _topas(state, seat, rng)
    if isinstance(state, GeoShapesState):
        return _geoshapes(state, seat, rng)
    return state


def determinise(rules: GameRules[S], state: S, seat: int, rng: random.Random) -> S:
    """`state` with what `seat` cannot see redrawn (the state itself in open games)."""
    # Each game's redraw gives back a state of the type it was given: `rules`' own.
    return cast(S, _redrawn(state, seat, rng))
