"""The audit's check of an umpire's signed rulings (domain.matches.rulings): each verifies with the
key the store trusts for the person it names, over the dispute and the decision as stored."""

from __future__ import annotations

from ..matches import rulings
from ..recording.users import HasPeople, users_of
from .audit_chain import Stored
from .audit_claims import Replay


def check_rulings(audit: Replay, recorder: HasPeople, events: list[Stored]) -> None:
    """Each signed ruling's dispute says, in words, whose signature it carries and whether it
    verifies; one that does not is a finding ("ruling")."""
    signed = rulings.signed_rulings([(s.position, s.event) for s in events if s.event is not None])
    if not signed:
        return
    people = users_of(recorder)
    keys, owners = people.person_keys(), people.key_owners()
    disputes = {d["resolved_event"]: d for d in audit.disputes}
    for ruling in signed:
        position = ruling.step + 1
        try:
            rulings.verify(ruling, keys)
            if owners.get(ruling.signature["key"]) != ruling.signature["user"]["id"]:
                raise rulings.RulingNotVerified(
                    f"the key {ruling.signature['key']} is not one this store trusts for "
                    f"{ruling.who}: the ruling at step {ruling.step} is signed by someone else"
                )
            words = f"signed by {ruling.who} with their own key {ruling.signature['key']}: verifies"
        except rulings.RulingNotVerified as err:
            audit.find(position, "ruling", str(err))
            words = f"signed by {ruling.who}, but the signature does NOT verify"
        if position in disputes:
            disputes[position]["signed"] = words
