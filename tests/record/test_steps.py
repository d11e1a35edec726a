"""The Record page's decisions without a browser (`dashboard/record/steps.py`, `actions.write`),
called as the page's callbacks call them: the taps, the token box, following another device,
what the play area shows, the next question, and the one door every write goes through."""

from __future__ import annotations

import json
from typing import Any, TypeVar

import pytest
from dash import html, no_update

from tablelog.access import WritePolicy
from tablelog.dashboard.record import actions, panels, steps
from tablelog.dashboard.record import sheet as sheets
from tablelog.dashboard.record.matches import Matches
from tests.conftest import stored_rows
from tests.packaged import example

OPEN, GUARDED = WritePolicy.for_bind("127.0.0.1"), WritePolicy.for_bind("0.0.0.0", "s3cret")
HOST = "127.0.0.1:8050"
TOPITOP = [["game", "topitop"], ["small", 4], ["large", 4]]
T = TypeVar("T")


def a(kind: type[T], value: object) -> T:
    """`value`, failing the test unless it is a `kind`: the steps answer None (nothing to show)
    or words (why not) where a test expects the thing itself."""
    assert isinstance(value, kind), value
    return value


@pytest.fixture
def matches(recorder):
    return Matches(recorder)


def started(matches, players: str = "Ann, Ben") -> str:
    done = actions.write(
        matches, "start", actions.Form(setup_picks=TOPITOP, players=players), OPEN, HOST
    )
    return done.match_id


def topitop_to_its_end(recorder) -> str:
    """The example Topitop game (Ann wins), every move recorded: the game is over by the rules,
    the match still running until it is ended."""
    record = example("topitop")
    match_id = recorder.start("topitop", record["seats"], record["options"], record["setup"])
    for entry in record["events"]:
        if entry["type"] == "move":
            recorder.record(match_id, entry["seat"], entry["move"])
    return str(match_id)


# Taps ----------------------------------------------------------------------------------------


def setup_button(key: str, value, answered: int) -> dict:
    """A tap on a setup question's button, as the page's tap listener sends it."""
    return {"points": [{"customdata": json.dumps([key, value, answered])}], "at": "1"}


def test_a_tapped_setup_option_adds_its_answer_and_a_chip_takes_answers_back_from_its_own_on():
    picks = steps.setup_tapped([["game", "topitop"]], setup_button("small", 4, 1))
    assert picks == [["game", "topitop"], ["small", 4]]
    assert steps.setup_tapped(picks, {"back": 1}) == [["game", "topitop"]]
    assert steps.setup_tapped(picks, {"back": 0}) == []


def test_a_setup_button_drawn_for_an_earlier_question_or_a_chip_gone_changes_nothing():
    picks = [["game", "topitop"], ["small", 4]]
    assert steps.setup_tapped(picks, setup_button("small", 4, 1)) is None  # a double tap
    assert steps.setup_tapped(picks, {"back": 2}) is None
    assert steps.setup_tapped(picks, None) is None
    assert steps.setup_tapped(picks, {"game": "no such game"}) is None


def test_tapping_a_game_begins_the_setup_afresh():
    picks = [["game", "topitop"], ["small", 4]]
    assert steps.setup_tapped(picks, {"game": "topas", "at": "2"}) == [["game", "topas"]]


def test_a_chip_says_the_answer_as_the_player_gave_it():
    assert steps.pick_label("piece", "supply:large") == "piece: large"
    assert steps.pick_label("east.card", "Red") == "card: Red"
    assert steps.pick_label("tile", "") == "tile: none"
    assert steps.pick_label("offer", ["Circle", "Square"]) == "offer: Circle, Square"
    assert steps.pick_label("last_player_chooses", False) == "last player chooses: no"
    assert steps.pick_label("expert", True) == "expert: yes"


# The write token -----------------------------------------------------------------------------


def test_the_token_box_shows_only_where_the_server_needs_a_token():
    assert steps.token_box(None, None) is None
    assert steps.token_box(OPEN, None) is None
    assert "only with its write token" in a(str, steps.token_box(GUARDED, None))
    assert "is kept for this browser session" in a(str, steps.token_box(GUARDED, "s3cret"))
    assert panels.token_box(None) == ({"display": "none"}, "")


def test_a_saved_token_is_trimmed_and_a_blank_one_is_none():
    assert steps.saved_token("  s3cret ")[0] == "s3cret"
    assert steps.saved_token("   ") == (None, "No token given.")


def test_a_write_goes_with_the_token_in_the_box_else_the_one_kept():
    """Start tapped within a round trip of "Use token" must not go with the token kept before."""
    assert steps.token_in_use("old", " new ") == "new"
    assert steps.token_in_use("kept", None) == "kept"
    assert steps.token_in_use("kept", "   ") == "kept"
    assert steps.token_in_use(None, None) is None


# Following another device --------------------------------------------------------------------


def test_the_page_follows_a_match_another_device_moved_on(matches, recorder):
    match_id = started(matches)
    shown = matches.loaded(match_id)
    assert steps.followed(match_id, shown, matches.now) is None  # nothing new
    recorder.record(match_id, "Ann", {"place": "large", "to": "b2"})
    version, picks, said = a(tuple, steps.followed(match_id, shown, matches.now))
    assert version == recorder.get(match_id).version and picks == [] and "reloaded" in said


def _poll(matches, page: str):
    """The page's poll, as its callback makes it: this page's own writes are its own."""
    return lambda match_id, version: matches.mine(match_id, version, page)


def test_a_page_polling_while_its_own_write_is_under_way_or_unanswered_says_nothing(
    matches, recorder
):
    """The race behind a false "changed on another device": the poll reads the store after the
    page's write stored its move but before its answer brought the page's version on."""
    match_id = started(matches)
    shown = matches.loaded(match_id)
    picks = [["piece", "supply:large"], ["to", "b2"]]
    form = actions.Form(match_id=match_id, version=shown, picks=picks, page="page-1")
    polled: list = []
    record = recorder.record

    def record_then_poll(*args, **kwargs):
        done = record(*args, **kwargs)  # stored; the write's answer is not back yet
        polled.append(steps.followed(match_id, shown, matches.now, _poll(matches, "page-1")))
        polled.append(steps.followed(match_id, shown, matches.now, _poll(matches, "page-2")))
        return done

    matches.recorder.record = record_then_poll
    written = actions.write(matches, "commit", form, OPEN, HOST)
    matches.recorder.record = record
    assert written.message.startswith("recorded:")
    mine, theirs = polled
    assert mine is None  # its own move: the write's answer brings the version
    assert a(tuple, theirs)[2] == steps.FOLLOWED  # another page did see another device's move
    # After the write, a poll still holding the old version (its answer came late) is quiet.
    assert steps.followed(match_id, shown, matches.now, _poll(matches, "page-1")) is None
    # The same button tapped twice: the second write is refused, and says it was this page.
    again = actions.write(matches, "commit", form, OPEN, HOST)
    assert again.message == actions.ALREADY and again.version == written.version
    assert recorder.get(match_id).version == written.version  # stored once
    # A move by another device after it is followed, with the message.
    recorder.record(match_id, "Ben", {"place": "large", "to": "a1"})
    version, _picks, said = a(
        tuple, steps.followed(match_id, written.version, matches.now, _poll(matches, "page-1"))
    )
    assert version == recorder.get(match_id).version and said == steps.FOLLOWED


def test_nothing_is_read_while_no_match_is_shown():
    def now(_match_id):
        raise AssertionError("the store was read")

    assert steps.followed(None, 3, now) is None
    assert steps.followed("some id", None, now) is None
    assert steps.followed("gone", 3, lambda _match_id: None) is None  # no such match


def test_an_unknown_match_has_no_version(matches):
    assert matches.now("not-a-match-id") is None
    assert matches.now("00000000-0000-0000-0000-000000000000") is None
    assert matches.loaded("00000000-0000-0000-0000-000000000000") is None


# The questions -------------------------------------------------------------------------------


def test_the_setup_asks_its_questions_once_a_game_is_chosen():
    assert steps.setting_up([], "Ann, Ben") is None
    asked = a(steps.SettingUp, steps.setting_up([["game", "topitop"]], "Ann, Ben"))
    assert asked.head == "Topitop, 2 player(s)"
    assert asked.asked.question is not None and asked.asked.question.key == "small"
    done = a(steps.SettingUp, steps.setting_up(TOPITOP, " Ann ,, Ben "))
    assert done.asked.question is None and "complete" in a(str, done.asked.ready)
    assert done.asked.picks == TOPITOP


def test_answers_that_no_longer_fit_are_drawn_as_a_warning_beside_their_chips():
    drawn = a(
        list,
        panels.setup(
            steps.SettingUp("Topas, 1 player(s)", steps.Asked([["game", "topas"]], stale="gone"))
        ),
    )
    assert [part.className for part in drawn[1:]] == ["record-answers", "warning"]
    # a dash component's props are attributes set at run time, unknown to mypy: hence Any
    picker: Any = a(html.Div, panels.picker(steps.Asked([["to", "b2"]], stale="gone")))
    assert picker.className == "warning"


def test_a_move_is_asked_question_by_question_then_said_in_words(matches):
    match_id = started(matches)
    version = matches.loaded(match_id)
    first = a(steps.Asked, steps.asking(matches.get, match_id, version, []))
    assert first.question is not None and first.picks == []
    picks = [["piece", "supply:large"], ["to", "b2"]]
    ready = a(steps.Asked, steps.asking(matches.get, match_id, version, picks))
    words = a(str, ready.ready)
    assert ready.question is None and words.startswith("Ann ") and "b2" in words


def test_an_answer_that_no_longer_fits_says_so(matches):
    match_id = started(matches)
    picks = [["piece", "supply:nothing"]]
    asked = a(steps.Asked, steps.asking(matches.get, match_id, matches.loaded(match_id), picks))
    assert a(str, asked.stale).endswith("take an answer back") and asked.question is None


def test_no_question_without_a_match_at_the_version_shown_or_a_move_awaited(matches, recorder):
    assert steps.asking(matches.get, None, None, []) is None
    assert steps.asking(matches.get, "00000000-0000-0000-0000-000000000000", 1, []) is None
    match_id = started(matches)
    shown = matches.loaded(match_id)
    recorder.record(match_id, "Ann", {"place": "large", "to": "b2"})
    fresh = Matches(recorder).get  # nothing remembered: the store is read
    assert steps.asking(fresh, match_id, shown, []) is None  # another device moved
    over = topitop_to_its_end(recorder)
    assert steps.asking(matches.get, over, matches.loaded(over), []) is None


# The match as it stands ----------------------------------------------------------------------


def test_a_running_match_shows_who_is_to_move_and_its_score(matches):
    match_id = started(matches)
    shown = a(steps.Shown, steps.showing(matches.get, match_id, matches.loaded(match_id), "Nobody"))
    assert shown.summary.startswith("Topitop · Ann, Ben · running · move 0 · match ")
    assert shown.replay == f"/match?id={match_id}"
    assert shown.to_move == "To move: Ann"
    assert shown.undo_by == "Ann"  # who takes back: a seat of this match
    assert shown.running and shown.verdict is None and a(tuple, shown.board)[0] == "topitop"
    assert [entry["total"] for entry in a(list, shown.scores)] == shown.totals == [0, 0]
    assert a(steps.Shown, steps.showing(matches.get, match_id, None, "Ben")).undo_by == "Ben"


def test_undo_offers_whoever_made_the_last_move_first(matches, recorder):
    match_id = started(matches)
    recorder.record(match_id, "Ann", {"place": "large", "to": "b2"})
    recorder.record(match_id, "Ben", {"place": "small", "to": "a1"})
    # The page held Ann (the choice before Ben moved): Ben has just moved, Ben takes it back.
    shown = a(steps.Shown, steps.showing(matches.get, match_id, None, "Ann"))
    assert shown.undo_by == "Ben"
    recorder.undo(match_id, "Ben", "wrong cell")
    assert a(steps.Shown, steps.showing(matches.get, match_id, None, "Ben")).undo_by == "Ann"


def test_a_game_over_by_the_rules_offers_the_claim_until_it_is_ended(matches, recorder):
    match_id = topitop_to_its_end(recorder)
    shown = a(steps.Shown, steps.showing(matches.get, match_id, matches.loaded(match_id), None))
    assert shown.to_move == "The game is over by the rules."
    assert a(str, shown.verdict).startswith("By the rules: Ann wins (")
    assert len(a(list, shown.totals)) == 2 and shown.running
    recorder.claim(match_id, "Ann", {"Ann": 2, "Ben": 0})
    recorder.end(match_id)
    ended = a(steps.Shown, steps.showing(matches.get, match_id, matches.loaded(match_id), "Ben"))
    assert ended.to_move.startswith("The match has ended: Ann wins (")
    assert ended.verdict is None and not ended.running
    assert panels.play(ended)[-1] == {"display": "none"}  # no undo after the end


def test_a_sheet_shows_its_result_and_scores_without_a_board(matches, recorder):
    match_id = recorder.start_sheet("topitop", ["Ann", "Ben"], {"winners": ["Ben"]})
    shown = a(steps.Shown, steps.showing(matches.get, str(match_id), None, None))
    assert "score sheet" in shown.summary and shown.board is None
    assert shown.to_move.startswith("The match has ended: Ben wins")
    assert shown.sheet is not None
    assert steps.asking(matches.get, str(match_id), matches.loaded(str(match_id)), []) is None


def test_a_match_that_cannot_be_shown_says_why(matches, recorder):
    assert steps.showing(matches.get, None, None, None) is None
    assert "no match" in a(
        str, steps.showing(matches.get, "00000000-0000-0000-0000-000000000000", None, None)
    )
    match_id = started(matches)
    shown = matches.loaded(match_id)
    recorder.record(match_id, "Ann", {"place": "large", "to": "b2"})
    assert "reloaded" in a(str, steps.showing(Matches(recorder).get, match_id, shown, None))
    # A version once shown stays what it was: the page shows it until it follows the store.
    again = a(steps.Shown, steps.showing(matches.get, match_id, shown, None))
    assert again.summary.count("move 0") == 1
    outputs = panels.play("why")  # the start form stays, the play area hides, the reason shows
    assert outputs[1:3] == ({"display": "none"}, "why")
    assert all(value is no_update for value in outputs[3:])


# Writes --------------------------------------------------------------------------------------


def test_a_write_the_policy_refuses_stores_nothing(matches, store):
    form = actions.Form(setup_picks=TOPITOP, players="Ann, Ben")
    done = actions.write(matches, "start", form, GUARDED, "192.168.1.5:8050")
    assert "write token" in done.message and done.match_id is actions.KEEP
    assert stored_rows(store) == []
    assert panels.written(done)[1:] == (no_update,) * 4


def test_a_start_opens_the_match_at_its_own_address(matches, recorder):
    done = actions.write(
        matches, "start", actions.Form(setup_picks=TOPITOP, players="Ann, Ben"), OPEN, HOST
    )
    assert done.search == f"?match={done.match_id}" and done.picks == []
    assert done.version is None  # loaded afresh from the new address
    assert list(recorder.get(done.match_id).seats) == ["Ann", "Ben"]
    refused = actions.write(
        matches, "start", actions.Form(setup_picks=TOPITOP, players="Ann"), OPEN, HOST
    )
    assert refused.message.startswith("refused: Topitop is for 2 players")


def test_a_move_recorded_clears_the_picks_and_shows_the_new_version(matches, recorder):
    match_id = started(matches)
    form = actions.Form(
        match_id=match_id,
        version=matches.loaded(match_id),
        picks=[["piece", "supply:large"], ["to", "b2"]],
    )
    done = actions.write(matches, "commit", form, OPEN, HOST)
    assert done.message.startswith("recorded: Ann ")
    assert done.version == recorder.get(match_id).version and done.picks == []


def test_a_write_from_a_stale_page_reloads_and_stores_nothing(matches, recorder, store):
    match_id = started(matches)
    shown = matches.loaded(match_id)
    recorder.record(match_id, "Ann", {"place": "large", "to": "b2"})
    before = stored_rows(store)
    for action in ("commit", "undo", "claim", "end", "draw"):
        form = actions.Form(
            match_id=match_id,
            version=shown,
            undo_by="Ben",
            reason="slip",
            picks=[["piece", "supply:small"], ["to", "a1"]],
            claimed=[1, 0],
            claim_by=["Ann"],
        )
        done = actions.write(matches, action, form, OPEN, HOST)
        assert done.message == actions.RELOADED, action
        assert done.version == recorder.get(match_id).version and done.picks == []
    assert stored_rows(store) == before


def test_a_claim_needs_every_score_and_an_end_needs_a_finished_game(matches, recorder, store):
    match_id = topitop_to_its_end(recorder)
    version = matches.loaded(match_id)
    before = stored_rows(store)
    blank = actions.Form(match_id=match_id, version=version, claimed=[2, None], claim_by=["Ann"])
    assert actions.write(matches, "claim", blank, OPEN, HOST).message == (
        "refused: give Ben's score (a number) to claim the result"
    )
    assert stored_rows(store) == before
    claim = actions.Form(match_id=match_id, version=version, claimed=[2, 0], claim_by=["Ann"])
    claimed = actions.write(matches, "claim", claim, OPEN, HOST)
    assert claimed.message == "claimed: Ann 2, Ben 0"
    ended = actions.write(
        matches, "end", actions.Form(match_id=match_id, version=claimed.version), OPEN, HOST
    )
    assert ended.message.startswith("the match has ended: Ann wins")
    assert recorder.get(match_id).status == "ended"


def test_a_write_without_a_match_is_refused(matches, store):
    done = actions.write(matches, "commit", actions.Form(), OPEN, HOST)
    assert done.message == "refused: no match is shown"
    assert stored_rows(store) == []


def test_an_unknown_match_is_refused_not_reloaded(matches):
    form = actions.Form(match_id="00000000-0000-0000-0000-000000000000", version=1)
    assert actions.write(matches, "end", form, OPEN, HOST).message.startswith("refused: no match")


# The score-sheet form ------------------------------------------------------------------------


def test_a_sheet_is_logged_through_the_same_door(recorder, store):
    form = sheets.SheetForm(
        game="topitop", players="Ann, Ben", totals=[None, None], winners=["Ben"], first="Ann"
    )
    assert "write token" in a(str, sheets.log(recorder, form, GUARDED, "192.168.1.5:8050"))
    assert sheets.log(recorder, sheets.SheetForm(players="Ann, Ben"), OPEN, HOST) == (
        "refused: choose the game first"
    )
    assert stored_rows(store) == []
    match_id = sheets.log(recorder, form, OPEN, HOST)
    match = recorder.get(match_id)
    assert match.kind == "sheet" and match.outcome["winners"] == [1]
    link = sheets.logged("topitop", match_id).children[1]
    assert link.href == f"/record?match={match_id}"


def test_a_sheet_the_rules_refuse_says_why_and_stores_nothing(recorder, store):
    form = sheets.SheetForm(game="topitop", players="Ann, Ben", winners=["Eve"])
    said = a(str, sheets.log(recorder, form, OPEN, HOST))
    assert said.startswith("refused: ") and "Eve" in said
    assert sheets.logged("topitop", said) == said
    assert stored_rows(store) == []
