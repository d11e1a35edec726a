"""The projector: folds a match's events, one at a time, into rows of the projection tables.

Events arrive already decoded (`Event`: the match, the event's version, its type name and its
fields as stored), in notification-log order. For each running match the projector keeps what
the next event needs (each effective move's score totals and row, and positions once computed)
in a bounded cache; a match that is not cached (the cache was full, or the process restarted) is
rebuilt by folding its earlier events again, quietly, through the same code. A move or an end
stored with its derived values (`domain.matches.derived`: the recorder scored it) costs no rules
work here; one stored without them (before they existed) costs one `apply` and one `score`.

Rows come out as upserts keyed by the tables' keys (`take()` gives them, the last version of each
row only), so a page of events writes each touched row once.
"""

from __future__ import annotations

import json
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from operator import itemgetter
from typing import Any, Final, NamedTuple, Protocol, TypedDict
from uuid import UUID

import orjson

from tablelog.domain.games import GameRules, RulesError, get_rules
from tablelog.domain.games.base import Component, Move
from tablelog.domain.matches import derived
from tablelog.domain.matches.match import components_of, initial_state
from tablelog.domain.matches.times import utc_text
from tablelog.domain.plain import PlainMapping

from . import components
from .ratings import Ratings
from .tables import STORED
from .view import TablesView

NAN = math.nan
DERIVED = derived.FIELD
_KEYS = {name: itemgetter(*table.key) for name, table in STORED.items()}
# A running match longer than TRIM_AT effective moves (a looping Topitop match) keeps only its
# newest KEEP states, totals and move rows: an undo needs the latest ones only, and memory stays
# bounded however long it runs. Undoing past what is kept refolds the match from its events.
# Games whose components are read from every move (Total Landscaping, GeoShapes) keep them all.
TRIM_AT = 10_000
KEEP = 1_000


class _Later:
    def __repr__(self) -> str:
        return "LATER"


LATER: Final = _Later()
"""A position or totals not computed yet (see `OpenMatch`)."""


class _Refold(Exception):
    """An undo reached past what a trimmed match keeps: fold the match again from its events."""


class Event(NamedTuple):
    match_id: UUID
    version: int
    kind: str  # the event class name: Started, MoveRecorded, MoveUndone, ...
    data: dict[str, Any]  # the stored fields (timestamp, prev_hash and the event's own)


class MoveRow(TypedDict):
    """An effective move's row of the `moves` table, as the projector builds it."""

    match_id: str
    game: str
    step: int
    number: int
    seat: int
    player: str
    kind: str
    move: str  # the move's JSON text
    score_change: float
    undone: bool
    recorded: str | None


class StoredOutcome(TypedDict):
    """An outcome as an Ended or SheetRecorded event stores it (`Outcome.to_json`)."""

    winners: list[int]
    ranking: list[list[int]]
    reason: str


History = Callable[[UUID, int], Iterable[Event]]
"""The events of a match with versions below the given one, in order (for cache misses)."""


def variant_text(options: PlainMapping) -> str:
    """A stable text of the options: "large=4, small=4"; "standard" when there are none."""
    if not options:
        return "standard"
    return ", ".join(
        f"{key}={value if isinstance(value, str) else json.dumps(value)}"
        for key, value in sorted(options.items())
    )


_VARIANTS: dict[bytes, str] = {}  # the options' orjson bytes -> their variant text


def _variant(options: PlainMapping) -> str:
    """`variant_text(options)`, remembered: every match of a study shares a few variants."""
    try:
        key = orjson.dumps(options, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # options orjson does not take: no shortcut
        return variant_text(options)
    text = _VARIANTS.get(key)
    if text is None:
        if len(_VARIANTS) >= 10_000:
            _VARIANTS.clear()
        text = _VARIANTS[key] = variant_text(options)
    return text


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps(value, ensure_ascii=False) builds
# a new encoder on every call; the text is the same
# A digit before a point or an exponent: a float, which orjson and json may spell differently
# (1e-07 and 1e-7). Inside a string it only sends the value the long way round.
_FLOAT = re.compile(rb"[0-9][.eE]")


def _json(value: object) -> str:
    """`json.dumps(value, ensure_ascii=False)`: the tables' spelling of JSON (", " and ": ")."""
    try:
        compact = orjson.dumps(value)
    except TypeError:  # a number orjson does not take: spell it the long way
        return _ENCODER.encode(value)
    return _spaced(compact) or _ENCODER.encode(value)


def _spaced(compact: bytes) -> str | None:
    """orjson's compact text with json's separators, or None where the two may differ in more
    than separators (a float, an escape). Without escapes every quote opens or closes a string,
    so the even pieces between quotes are the structure: a comma or colon there separates.
    A fifth of what the json encoder costs."""
    if b"\\" in compact or _FLOAT.search(compact):
        return None
    pieces = compact.decode().split('"')
    pieces[::2] = [piece.replace(",", ", ").replace(":", ": ") for piece in pieces[::2]]
    return '"'.join(pieces)


class KindsMoves(Protocol):
    """What naming a move's kind reads of a game's rules (`GameRules.move_kind`)."""

    def move_kind(self, move: PlainMapping) -> str: ...


_MOVES: dict[tuple[str, bool, bytes], tuple[str, str]] = {}  # (game, rules gone, a move's
# orjson bytes) -> the move's text and kind in the `moves` table


def _move_cells(game: str, rules: KindsMoves | None, move: Move) -> tuple[str, str]:
    """`(_json(move), _kind(rules, move))`, remembered per game: a kind is a function of the
    move alone, and most moves recur, so a recorded move costs one orjson call and a look-up
    (the rules' `move_kind` was a tenth of a Total Landscaping move's fold)."""
    try:
        key = (game, rules is None, orjson.dumps(move))
    except TypeError:  # a number orjson does not take: spell it the long way
        return _ENCODER.encode(move), _kind(rules, move)
    cells = _MOVES.get(key)
    if cells is None:
        if len(_MOVES) >= 100_000:
            _MOVES.clear()
        cells = _MOVES[key] = (_spaced(key[2]) or _ENCODER.encode(move), _kind(rules, move))
    return cells


def _time(data: dict[str, Any]) -> str | None:
    stamp = data.get("timestamp")
    return stamp.isoformat() if isinstance(stamp, datetime) else stamp


def _played(data: dict[str, Any]) -> str | None:
    """When the game was played, in UTC so that the text sorts in time order."""
    played = data.get("played_at")
    if not played:
        return _time(data)
    return utc_text(played)


class OpenMatch:
    """What the projector remembers of one match between its events.

    Positions are computed only when something needs one: a move stored with its derived
    values (`domain.matches.derived`) brings its totals and score change, so its position stays
    LATER until an event without them (stored before derived values existed) or an end without them
    asks for it; then the effective moves since the last known position are applied."""

    def __init__(self, match_id: UUID, data: dict[str, Any]) -> None:
        self.game: str = data["game"]
        self.seats: list[str] = list(data["seats"])
        self.variant = _variant(data["options"])
        self.rules: GameRules[Any] | None
        self.kind = "sheet" if data.get("kind") == "sheet" else "moves"
        self.start = data  # the Started fields, for the first position when it is asked for
        try:
            self.rules = get_rules(self.game)
        except RulesError:  # an engine gone: the match is listed, never replayed
            self.rules = None
        first = LATER if self.rules is not None and self.kind == "moves" else None
        self.version = 1  # the match's last event folded: the next must be version + 1
        self.states: list[object] = [first]  # after each effective move (trimmed once closed)
        self.as_it_goes = self.rules is not None and self.rules.scores_as_it_goes
        self.totals: list[list[float] | _Later | None] = [
            LATER if self.as_it_goes and first is LATER else None
        ]
        self.moves: list[MoveRow] = []  # the effective moves' rows, in order
        self.count = 0  # effective moves (more than `moves` holds once trimmed)
        self.trimmable = not components.reads_moves(self.game)
        self.open_disputes = 0
        self.claim: dict[str, float] | None = None  # the latest claim's points by name
        self.base_status = "running"
        self.row: dict[str, Any] = {
            "match_id": str(match_id),
            "game": self.game,
            "variant": self.variant,
            "players": len(self.seats),
            "seats": _json(self.seats),
            "started": _time(data),
            "played": _played(data),
            "ended": None,
            "status": "running",
            "moves": 0,
            "undos": 0,
            "winners": "[]",
            "ranking": "[]",
            "reason": "",
            "claimed": False,
            "claim_agrees": None,
            "disputes": 0,
            "agreed_draw": False,
            "kind": self.kind,
        }

    @property
    def state(self) -> object:
        if self.states[-1] is LATER:
            self._catch_up_states()
        return self.states[-1]

    def latest_totals(self) -> list[float] | None:
        latest = self.totals[-1]
        if isinstance(latest, _Later):
            latest = self.totals[-1] = self.score_totals(self.state)
        return latest

    def _catch_up_states(self) -> None:
        """Apply the effective moves since the last known position (from the start, or from
        the events again when a trimmed match has forgotten where that is)."""
        states = self.states
        known = next((i for i in range(len(states) - 1, -1, -1) if states[i] is not LATER), None)
        if known is None:
            if self.count != len(self.moves):  # trimmed: the start is gone
                raise _Refold
            states[0] = self._first_position()
            known = 0
        rules = self.rules
        assert rules is not None  # LATER is only ever set with rules
        for i in range(known, len(states) - 1):
            state = states[i]
            try:
                move = json.loads(self.moves[i]["move"])
                states[i + 1] = None if state is None else rules.apply(state, move)
            except RulesError:  # recorded under other rules: not replayed from here on
                states[i + 1] = None

    def _first_position(self) -> object:
        data, rules = self.start, self.rules
        assert rules is not None
        try:
            return initial_state(
                rules,
                len(self.seats),
                data["rules_version"],
                data["options"],
                data["setup"],
                components_of(data["options"], data.get("components")),
            )
        except RulesError:  # an engine changed: the match is listed, never replayed
            return None

    def score_totals(self, state: object) -> list[float] | None:
        if self.rules is None or state is None or not self.as_it_goes:
            return None
        try:
            return [float(entry["total"]) for entry in self.rules.score(state)]
        except RulesError:  # a hidden identity the score needs was never revealed
            return None

    def refresh(self) -> None:
        row = self.row
        row["status"] = "disputed" if self.open_disputes else self.base_status
        if self.base_status == "running":  # a closed match has forgotten its moves
            row["moves"] = self.count
        if self.claim is None:
            row["claim_agrees"] = None
            return
        totals = self.latest_totals()
        if totals is None:
            row["claim_agrees"] = None
        else:
            row["claim_agrees"] = all(
                name in self.seats and float(points) == totals[self.seats.index(name)]
                for name, points in self.claim.items()
            )

    def push(self, state: object, totals: list[float] | None, row: MoveRow) -> None:
        self.states.append(state)
        self.totals.append(totals)
        self.moves.append(row)
        self.count += 1
        if len(self.moves) > TRIM_AT and self.trimmable:
            cut = len(self.moves) - KEEP
            del self.states[:cut], self.totals[:cut], self.moves[:cut]

    def pop(self) -> MoveRow:
        if not self.moves:
            raise _Refold
        self.states.pop()
        self.totals.pop()
        self.count -= 1
        return self.moves.pop()

    def close(self) -> None:
        """No move can follow: keep only the final position."""
        self.row["moves"] = self.count
        self.states, self.totals = self.states[-1:], self.totals[-1:]
        self.moves = []


class Projector:
    def __init__(self, history: History, view: TablesView, capacity: int = 4096) -> None:
        self.history = history
        self.capacity = capacity
        self.ratings = Ratings(view)
        self.view = view
        # Quarantined matches (see `quarantine`): their events are skipped from then on.
        self.damaged: set[UUID] = {UUID(row["match_id"]) for row in view.select("damaged")}
        self.cache: OrderedDict[UUID, OpenMatch] = OrderedDict()
        self.pending: dict[str, dict[tuple[object, ...], Mapping[str, object]]] = {
            name: {} for name in STORED
        }
        self._quiet = False
        self._untrimmed = False  # refolding a match whose undo went past its kept moves
        self._handlers: dict[str, Callable[[OpenMatch, Event], None]] = {
            "MoveRecorded": self._move_recorded,
            "MoveUndone": self._move_undone,
            "ResultClaimed": self._result_claimed,
            "DisputeRaised": self._dispute_raised,
            "DisputeResolved": self._dispute_resolved,
            "Ended": self._ended,
            "Abandoned": self._abandoned,
            "SheetRecorded": self._sheet_recorded,
        }

    # ---- driving ----------------------------------------------------------------------------

    def fold(self, event: Event) -> None:
        """Fold one event; an event that does not follow its match's last one, or that the
        match's fields do not fit, raises (the caller quarantines the match)."""
        damaged = self.damaged
        if damaged and event.match_id in damaged:  # (hashing a UUID is a Python call)
            return
        if event.kind == "Started":
            if event.version != 1:
                raise ValueError(f"a start stored as event {event.version}")
            match = OpenMatch(event.match_id, event.data)
            match.trimmable = match.trimmable and not self._untrimmed
            self._remember(event.match_id, match)
        else:
            cached = self.cache.get(event.match_id)
            if cached is None:
                match = self._recall(event.match_id, event.version)
            else:
                match = cached
                self.cache.move_to_end(event.match_id)  # least recently folded goes first
            if event.version != match.version + 1:
                raise ValueError(f"event {event.version} does not follow event {match.version}")
            match.version = event.version
            handler = self._handlers.get(event.kind)
            if handler is None:  # an event type this projection does not read
                return
            try:
                handler(match, event)
            except _Refold:  # an undo past a trimmed match's kept moves: fold it again,
                match = self._refold(event)  # keeping every move this time
                handler(match, event)
        match.refresh()
        self._emit("matches", match.row)

    def _refold(self, event: Event) -> OpenMatch:
        del self.cache[event.match_id]
        self._untrimmed = True
        try:
            match = self._recall(event.match_id, event.version)
        finally:
            self._untrimmed = False
        match.trimmable = not components.reads_moves(match.game)  # from its next move on
        match.version = event.version
        return match

    def quarantine(self, match_id: UUID, version: int, finding: str) -> None:
        """Skip the match from now on, record why, and mark its `matches` row (cached, or as
        the tables hold it) "damaged" so that no list or statistic counts it."""
        self.damaged.add(match_id)
        match = self.cache.pop(match_id, None)
        row: dict[str, object] | None
        if match is not None:
            row = match.row
        else:
            rows = self.pending["matches"].get(
                _KEYS["matches"]({"match_id": str(match_id)})
            ) or next(iter(self.view.select("matches", {"match_id": str(match_id)})), None)
            row = None if rows is None else dict(rows)
        if row is not None:
            row["status"] = "damaged"
            self._emit("matches", row)
        self._emit("damaged", {"match_id": str(match_id), "event": version, "finding": finding})

    def take(self) -> dict[str, list[Mapping[str, object]]]:
        """The rows changed since the last `take`, each once, by table; and forget them. No
        later event changes them (a match's row goes as a copy; a withdrawn move is a new
        row), so they may be written while the next events are folded."""
        rows = {name: list(rows.values()) for name, rows in self.pending.items() if rows}
        if "matches" in rows:
            rows["matches"] = [dict(row) for row in rows["matches"]]
        for rows_of in self.pending.values():
            rows_of.clear()
        return rows

    def _remember(self, match_id: UUID, match: OpenMatch) -> None:
        self.cache[match_id] = match
        self.cache.move_to_end(match_id)
        while len(self.cache) > self.capacity:
            self.cache.popitem(last=False)

    def _recall(self, match_id: UUID, version: int) -> OpenMatch:
        """A match that is not cached: its earlier events folded again, emitting nothing."""
        quiet, self._quiet = self._quiet, True
        try:
            for earlier in self.history(match_id, version):
                self.fold(earlier)
        finally:
            self._quiet = quiet
        return self.cache[match_id]

    def _emit(self, table: str, row: Mapping[str, object]) -> None:
        """Hold the row for the next `take`. Not a copy: a match's row changed again before
        then is written as it is by then."""
        if not self._quiet:
            self.pending[table][_KEYS[table](row)] = row

    # ---- one method per event type ----------------------------------------------------------

    def _move_recorded(self, match: OpenMatch, event: Event) -> None:
        data = event.data
        seat, move = data["seat"], data["move"]
        rules = match.rules
        scored = data.get(DERIVED)
        after: object  # the position after the move, or LATER
        if scored is not None and rules is not None:  # the recorder scored it: no rules here
            after, totals_after, change = LATER, scored["totals"], scored["change"]
            if change is None:
                change = NAN
        else:
            after, totals_after, change = self._apply(match, move, seat)
        text, kind = _move_cells(match.game, rules, move)
        match_id, step = match.row["match_id"], event.version - 1
        row: MoveRow = {
            "match_id": match_id,
            "game": match.game,
            "step": step,
            "number": match.count + 1,
            "seat": seat + 1,
            "player": match.seats[seat],
            "kind": kind,
            "move": text,
            "score_change": change,
            "undone": False,
            "recorded": _time(data),
        }
        match.push(after, totals_after, row)
        if not self._quiet:
            self.pending["moves"][match_id, step] = row

    @staticmethod
    def _apply(match: OpenMatch, move: Move, seat: int) -> tuple[object, list[float] | None, float]:
        """A move stored without derived values: apply and score it here."""
        rules, state = match.rules, match.state
        try:
            after = rules.apply(state, move) if rules and state is not None else None
        except RulesError:  # recorded under other rules: listed, not replayed from here on
            after = None
        totals_before, totals_after = match.latest_totals(), match.score_totals(after)
        change = (
            totals_after[seat] - totals_before[seat]
            if totals_before is not None and totals_after is not None
            else NAN
        )
        return after, totals_after, change

    def _move_undone(self, match: OpenMatch, event: Event) -> None:
        withdrawn = {**match.pop(), "undone": True}  # a new row: the old one may be in a write
        match.row["undos"] += 1
        self._emit("moves", withdrawn)

    def _result_claimed(self, match: OpenMatch, event: Event) -> None:
        match.claim = event.data["scores"]
        match.row["claimed"] = True

    def _dispute_raised(self, match: OpenMatch, event: Event) -> None:
        match.open_disputes += 1
        match.row["disputes"] += 1

    def _dispute_resolved(self, match: OpenMatch, event: Event) -> None:
        match.open_disputes -= 1

    def _abandoned(self, match: OpenMatch, event: Event) -> None:
        match.base_status = "abandoned"
        match.row.update(ended=_time(event.data), reason=event.data["reason"])
        match.close()

    def _ended(self, match: OpenMatch, event: Event) -> None:
        outcome = event.data["outcome"]
        names = match.seats
        final = event.data.get(derived.FIELD) if match.rules is not None else None
        match.base_status = "ended"
        match.row.update(
            ended=_time(event.data),
            reason=outcome["reason"],
            winners=_json([names[s] for s in outcome["winners"]]),
            ranking=_json([[names[s] for s in group] for group in outcome["ranking"]]),
            agreed_draw=(
                self._agreed_draw(match, outcome) if final is None else not final["decided"]
            ),
        )
        scored = self._final_score(match) if final is None else _stored_score(final)
        if scored is not None:
            self._score(match, event, outcome, *scored)
        self._rate(match, event, names, outcome)
        match.close()

    def _rate(
        self, match: OpenMatch, event: Event, names: list[str], outcome: StoredOutcome
    ) -> None:
        """The players' new ratings from a finished match's ranking (not while quiet)."""
        if self._quiet:
            return
        rated = self.ratings.rate(
            match.game,
            str(event.match_id),
            names,
            outcome["ranking"],
            _time(event.data),
            match.row["played"],
        )
        for row in rated:
            self._emit("ratings", row)

    def _sheet_recorded(self, match: OpenMatch, event: Event) -> None:
        """A score sheet ends its match: scores, categories where the sheet has them, ratings;
        no moves and no components (they are not known)."""
        outcome, sheet = event.data["outcome"], event.data["sheet"]
        names = match.seats
        match.base_status = "ended"
        match.row.update(
            ended=_time(event.data),
            reason=outcome["reason"],
            winners=_json([names[s] for s in outcome["winners"]]),
            ranking=_json([[names[s] for s in group] for group in outcome["ranking"]]),
        )
        totals = [(entry or {}).get("total") for entry in sheet["scores"]]
        known = [float(t) for t in totals if t is not None]
        match.totals[-1] = None if len(known) < len(totals) else known
        winners = set(outcome["winners"])
        place = {seat: n for n, group in enumerate(outcome["ranking"], start=1) for seat in group}
        common = {
            "match_id": str(event.match_id),
            "game": match.game,
            "variant": match.variant,
            "players": len(names),
        }
        for seat, entry in enumerate(sheet["scores"]):
            who = {**common, "seat": seat + 1, "player": names[seat], "won": seat in winners}
            total = NAN if (given := totals[seat]) is None else float(given)
            self._emit(
                "scores",
                {
                    **who,
                    "total": total,
                    "rank": place.get(seat, 0),
                    "shared": seat in winners and len(winners) > 1,
                },
            )
            for category, points in ((entry or {}).get("categories") or {}).items():
                self._emit(
                    "score_categories", {**who, "category": category, "points": float(points)}
                )
        self._rate(match, event, names, outcome)
        match.close()

    # ---- the final score --------------------------------------------------------------------

    @staticmethod
    def _agreed_draw(match: OpenMatch, outcome: StoredOutcome) -> bool:
        if match.rules is not None and match.state is not None:
            return match.rules.outcome(match.state) is None  # the rules had not decided
        return not outcome["winners"] and len(outcome["ranking"]) == 1

    @staticmethod
    def _final_score(match: OpenMatch) -> tuple[list[dict[str, Any]], list[list[Component]]] | None:
        """The final position's scores and components, by the rules (an end stored without
        derived values); None where there is no score to count."""
        if match.rules is None or match.state is None:
            return None
        try:
            scores = match.rules.score(match.state)
        except RulesError:  # a hidden identity never revealed: no final score to count
            return None
        moves = [(row["seat"] - 1, json.loads(row["move"])) for row in match.moves]
        return scores, components.extract(match.game, match.state, scores, moves)

    def _score(
        self,
        match: OpenMatch,
        event: Event,
        outcome: StoredOutcome,
        scores: list[dict[str, Any]],
        found: list[list[Component]],
    ) -> None:
        match.totals[-1] = [float(entry["total"]) for entry in scores]  # claims compare to it
        winners = set(outcome["winners"])
        place = {seat: n for n, group in enumerate(outcome["ranking"], start=1) for seat in group}
        common = {
            "match_id": str(event.match_id),
            "game": match.game,
            "variant": match.variant,
            "players": len(match.seats),
        }
        for seat, entry in enumerate(scores):
            who = {**common, "seat": seat + 1, "player": match.seats[seat], "won": seat in winners}
            self._emit(
                "scores",
                {
                    **who,
                    "total": float(entry["total"]),
                    "shared": seat in winners and len(winners) > 1,
                    "rank": place.get(seat, len(outcome["ranking"]) + 1),
                },
            )
            for category, points in entry["categories"].items():
                self._emit(
                    "score_categories", {**who, "category": category, "points": float(points)}
                )
            for item in found[seat]:
                self._emit(
                    "components",
                    {
                        **who,
                        "kind": item.kind,
                        "component": item.component,
                        "count": item.number,
                        "points": item.points,
                    },
                )


def _stored_score(
    final: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[list[Component]]] | None:
    """An end's stored derived values as `_score` takes them (None: no score to count)."""
    if final["scores"] is None:
        return None
    found = [
        [
            Component(kind, name, number, derived.points(points))
            for kind, name, number, points in seat
        ]
        for seat in final["components"]
    ]
    return final["scores"], found


def _kind(rules: KindsMoves | None, move: Move) -> str:
    if rules is None:
        return next(iter(move), "move") if isinstance(move, dict) else "move"
    try:
        return rules.move_kind(move)
    except (RulesError, KeyError, TypeError, ValueError):
        return "move"
