"""Appending entries to a journal file: all of the entry or nothing.

The new file content is the old bytes, untouched, plus the new block. It is
written to a new file beside the journal, flushed to disk and renamed over
the journal in one step (safewrite.py, as every file nardrating writes), so
a crash leaves either the old file or the new one, never half an entry. A lock file in the club folder serialises
concurrent writers (each one re-reads the journal under the lock) and lets
the next writer remove the temporary file of one that was killed. A journal
that is a symlink is written through: the temporary file goes beside its
target, inside the club folder, and replaces the target, so the link stays.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import inside_club
from ..errors import ActionRefused
from ..i18n import _
from ..safefile import NotRegularFile, read_regular
from ..safewrite import LOCK_NAME, replace_file

if TYPE_CHECKING:
    from .model import Journal

__all__ = ["LOCK_NAME", "OLD_END", "append_block", "appended_bytes", "club_lock", "entry_block", "next_match_id"]

# The club folder whose lock this process holds: append_block writes only inside it.
_LOCKED_CLUB: ContextVar[Path | None] = ContextVar("locked_club", default=None)

# Journal files this process has replaced, in order: an error report says what was written.
appended: list[Path] = []


def _read_only(path: Path) -> bool:
    # Mode bits, not just access(): root may write anything, but a file or folder marked
    # read-only is the owner's way of saying "do not touch".
    return not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222


@contextmanager
def club_lock(folder: Path) -> Iterator[None]:
    import fcntl

    if folder.is_dir() and _read_only(folder):
        raise ActionRefused(_("{folder}: the club folder is read-only; nothing was written. "
                              "Make it writable (chmod u+w) and run the command again.").format(folder=folder))
    path = folder / LOCK_NAME
    try:  # never through a symlink: the lock file is created in the club folder or not at all
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ActionRefused(_("{path}: the lock file is a symbolic link; nothing was written. "
                                  "Remove it and run the command again.").format(path=path)) from None
        raise ActionRefused(_("{path}: cannot create the lock file: {reason}; is the club folder writable?").format(
            path=path, reason=exc.strerror)) from None
    token = None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ActionRefused(_("{path}: the lock file is not a regular file; nothing was written. "
                                  "Remove it and run the command again.").format(path=path))
        fcntl.flock(fd, fcntl.LOCK_EX)
        token = _LOCKED_CLUB.set(folder)
        yield
    finally:
        if token is not None:
            _LOCKED_CLUB.reset(token)
        os.close(fd)  # closing releases the lock


def _plain_error(path: Path, exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return _("{path}: the disk is full; nothing was written. Free some space and run the command again.").format(
            path=path)
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return _("{path}: not allowed to write here ({reason}); nothing was written.").format(
            path=path, reason=exc.strerror)
    if isinstance(exc, NotRegularFile):
        return _("{path}: not a regular file; nothing was written. A journal must be a regular file.").format(path=path)
    return _("{path}: could not write the journal ({reason}); nothing was written.").format(
        path=path, reason=exc.strerror or exc)


def _remove_leftovers(path: Path) -> None:
    """Temporary files of writers that were killed before their rename.

    Only called under the club lock: no other writer can be using one. Only the names
    safewrite gives its named new files, only regular files, never through a symlink.
    """
    ours = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in entries:
        try:
            if ours.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        except OSError:
            pass


def append_block(path: Path, block: str) -> None:
    """Append `block` (TOML text) to `path` atomically, under club_lock. Raises ActionRefused on failure.

    A symlinked journal is written through: the new content replaces the link's target
    (which must lie in the club folder), and the link stays a link.
    """
    club = _LOCKED_CLUB.get()
    target = Path(os.path.realpath(path))
    if club is not None and inside_club(club, path) is None:
        raise ActionRefused(_("{path}: the journal resolves to {target}, outside the club folder {club}; "
                              "nothing was written. Journal files must live in the club folder.").format(
            path=path, target=target, club=club))
    if target.exists() and _read_only(target):
        raise ActionRefused(_("{path}: the journal file is read-only; nothing was written. "
                              "Make it writable (chmod u+w) and run the command again.").format(path=path))
    _remove_leftovers(target)
    try:
        old, _stat = read_regular(target)
    except FileNotFoundError:
        old = b""
    except OSError as exc:
        raise ActionRefused(_plain_error(path, exc)) from None
    data = appended_bytes(old, block)
    # A new file beside the target, synced, renamed over it (its permissions kept); on any error
    # removed, and the journal as it was.
    replace_file(target, data, describe=lambda _target, exc: _plain_error(path, exc))
    appended.append(Path(path))


# The old bytes appended_part looks at: enough to see a blank line at the end, CR LF ones too.
OLD_END = 4


def appended_bytes(old: bytes, block: str) -> bytes:
    """The journal file's new content: its old bytes, a blank line, the block."""
    return old + appended_part(old[-OLD_END:], block)


def appended_part(old_end: bytes, block: str) -> bytes:
    """What appending `block` adds after old bytes ending in `old_end` (their last OLD_END, b""
    for none): a blank line (as much of one as they lack), the block. After a line that ends in
    CR LF (a file saved on Windows) the blank line and the block's lines end so too, never a bare
    LF among CR LFs."""
    if old_end.endswith(b"\r\n"):
        separator = b"" if old_end.endswith(b"\n\r\n") else b"\r\n"
        return separator + block.replace("\n", "\r\n").encode("utf-8")
    separator = b"" if not old_end or old_end.endswith(b"\n\n") else (b"\n" if old_end.endswith(b"\n") else b"\n\n")
    return separator + block.encode("utf-8")


def entry_block(kind: str, entry: dict[str, Any]) -> str:
    """One [[kind]] table as TOML text, serialised by tomli-w."""
    import tomli_w

    def value(v: Any) -> str:
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):  # a round's boards: one a line
            return "[\n" + "".join(f"  {value(x)},\n" for x in v) + "]"
        if isinstance(v, list):  # one line, as people write them: ["anna", "boris"]
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):  # an inline table: {board = 1, white = "anna", black = "boris"}
            return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + "}"
        return tomli_w.dumps({"v": v})[4:].rstrip("\n")

    lines = [f"[[{kind}]]"] + [f"{k} = {value(v)}" for k, v in entry.items() if v is not None]
    return "\n".join(lines) + "\n"


# At most 18 digits: a longer number (in a note, say) is no id a writer made, and int() of
# thousands of digits would fail. An id line: only whitespace (line ends too) before `id` since a
# line's start, as ^\s*id with re.MULTILINE finds them; written as "after a line end" (a literal
# the regex engine searches for quickly: a third of the time on a 12 MB journal), and the file's
# first line on its own.
_MATCH_ID = re.compile(r'\n\s*id\s*=\s*"m([0-9]{1,18})"')
_FIRST_MATCH_ID = re.compile(r'\s*id\s*=\s*"m([0-9]{1,18})"')


def m_numbers(text: str) -> list[int]:
    """The numbers of the file's `id = "m…"` lines (one found twice where blank lines open the file)."""
    found = _MATCH_ID.findall(text)
    first = _FIRST_MATCH_ID.match(text)
    if first is not None:
        found.append(first[1])
    return list(map(int, found))


def next_match_id(text: str, journal: Journal) -> str:
    """m0001, m0002, …: one past the highest m-number in the file written to, skipping ids in use."""
    highest = max(m_numbers(text), default=0)
    while journal.has_match_id(f"m{highest + 1:04d}"):
        highest += 1
    return f"m{highest + 1:04d}"
