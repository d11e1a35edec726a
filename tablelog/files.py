"""Files a person names (on the command line, or in the environment): read with a bound,
written whole or not at all.

A file is read only when it is a file (a directory, a device such as /dev/zero or a socket is
refused by name) and only up to its limit: a huge or endless one is refused with one line
before it is read whole, not a MemoryError. Output goes to a scratch file beside the target,
moved into place when complete, so a failed write (a full disk, /dev/full, a refusal half-way)
leaves nothing behind; a directory of outputs is filled the same way. Output goes where a store
file may be made (tablelog/store.py): into an existing directory, or a new directory made inside
one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tablelog.domain.errors import Refused
from tablelog.domain.quoting import quoted

SMALL = 1 << 20  # a setup, a manifest, a key, a receipt, a signed head
LARGE = 256 << 20  # records or plays to import: some 12,000 matches (about 21 KB each)


def size_words(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"


@dataclass(frozen=True)
class Given:
    """A file's name as given and its bytes."""

    name: str
    data: bytes
    what: str

    def text(self) -> str:
        """The bytes as UTF-8 text, or a Refused naming the first byte that is not."""
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise Refused(
                f"{self.what} {quoted(self.name)} is not UTF-8 text (byte {err.start + 1} is not)"
            ) from None


def read_file(name: str | os.PathLike, what: str, limit: int = SMALL) -> Given:
    """The bytes of the file `name` ("-" is standard input), at most `limit` of them; a
    Refused for anything that is not a readable file within the limit."""
    name = os.fspath(name)
    if name == "-":
        return Given(name, _bounded(sys.stdin.buffer, name, what, limit), what)
    shown = f"{what} {quoted(name)}"
    _require_name(name, shown)
    try:
        _require_file(os.stat(name), shown, limit)
        with open(name, "rb") as file:
            return Given(name, _bounded(file, name, what, limit), what)
    except OSError as err:
        raise Refused(f"cannot read {shown}: {_reason(err)}") from None


def _require_name(name: str, shown: str) -> None:
    """A name the system can take: no NUL, no lone surrogate it cannot encode."""
    try:
        if "\x00" not in name:
            os.fsencode(name)
            return
    except UnicodeEncodeError:
        pass
    raise Refused(f"{shown} is not a file name")


def _require_file(kind: os.stat_result, shown: str, limit: int) -> None:
    mode = kind.st_mode
    if stat.S_ISDIR(mode):
        raise Refused(f"{shown} is a directory; give a file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise Refused(f"{shown} is a device, not a file")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):  # a pipe is read up to the limit
        raise Refused(f"{shown} is not a file")
    if kind.st_size > limit:
        raise Refused(f"{shown} is larger than {size_words(limit)}")


def _bounded(file: IO[bytes], name: str, what: str, limit: int) -> bytes:
    """A pipe or a file under /proc tells no size: read one byte past the limit to tell."""
    data = file.read(limit + 1)
    if len(data) > limit:
        raise Refused(f"{what} {quoted(name)} is larger than {size_words(limit)}")
    return data


def _reason(err: OSError) -> str:
    return (err.strerror or type(err).__name__).lower()


# ---- output --------------------------------------------------------------------------------


def check_output(name: str, what: str) -> str:
    """`name` if a file can be written there: "-" (standard output), or a path in an existing
    directory that is not itself a directory. Checked before any work is done."""
    if name == "-":
        return name
    _require_name(name, f"{what} {quoted(name)}")
    path = Path(name).expanduser()
    if os.path.isdir(path):
        raise Refused(f"{what} {quoted(name)} is a directory; give a file's path")
    if not os.path.isdir(path.parent):
        raise Refused(
            f"{what} {quoted(name)}: the directory {quoted(str(path.parent))} does not exist "
            "(create it first)"
        )
    return str(path)


@contextlib.contextmanager
def written(name: str, what: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A stream for `name` (checked by `check_output`): standard output, a device as it is
    (/dev/null), or a scratch file that replaces `name` only when the block completes."""
    if name == "-":
        stream = sys.stdout.buffer if binary else sys.stdout
        with _write_errors("standard output", what):
            yield stream
            stream.flush()
        return
    with _write_errors(quoted(name), what):
        if os.path.exists(name) and not os.path.isfile(name):  # a device: never replaced
            with open(name, "wb" if binary else "w", encoding=None if binary else "utf-8") as out:
                yield out
        else:
            with _replacing(name, binary) as out:
                yield out


@contextlib.contextmanager
def _replacing(name: str, binary: bool) -> Iterator[IO[Any]]:
    """click's atomic files replace the target even when the block fails (click 8.5): this
    one removes its scratch file then. Created as a new file is (0666 less the umask)."""
    scratch = Path(name).with_name(f".{Path(name).name}.{uuid.uuid4().hex}.part")
    descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(descriptor, "wb" if binary else "w", encoding=None if binary else "utf-8") as out:
            yield out
        os.replace(scratch, name)
    except BaseException:
        scratch.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _write_errors(shown: str, what: str) -> Iterator[None]:
    try:
        yield
    except OSError as err:
        raise Refused(f"cannot write {what} to {shown}: {_reason(err)}") from None


def check_folder(name: str, what: str) -> Path:
    """A directory to fill: an existing one, or a new one inside an existing one (only the last
    part of the path is made)."""
    _require_name(name, f"{what} {quoted(name)}")
    path = Path(name).expanduser()
    if os.path.exists(path) and not os.path.isdir(path):
        raise Refused(f"{what} {quoted(name)} is a file, not a directory")
    if not os.path.isdir(path.parent):
        raise Refused(
            f"{what} {quoted(name)}: the directory {quoted(str(path.parent))} does not exist "
            "(create it first)"
        )
    return path


@contextlib.contextmanager
def filled(folder: Path, what: str) -> Iterator[Path]:
    """A scratch directory inside `folder` (made now, so an unwritable place such as /proc is
    refused before any work) whose files move into `folder` when the block completes; on any
    failure they are removed, and so is `folder` if it was made here."""
    made = not os.path.exists(folder)
    try:
        if made:
            folder.mkdir()
        scratch = Path(tempfile.mkdtemp(prefix=".tablelog-", dir=folder))
    except OSError as err:
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise Refused(f"cannot write {what} to {quoted(str(folder))}: {_reason(err)}") from None
    try:
        with _write_errors(quoted(str(folder)), what):
            yield scratch
            for done in sorted(scratch.iterdir()):
                os.replace(done, folder / done.name)
    except BaseException:
        if made:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
