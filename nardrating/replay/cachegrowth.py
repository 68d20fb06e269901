"""Which journal files changed since the cache was written, and whether a change is a clean append.

A file whose stat matches is unchanged, unless racily clean (then hashed). A file that only grew,
from an entry boundary a full parse also sees, is the append-only case; anything else raises
(cachecheck.Bad), and the caller reads the whole journal.
"""
from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .cachecheck import STAT_FIELDS, need

if TYPE_CHECKING:
    from ..config import ClubConfig

State = dict[str, Any]               # what the cache remembers of a journal file (file_state)

# A journal file that only grew: (index, old state, its bytes now, their stat, time read).
Grown = tuple[int, dict[str, Any], bytes, os.stat_result, int]
# Filesystem timestamp granularity plus slack: a file changed this close to being read is hashed.
RACY_NS = 2_000_000_000


def file_state(raw: bytes, st: os.stat_result, seen_ns: int, sha256: str | None = None,
               lines: int | None = None) -> dict[str, int | str]:
    """What the cache remembers of a journal file read as `raw`, whose stat was `st`; `sha256` and
    `lines`, where given, are those of `raw` (found while its old part was checked)."""
    state: dict[str, int | str] = {name: getattr(st, "st_" + name) for name in STAT_FIELDS}
    if st.st_size != len(raw):  # changed while being read: never trust its stat, always hash
        state["mtime_ns"] = -1
    state.update(size=len(raw), sha256=sha256 or hashlib.sha256(raw).hexdigest(),
                 lines=raw.count(b"\n") if lines is None else lines, seen_ns=seen_ns)
    return state


def stat_unchanged(st: os.stat_result, old: Mapping[str, Any]) -> bool:
    """Unchanged by its stat alone: all of it equal, and not racily clean (git's rule, with ctime too)."""
    return (all(getattr(st, "st_" + name) == old[name] for name in STAT_FIELDS)
            and max(old["mtime_ns"], old["ctime_ns"]) < old["seen_ns"] - RACY_NS)


def changed_files(config: ClubConfig, manifest: dict[str, Any]) -> tuple[list[Grown], bool]:
    """Compare the journal files with the cached states (which are updated where only the stat moved)."""
    from ..safefile import read_regular

    paths, states = config.journal_paths(), manifest["states"]
    grown: list[Grown] = []
    refreshed = False
    for k, (path, old) in enumerate(zip(paths, states)):
        if stat_unchanged(os.stat(path), old):
            continue
        seen_ns = time.time_ns()
        raw, st = read_regular(path)
        if len(raw) == old["size"] and hashlib.sha256(raw).hexdigest() == old["sha256"]:
            # The same bytes: only the stat moved, or racily clean (their hash and lines as before).
            states[k] = file_state(raw, st, seen_ns, old["sha256"], old["lines"] if old["lines"] >= 0 else None)
            refreshed = refreshed or stat_unchanged(st, states[k])
            continue
        old_bytes = memoryview(raw)[:old["size"]]
        need(len(raw) > old["size"], "an edit, not an append")  # (any file: see resume.cached_journal)
        need(hashlib.sha256(old_bytes).hexdigest() == old["sha256"], "the old bytes changed")
        need(entry_boundary(bytes(old_bytes), raw[old["size"]:], path.suffix == ".csv"),
             "the old bytes do not end at an entry boundary")
        grown.append((k, old, raw, st, seen_ns))
    return grown, refreshed


def entry_boundary(old: bytes, tail: bytes, csv: bool) -> bool:
    """Whether parsing `tail` alone reads what a full parse of old + tail reads after `old`.

    The old bytes must end with a newline outside any string, and (TOML) the tail
    must open with a top-level [[entry]] header: keys or sub-tables first would
    belong to the old text's last entry; and no table of the tail may be one the old
    text set as a value at its top (`player = [{id = "anna"}]`, then `[[player]]`: a
    full parse refuses that, a parse of the tail alone would not).
    """
    if old and not old.endswith(b"\n"):
        return False
    if csv:
        return old.count(b'"') % 2 == 0
    text, new = old.decode("utf-8", "replace"), tail.decode("utf-8", "replace")
    if not (_ends_outside_strings(text) and _opens_with_entry(new)):
        return False
    from ..journal.tomlsource import root_keys, table_roots

    set_above, opened = root_keys(text), table_roots(new)
    return set_above is not None and opened is not None and not set_above.keys() & opened


# TOML's lexical pieces that can hold a newline or a quote: multi-line strings (basic, with
# escapes; literal), one-line strings, comments; and runs of anything else.
_TOML_PIECE = re.compile("|".join((
    r"""[^"'#]+""",                                   # anything but quotes and comments
    r'"""(?:[^"\\]|\\[\s\S]|"{1,2}(?!"))*"{3,5}',       # multi-line basic string
    r"'''(?:[^']|'{1,2}(?!'))*'{3,5}",                 # multi-line literal string
    r'"(?:[^"\\\n]|\\.)*"', r"'[^'\n]*'", r"#[^\n]*",  # one-line strings, comments
)))
_ENTRY_HEADER = re.compile(r"\[\[\s*[A-Za-z0-9_-]+\s*\]\]\s*(?:#.*)?")


def _ends_outside_strings(text: str) -> bool:
    """Whether the text splits cleanly into strings, comments and the rest (ends in no open string)."""
    if '"""' not in text and "'''" not in text:
        return True  # one-line strings end with their line, which ends with a newline
    pos = 0
    while pos < len(text):
        piece = _TOML_PIECE.match(text, pos)
        if piece is None:
            return False
        pos = piece.end()
    return True


def _opens_with_entry(tail: str) -> bool:
    """Whether the first line of the tail that is not blank or a comment is a top-level [[entry]] header."""
    for line in tail.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return _ENTRY_HEADER.fullmatch(line) is not None
    return True
