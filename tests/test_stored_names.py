"""A stored class's name outlives its file: every Match event and the snapshot keep the topic
they were stored by before domain/ had rooms (a Started event's hash covers the aggregate's
topic, so an exported record's hashes depend on it), and both old module names resolve in a
fresh interpreter that has imported nothing but the package."""

import subprocess
import sys
from uuid import uuid4

from eventsourcing.utils import get_topic

from tablelog.domain.matches.match import Match, start_match
from tablelog.domain.matches.snapshots import MatchSnapshot

STORED = "tablelog.domain.match:Match"
EVENTS = [
    "Created",
    "Started",
    "MoveRecorded",
    "MoveUndone",
    "ResultClaimed",
    "DisputeRaised",
    "DisputeResolved",
    "SheetRecorded",
    "Ended",
    "Abandoned",
]


def test_the_aggregate_and_its_events_keep_their_stored_names() -> None:
    assert get_topic(Match) == STORED
    for name in EVENTS:
        assert get_topic(getattr(Match, name)) == f"{STORED}.{name}"


def test_a_new_match_stores_the_names_it_always_stored() -> None:
    match = start_match(uuid4(), "topitop", ["Ann", "Bo"])
    started = match.pending_events[0]
    assert isinstance(started, Match.Started)
    assert started.originator_topic == STORED
    assert get_topic(MatchSnapshot) == "tablelog.domain.snapshots:MatchSnapshot"


def test_old_module_names_resolve_in_a_fresh_interpreter() -> None:
    script = (
        "import sys, tablelog.domain\n"
        "from eventsourcing.utils import resolve_topic\n"
        "assert 'tablelog.domain.matches.match' not in sys.modules\n"
        "for prefix in ('domain', 'tablelog.domain'):\n"
        "    print(resolve_topic(prefix + '.match:Match.Started').__qualname__)\n"
        "    print(resolve_topic(prefix + '.snapshots:MatchSnapshot').__qualname__)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert found == ["Match.Started", "MatchSnapshot"] * 2
