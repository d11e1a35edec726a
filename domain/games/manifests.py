"""Component manifests: the pieces a game is played with (tiles, cards, a board), as JSON.

A match is a record that stands on its own: it embeds the manifest it was started with in its
Started event as `components` (name, SHA-256, content), and a replay reads only that. The engines
look a manifest up by reference, `sha256:<hex>`, in a content-addressed table this module keeps
(`register`); the same reference always means the same content, so the engines stay pure.

Where the content of a NEW match's manifest comes from:
- packaged with Tablelog: `tablelog.data/manifests/<name>.json`, read through importlib.resources.
  A packaged manifest never changes under its name (a new board gets a new name), because
  matches stored by release 0.1 name it without embedding it;
- a club's own folder: `<name>.json` in `$TABLELOG_MANIFESTS`, by default the `manifests` folder
  of the user data directory (`~/.local/share/tablelog/manifests`);
- content the client hands over (`tablelog new --manifest-file PATH` reads the file on the
  client's side; the API takes the content in the request body).
A manifest is named, never given as a path: nothing a request says makes the server open a file
outside those two folders, and a refusal does not say whether anything exists elsewhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from ..plain import PlainDict, PlainValue
from ..quoting import quoted
from .base import InvalidSetup

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
MAX_BYTES = 256 * 1024  # a manifest lists a few dozen pieces; as much as any stored value
REF_PREFIX = "sha256:"

_registered: dict[str, PlainValue] = {}  # SHA-256 -> content: what `sha256:<hex>` references mean


def club_folder() -> Path:
    """Where a club keeps its own manifests (documented in docs/records.md)."""
    environ = os.environ
    return _club_folder(
        environ.get("TABLELOG_MANIFESTS"), environ.get("XDG_DATA_HOME"), environ.get("HOME")
    )


@lru_cache(maxsize=8)
def _club_folder(folder: str | None, data_home: str | None, home: str | None) -> Path:
    # Keyed by the variables the answer depends on: platformdirs works it out afresh each
    # time (24 us, two thirds of finding a manifest, which every new match does).
    return Path(folder) if folder else platformdirs.user_data_path("tablelog") / "manifests"


def packaged_names() -> list[str]:
    folder = resources.files("tablelog.data") / "manifests"
    return sorted(
        p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
    )


def content_hash(content: object) -> str:
    """SHA-256 of the content's canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise InvalidSetup(
            f"a manifest is named by letters, digits, '-' and '_' (packaged: "
            f"{', '.join(packaged_names())}; or a club's own in its manifest folder), not "
            f"{quoted(name)}; to play with a file, pass its content (tablelog new "
            "--manifest-file PATH)"
        )
    return name


def find(name: object) -> Any:
    """The content of the manifest called `name`: the club's own, else the packaged one."""
    checked = check_name(name)
    folder = club_folder()
    path = folder / f"{checked}.json"
    # A symlink out of the club folder is treated as absent, and said the same way.
    if path.is_file() and path.resolve().is_relative_to(folder.resolve()):
        return parse(path.read_bytes(), checked)
    return _packaged(checked)


@lru_cache(maxsize=32)
def _packaged(name: str) -> PlainValue:
    source = resources.files("tablelog.data") / "manifests" / f"{name}.json"
    if not source.is_file():
        raise InvalidSetup(
            f"no manifest named {name!r} (packaged: "
            f"{', '.join(packaged_names())}; or a club's own in its manifest "
            "folder)"
        )
    return parse(source.read_bytes(), name)


def parse(data: bytes, name: str) -> PlainValue:
    """A manifest file's bytes as JSON (at most MAX_BYTES), or InvalidSetup."""
    if len(data) > MAX_BYTES:
        raise InvalidSetup(f"manifest {name}: larger than {MAX_BYTES // 1024} KiB")
    try:
        content = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InvalidSetup(f"manifest {name} is not valid JSON: {err}") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise InvalidSetup(f"manifest {name} holds a number of more than 4,300 digits") from None
    except RecursionError:
        raise InvalidSetup(f"manifest {name} is nested too deep to read") from None
    return content  # what its content must be is the game's to say


def embed(name: str, content: PlainValue) -> PlainDict:
    """The `components` a Started event carries: the manifest whole, with its name and hash."""
    return {"name": name, "sha256": content_hash(content), "content": content}


def register(components: object) -> str:
    """Make `components` (as `embed` builds them) known; returns the reference engines load by.
    Content that does not match its recorded hash is refused."""
    if not isinstance(components, dict) or set(components) != {"name", "sha256", "content"}:
        raise InvalidSetup("components are {name, sha256, content}")
    digest = content_hash(components["content"])
    if digest != components["sha256"]:
        raise InvalidSetup(
            f"the components named {components['name']!r} do not match their "
            f"hash: recorded {components['sha256']}, content {digest}"
        )
    _registered.setdefault(digest, components["content"])
    return REF_PREFIX + digest


def load_manifest(reference: str) -> Any:
    """A manifest's content by reference (`sha256:<hex>`, registered) or by name (a new match:
    `find`)."""
    if isinstance(reference, str) and reference.startswith(REF_PREFIX):
        try:
            return _registered[reference.removeprefix(REF_PREFIX)]
        except KeyError:
            raise InvalidSetup(
                f"manifest {reference} has not been loaded in this process"
            ) from None
    return find(reference)


T = TypeVar("T")
_read: dict[tuple[int, Callable[..., object]], tuple[object, Any]] = {}  # T differs per parser


def read_with(reference: str, parse: Callable[[PlainValue, str], T]) -> T:
    """`parse(content, reference)` of the manifest `reference` names (`load_manifest`), parsed
    once per content object: packaged and recorded content is the same object every time, so
    it is parsed once, while a club's file is read afresh on every call, so an edited file is
    never served from memory (a cache by name did that in a long-running server)."""
    if reference.startswith(REF_PREFIX):  # recorded content never changes: the engines' path
        return _read_recorded(reference, parse)
    content = load_manifest(reference)
    key = (id(content), parse)
    kept = _read.get(key)
    if kept is None or kept[0] is not content:  # the id of content since freed: parse again
        if len(_read) >= 64:
            _read.clear()
        kept = _read[key] = (content, parse(content, reference))
    return kept[1]


@lru_cache(maxsize=64)
def _read_recorded(reference: str, parse: Callable[[PlainValue, str], T]) -> T:
    return parse(load_manifest(reference), reference)


def legacy_components(recorded: str) -> PlainDict:
    """The components of a match stored by release 0.1, whose Started event names its manifest
    (a packaged name, or a file path) without embedding it. A packaged name means the content
    it has today (packaged manifests never change under their names); a path is read where the
    match was recorded, the one place a path is ever opened, and only for such old matches."""
    if NAME.fullmatch(recorded):
        return embed(recorded, _packaged(recorded))
    path = Path(recorded)
    try:
        return embed(recorded, parse(path.read_bytes(), recorded))
    except OSError:
        raise InvalidSetup(
            f"this match was recorded by Tablelog 0.1 with its components in the "
            f"file {recorded}, which cannot be read here; run the command where "
            "that file is"
        ) from None
