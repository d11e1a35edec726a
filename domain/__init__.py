"""What a match IS: rules engines, events, and the recording application.

Installed as `tablelog.domain`. Its rooms:

- `matches/`: a match (the aggregate and its events) and what it is read and written as;
- `recording/`: the application that stores matches, and the store's own tables;
- `integrity/`: the audit, signed checkpoints, receipts and proofs;
- `games/`, `sheets/`, `restrictions/`: the rules; `solvers/`, `agents/`: programs that play;
- here, what every room uses: `errors`, `quoting`, `wording`.

Release 0.1 installed this package as the top-level `domain`, and every event it stored names
its class by that topic (`domain.match:Match.Started`); release 0.2 stored
`tablelog.domain.match:Match.Started`, from before the modules moved into rooms. A stored event
is forever, so both old names resolve: the old package name to this package, and the old module
names of the stored classes to the modules that now hold them (imported when first asked).
"""

import importlib
import sys
from types import ModuleType

from eventsourcing.utils import register_topic

LEGACY_PACKAGE = "domain"
PACKAGE = __name__


def legacy_topic(topic: str) -> str:
    """A topic of this package as release 0.1 stored it."""
    return topic.replace(PACKAGE, LEGACY_PACKAGE, 1)


# Modules that defined a stored class before they moved into a room: old name -> new name.
_STORED_MODULES = {"match": "matches.match", "snapshots": "matches.snapshots"}


def _moved(old: str, new: str) -> ModuleType:
    """A stand-in for a moved module, which imports the module it moved to when a topic asks
    it for a class: importing it here would import the rules of every game with this package."""
    stand_in = ModuleType(old, f"Moved to {new}.")

    def __getattr__(name: str) -> object:
        return getattr(importlib.import_module(new), name)

    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    return stand_in


register_topic(LEGACY_PACKAGE, sys.modules[__name__])
for _old, _new in _STORED_MODULES.items():
    _module = _moved(f"{PACKAGE}.{_old}", f"{PACKAGE}.{_new}")
    register_topic(f"{PACKAGE}.{_old}", _module)
    register_topic(f"{LEGACY_PACKAGE}.{_old}", _module)
