"""Fixtures of the checkpoint tests."""

from __future__ import annotations

import pytest

from tests.audit.helpers import played_with_everything
from tests.checkpoints.helpers import new_signer, signing


@pytest.fixture
def signed(any_store):
    """A store (both kinds) with three matches played with everything, under a signing key."""
    recorder = signing(any_store, new_signer())
    matches = [played_with_everything(recorder) for _ in range(3)]
    recorder.close()
    return any_store, matches
