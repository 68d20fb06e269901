"""The journal entries behind a change of a list: each named by its id (where it has one), file and line.

An entry can move the list of one rating list and discipline on a day when it is of that
discipline (a match, a void of one, a tournament; an adjustment of that list) and dated on or
before the day (a void: its match is), or when it renames or merges a player (which holds for the
whole journal). Entries "added since" a list are those past the bytes each journal file had when
the list was frozen (its provenance's `journal_files`), which holds when the journal was only
appended to since: its first bytes still hash to the list's journal_sha256.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from ..i18n import _, pgettext

if TYPE_CHECKING:
    from ..journal.model import Journal
    from ..replay.ledger import Ledger

_RESULTS = {1.0: "1-0", 0.0: "0-1", 0.5: "½-½"}


@datarecord(frozen=True)
class Ref:
    """One journal entry, as a secretary looks it up: what it is, where it is, whom it concerns."""
    kind: str                  # match, void, adjust, tournament, rename, merge
    id: str | None
    file: str
    line: int | None
    date: date
    players: frozenset[str]
    text: str                  # the entry in a few words

    @property
    def where(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"

    @property
    def label(self) -> str:
        """Its id, or FILE:LINE for an entry without one."""
        return self.id or self.where

    def json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "file": self.file, "line": self.line, "date": self.date.isoformat()}

    def words(self) -> str:
        return f"{self.id} ({self.where})" if self.id else f"[[{self.kind}]] ({self.where})"


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Entries:
    """The entries of a loaded journal that can move one list (rating list, discipline)."""

    def __init__(self, ledger: Ledger, rating: str, discipline: str) -> None:
        self.journal: Journal = ledger.journal
        self.rating, self.discipline = rating, discipline
        self.code = self.journal.discipline_codes.index.get(discipline, -1)
        # why a match is rated by no list, in words: translated once, not per match
        self.excluded = {"voided": pgettext("match", "voided"), "forfeit": pgettext("match", "forfeit"),
                         "unrated": pgettext("match", "unrated")}

    def match(self, i: int) -> Ref:
        j = self.journal
        m = j.match(i)
        text = f"{m.date} {m.a}–{m.b} {_RESULTS.get(m.score_a, m.score_a)}"
        if m.amends:
            text += ", " + _("amends {match}").format(match=m.amends)
        why = j.exclusion(i)
        if why:
            text += f" ({self.excluded.get(why, why)})"
        return Ref("match", m.id, m.file, m.line, m.date, frozenset(m.players), text)

    def refs(self, keep: Callable[[str, int | None], bool], last_day: date | None,
             span: tuple[date, date] | None = None) -> list[Ref]:
        """The entries for which `keep(file, line)` holds that can move the list: on or before
        `last_day`, or (`span`) dated after its start and on or before its end. In file order."""
        j, m, code = self.journal, self.journal.matches, self.code
        files = j.files
        found: list[Ref] = []

        def dated(day: date, *also: date) -> bool:
            if span is not None:
                return any(span[0] < d <= span[1] for d in (day, *also))
            return last_day is None or day <= last_day

        # A match's date as an ordinal, compared as dated() compares it: after `low`, on or before `high`.
        low = span[0].toordinal() if span is not None else None
        high = span[1].toordinal() if span is not None else None if last_day is None else last_day.toordinal()
        dates, rows = m.dates, range(len(m.dates))
        if high is not None and j.dates_sorted():   # (the dates' rows by bisection, not a pass over a million)
            rows = range(0 if low is None else bisect_right(dates, low), bisect_right(dates, high))
        for i in rows:
            day, line = dates[i], m.line[i]
            if ((low is None or low < day) and (high is None or day <= high) and m.discipline[i] == code
                    and keep(files[m.source[i]], None if line < 0 else line)):
                found.append(self.match(i))
        for v in j.voids:
            k = j.match_row(v.match)
            if k is None or m.discipline[k] != code or not keep(v.file, v.line):
                continue
            played = date.fromordinal(m.dates[k])
            if dated(played, v.date):   # (on a last day, only the match's date counts: the void's is when it was noticed)
                gone = j.match(k)
                text = _("void of {match} ({day} {a}–{b}): {reason}").format(
                    match=v.match, day=played, a=gone.a, b=gone.b, reason=_short(v.reason))
                found.append(Ref("void", None, v.file, v.line, v.date, frozenset(gone.players), text))
        for a in j.adjusts:
            if (a.rating in (None, self.rating) and a.discipline in (None, self.discipline) and keep(a.file, a.line)
                    and dated(a.date)):
                how = (_("set to {rating}").format(rating=f"{a.set:g}") if a.set is not None
                       else _("moved by {delta}").format(delta=f"{a.delta:+g}"))
                text = f"{a.date} {a.player} {how}" + (f": {_short(a.reason)}" if a.reason else "")
                found.append(Ref("adjust", None, a.file, a.line, a.date, frozenset([a.player]), text))
        for t in j.tournaments.values():
            if t.discipline == self.discipline and keep(t.file, t.line) and dated(t.end):
                who = frozenset(s.player for s in t.standings or ())
                found.append(Ref("tournament", t.id, t.file, t.line, t.end, who, f"{t.name} ({t.start}..{t.end})"))
        for x in j.identities:
            if keep(x.file, x.line) and (span is None or dated(x.date)):
                text = (_("{old} renamed {new}") if x.kind == "rename" else _("{old} merged into {new}")).format(
                    old=x.player, new=x.into)
                found.append(Ref(x.kind, None, x.file, x.line, x.date, frozenset([x.player, x.into]), text))
        order = {name: k for k, name in enumerate(files)}
        return sorted(found, key=lambda r: (order.get(r.file, len(order)), r.line or 0))


def added_since(ledger: Ledger, files: list[tuple[str, int]]) -> Callable[[str, int | None], bool]:
    """keep(file, line): is the entry past the bytes its file had when the list was frozen? (A file
    the list did not know is all new.) Only sound when the journal was only appended to since."""
    from ..safefile import read_regular

    config, journal = ledger.config, ledger.journal
    sizes = dict(files)
    first_new: dict[str, int] = {}
    for name, path, label in zip(config.club.journal, config.journal_paths(), journal.files):
        if name not in sizes:
            first_new[label] = 1
            continue
        try:
            old = read_regular(path)[0][:sizes[name]]
        except OSError:
            old = b""
        lines = old.count(b"\n") + (1 if old and not old.endswith(b"\n") else 0)
        first_new[label] = lines + 1

    def keep(file: str, line: int | None) -> bool:
        return line is not None and line >= first_new.get(file, 1 << 62)

    return keep


def everything(file: str, line: int | None) -> bool:
    return True


def concerning(refs: list[Ref], players: set[str]) -> list[Ref]:
    """The entries that name one of these players (a void: its match's players)."""
    return [r for r in refs if r.players & players]
