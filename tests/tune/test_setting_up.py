"""A study in the moment between Optuna making it and the tuner writing its settings (another
process may look just then: `tune list`, `tune show`, the Lab page's list): it is left out of the
lists, and asked for by name it is refused in one line, never a traceback."""

from __future__ import annotations

import optuna
import pytest

from tablelog.tune.command import listed
from tablelog.tune.service import serve_tune
from tablelog.tune.storage import open_storage, storage_url
from tablelog.tune.study import StudyError, load


@pytest.fixture
def half_made(tmp_path):
    """A store with one study Optuna has made and the tuner has not yet written to."""
    store = str(tmp_path / "s.sqlite")
    optuna.create_study(storage=open_storage(storage_url(store)), study_name="topiary-0000abcd")
    return store


def test_a_study_being_set_up_is_left_out_of_the_lists(half_made):
    assert listed(half_made) == ["no study in this store yet (tablelog tune GAME starts one)"]
    assert serve_tune(half_made).studies("topiary") == []


def test_a_study_being_set_up_asked_for_by_name_is_refused_in_one_line(half_made):
    with pytest.raises(StudyError) as refused:
        load(storage_url(half_made), "topiary-0000abcd")
    assert (
        str(refused.value)
        == "study 'topiary-0000abcd' is still being set up: try again in a moment"
    )
