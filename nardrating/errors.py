"""Problems found while loading a club, as data.

Every stage (config, journal reading, validation, replay) returns the
problems it finds instead of raising at the first one; the CLI prints them
all as ``FILE:LINE: message`` and exits 1.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from .datarecords import datarecord

if TYPE_CHECKING:
    from .journal.model import Player


@datarecord(frozen=True, slots=True)
class Problem:
    """One problem found: file, line (None: the file as a whole), what is wrong, and the entry's id if any."""

    file: str
    line: int | None
    message: str
    entry: str | None = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        entry = f"{self.entry.strip()}: " if self.entry and self.entry.strip() else ""
        return f"{where}: {entry}{self.message}"


class LedgerError(Exception):
    """Raised by library entry points when a club cannot be used as it is."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class ActionRefused(Exception):
    """A command was asked to do something it must not (overwrite, unknown id…)."""


def did_you_mean(word: str, choices: Iterable[str], limit: int = 3) -> str:
    """' (did you mean "x"?)' or '' — a hint for an unknown name."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=limit, cutoff=0.6)
    if not close:
        return ""
    from .i18n import _

    return " " + _("(did you mean {names}?)").format(names=(" " + _("or") + " ").join(f'"{c}"' for c in close))


def player_hint(word: str, players: Mapping[str, Player], limit: int = 3) -> str:
    """did_you_mean for an unknown player id: the nearest ids; where none is near, the players whose
    name or alias is the word, has it as a word, or has one near it, each id with the name (a
    player's surname typed for their id: `history Авакян` → ' (did you mean "avakyan" (Ашот Авакян)?)')."""
    hint = did_you_mean(word, players, limit)
    wanted = word.strip().casefold()
    if hint or not wanted:
        return hint
    import difflib

    named: dict[str, list[str]] = {}   # a name, and each word of it, casefolded → the ids so named
    for pid, player in players.items():
        for name in (player.name, player.alias):
            if name and name.strip():
                for part in dict.fromkeys([name.casefold().strip(), *name.casefold().split()]):
                    named.setdefault(part, []).append(pid)
    close = [wanted] if wanted in named else difflib.get_close_matches(wanted, list(named), n=limit, cutoff=0.8)
    found = list(dict.fromkeys(pid for part in close for pid in named[part]))[:limit]
    if not found:
        return ""
    from .i18n import _

    shown = (f'"{pid}" ({players[pid].public_name()})' for pid in found)   # (found by a name: it has one)
    return " " + _("(did you mean {names}?)").format(names=(" " + _("or") + " ").join(shown))


def unreadable(label: str, path: str | os.PathLike[str], exc: OSError, what: str) -> Problem:
    """A file that could not be read, in plain words; `what` is e.g. "a journal" (marked N_ by the caller:
    translated here, where it is said)."""
    import os

    from .i18n import _
    from .safefile import NotRegularFile, _kind

    if isinstance(exc, NotRegularFile):
        try:
            kind = _kind(os.stat(path).st_mode)
        except OSError:
            kind = "not a regular file"
        # (_kind's words are English data, marked N_ there: translated here, where they are shown)
        kind = _(kind) if kind == "not a regular file" else _("{kind}, not a regular file").format(kind=_(kind))
        return Problem(label, None, _("is {kind}; {what} must be a regular file").format(kind=kind, what=_(what)))
    return Problem(label, None, _("cannot read the file: {error}").format(error=exc.strerror or exc))
