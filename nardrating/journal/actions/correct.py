"""Corrections: void, amend (a void and the corrected match in one write) and undo."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...config import display_path
from ...errors import ActionRefused, did_you_mean
from ...i18n import N_, _
from ..model import MatchView
from ..tomlsource import header_lines
from .matches import MatchArgs, check_outcome, match_changes, match_check, new_match_id, parse_score
from .write import Check, Fields, Written, refuse, target_journal, write_entries, write_entry

if TYPE_CHECKING:
    from ...replay.ledger import Ledger

# (club under the lock, the match being corrected, the new match's id) → the new match's fields
MakeMatch = Callable[["Ledger", MatchView, str], Fields]


def void_match(ledger: Ledger, match_id: str, reason: str, day: date | None = None, dry_run: bool = False) -> Written:
    """Append a [[void]]: the entry, and every rating of the current lists that changes."""
    fields = {"match": match_id, "date": day or date.today(), "reason": reason}
    return write_entry(ledger, "void", lambda club, path: fields, dry_run=dry_run, compare=True)


def _original(club: Ledger, match_id: str) -> MatchView:
    """The match to correct: known and not voided, else refused."""
    found = club.journal.match_by_id(match_id)
    if found is None:
        refuse(club, f"unknown match {match_id!r}{did_you_mean(match_id, club.journal.match_index)}")
    void = club.journal.voided.get(found.index)
    if void is not None:
        refuse(club, f"match {match_id!r} is already voided at {void.file}:{void.line} ({void.reason}); "
                     "correct the match that replaced it, or enter it again with add-match", match_id)
    return found


def _corrected_fields(original: MatchView, given: MatchArgs, match_id: str, amends: str) -> Fields:
    """The original match's fields, with those `given` replaced, as a new match that amends one."""
    players = [given.a or original.a, given.b or original.b]
    winner, result = given.winner, given.result
    if winner is None and result is None:  # the original's outcome, said again
        winner = original.winner()
        result = None if winner is not None else "1/2-1/2"

    def pick(new: Any, old: Any) -> Any:
        return old if new is None else new

    return {"id": match_id, "date": given.day or original.date, "players": players,
            "result": result, "winner": winner, "length": pick(given.length, original.length),
            "score": pick(parse_score(given.score), list(original.score) if original.score else None),
            "chips": pick(given.chips, original.chips), "discipline": pick(given.discipline, original.discipline),
            "tournament": pick(given.tournament, original.tournament), "rated": pick(given.rated, original.rated),
            "forfeit": pick(given.forfeit, original.forfeit), "note": pick(given.note, original.note),
            "round": original.round if given.tournament in (None, original.tournament) else None, "amends": amends}


def _correct(ledger: Ledger, match_id: str, make_match: MakeMatch, reason: str | None, check: Check | None,
             dry_run: bool) -> Written:
    """Void `match_id` and append the match `make_match` gives, in one write."""
    new_id = ""

    def void_fields(club: Ledger, path: Path) -> Fields:
        nonlocal new_id
        _original(club, match_id)
        new_id = new_match_id(club, path)
        return {"match": match_id, "date": date.today(), "reason": reason or f"amended by {new_id}"}

    def match_fields(club: Ledger, path: Path) -> Fields:
        return make_match(club, _original(club, match_id), new_id)

    return write_entries(ledger, [("void", void_fields), ("match", match_fields)],
                         check=check, preview=match_changes, dry_run=dry_run, compare=True)


def amend_match(ledger: Ledger, match_id: str, given: MatchArgs, reason: str | None = None,
                dry_run: bool = False) -> Written:
    """[[void]] of the match and its corrected [[match]] (amends = the match), in one write.

    Options not given are the original's; the date is the original's unless given (the void is
    dated today: the day of the correction)."""
    check_outcome(ledger, given.winner, given.result)
    return _correct(ledger, match_id, lambda club, original, new: _corrected_fields(original, given, new, match_id),
                    reason, match_check(given.new_discipline), dry_run)


@dataclass
class LastEntry:
    kind: str
    text: str                  # as written in the journal
    match: MatchView | None    # the match of a [[match]], else None


def last_entry(ledger: Ledger) -> LastEntry:
    """The last entry of the file this club writes to, as written there."""
    import tomllib

    path = target_journal(ledger)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    headers = sorted((line, kind) for kind, lines in header_lines(text).items() for line in lines)
    if not headers:
        raise ActionRefused(f"{display_path(path)}: no entry to undo; the file holds none")
    line, kind = headers[-1]
    block = "\n".join(text.splitlines()[line - 1:]).strip() + "\n"
    match = None
    if kind == "match":
        entry_id = tomllib.loads(block)["match"][0].get("id")
        match = ledger.journal.match_by_id(entry_id) if entry_id else None
    return LastEntry(kind, block, match)


UNDO_INSTEAD = {
    "player": "a player cannot be removed from an append-only journal; if the id is a typo, "
              "rename it (nardrating rename-player OLD NEW) or merge it into the right one (merge-players DUP INTO)",
    "tournament": "a tournament cannot be removed; correct its matches with amend or void, and add the right "
                  "tournament under a new id",
    "void": "a void cannot be voided; enter the match again with add-match (or amend the match that replaced it)",
    "adjust": "an adjustment is undone by another: add an [[adjust]] with the opposite delta",
    "rename": "a rename is undone by another: nardrating rename-player NEW OLD",
    "merge": "a merge cannot be undone by the journal; edit the file by hand if it was never published",
    "edit-player": N_("an edit is undone by another: nardrating edit-player with the old values"),
}


def undo(ledger: Ledger, dry_run: bool = False) -> Written:
    """Void the last match this club wrote; an amend's match: void it and enter the original again."""
    last = last_entry(ledger)
    if last.kind != "match" or last.match is None:
        raise ActionRefused(f"the last entry is a [[{last.kind}]], which undo does not void: "
                            f"{_(UNDO_INSTEAD.get(last.kind, 'edit the journal by hand'))}")
    amended = last.match
    original_id = amended.amends
    if original_id is None:
        fields = {"match": amended.id, "date": date.today(), "reason": "undone"}
        voided = write_entry(ledger, "void", lambda club, path: fields, compare=True, dry_run=dry_run)
        return voided._replace(changes=[])

    def again(club: Ledger, _: MatchView, new_id: str) -> Fields:  # the original match's data, under a new id
        return _corrected_fields(_original_any(club, original_id), MatchArgs(), new_id, original_id)

    return _correct(ledger, amended.id, again, f"undone: {original_id} restored", None, dry_run)


def _original_any(club: Ledger, match_id: str) -> MatchView:
    """A match by id, voided or not (undo restores a voided original)."""
    found = club.journal.match_by_id(match_id)
    if found is None:
        refuse(club, f"unknown match {match_id!r}")
    return found
