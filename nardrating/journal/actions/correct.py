"""Corrections: void, amend (a void and the corrected match in one write) and undo."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...datarecords import datarecord
from ...config import display_path
from ...errors import ActionRefused, Problem, did_you_mean
from ...i18n import N_, _
from ..limits import parse_result
from ..model import Journal, MatchView
from .matches import MatchArgs, check_outcome, match_changes, match_check, new_match_id, parse_score
from .write import Check, Fields, MakeFields, Written, refuse, target_journal, write_entries, write_entry

if TYPE_CHECKING:
    from ...replay.ledger import Ledger

# (club under the lock, the match being corrected, the new match's id) → the new match's fields
MakeMatch = Callable[["Ledger", MatchView, str], Fields]


def void_match(ledger: Ledger, ids: list[str], reason: str, day: date | None = None, dry_run: bool = False) -> Written:
    """Append a [[void]] of each match, several in one write (a round's results entered wrong): the
    entries, and every rating of the current lists that changes."""
    twice = next((m for k, m in enumerate(ids) if m in ids[:k]), None)
    if twice is not None:
        refuse(ledger, _("match {match!r} is given twice; name each match once").format(match=twice))
    def maker(match: str) -> MakeFields:
        fields: Fields = {"match": match, "date": day or date.today(), "reason": reason}
        return lambda club, path: fields

    return write_entries(ledger, [("void", maker(m)) for m in ids], dry_run=dry_run, compare=True)


def _original(club: Ledger, match_id: str) -> MatchView:
    """The match to correct: known and not voided, else refused."""
    found = club.journal.match_by_id(match_id)
    if found is None:
        refuse(club, _("unknown match {match!r}{hint}").format(match=match_id,
                                                             hint=did_you_mean(match_id, club.journal.match_index)))
    void = club.journal.voided.get(found.index)
    if void is not None:
        refuse(club, _("match {match!r} is already voided at {file}:{line} ({reason}); correct the match that "
                       "replaced it, or enter it again with add-match").format(
            match=match_id, file=void.file, line=void.line, reason=void.reason), match_id)
    return found


def _corrected_fields(original: MatchView, given: MatchArgs, match_id: str, amends: str) -> Fields:
    """The original match's fields, with those `given` replaced, as a new match that amends one."""
    players = [given.a or original.a, given.b or original.b]
    winner, result = given.winner, given.result
    score = parse_score(given.score)
    keeps_round = given.tournament in (None, original.tournament)
    if original.round is not None and keeps_round and players == [original.b, original.a]:
        # a board's colours are its pairing's: the players named the other way round swap back, and
        # so do a result and a score given from the first-named player's side (as add-match does)
        players = [original.a, original.b]
        score_a = parse_result(result) if result is not None else None
        result = {1.0: "0-1", 0.0: "1-0"}.get(score_a, result) if score_a is not None else result
        score = score[::-1] if score else score
    if winner is None and result is None:  # the original's outcome, said again
        winner = original.winner()
        result = None if winner is not None else "1/2-1/2"

    def pick(new: Any, old: Any) -> Any:
        return old if new is None else new

    return {"id": match_id, "date": given.day or original.date, "players": players,
            "result": result, "winner": winner, "length": pick(given.length, original.length),
            "score": pick(score, list(original.score) if original.score else None),
            "chips": pick(given.chips, original.chips), "discipline": pick(given.discipline, original.discipline),
            "tournament": pick(given.tournament, original.tournament), "rated": pick(given.rated, original.rated),
            "forfeit": pick(given.forfeit, original.forfeit), "note": pick(given.note, original.note),
            "round": original.round if keeps_round else None, "amends": amends}


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


@datarecord
class LastEntry:
    """The last entry of the file the club writes to (what undo removes): its kind, text and where it is."""
    kind: str
    text: str                  # as written in the journal
    match: MatchView | None    # the match of a [[match]], else None
    file: str = ""             # the file, as shown, and the line of the entry's header
    line: int = 0
    written_id: bool = True    # False: a hand-written [[match]] without an id


def last_entry(ledger: Ledger) -> LastEntry:
    """The last entry of the file this club writes to, as the journal read it (by the line of its
    header) and as it is written there."""
    path = target_journal(ledger)
    journal = ledger.journal
    source = ledger.config.journal_paths().index(path)
    label = journal.files[source] if source < len(journal.files) else display_path(path)
    line, kind, index = max(_entries_of(journal, source, label), default=(0, "", -1))
    if not line:
        raise ActionRefused(_("{file}: no entry to undo; the file holds none").format(file=label))
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = "\n".join(text.split("\n")[line - 1:]).strip() + "\n"
    if kind != "match":
        return LastEntry(kind, block, None, label, line)
    written = _written_table(block, label, line)
    return LastEntry(kind, block, journal.match(index), label, line, isinstance(written.get("id"), str))


def _entries_of(journal: Journal, source: int, label: str) -> Iterator[tuple[int, str, int]]:
    """(header line, kind, match index or -1) of every entry the journal read from one file."""
    m = journal.matches
    yield from ((line, "match", i) for i, (s, line) in enumerate(zip(m.source, m.line)) if s == source and line > 0)
    found: list[tuple[str, Iterable[Any]]] = [
        ("player", journal.players.values()), ("tournament", journal.tournaments.values()),
        ("void", journal.voids), ("adjust", journal.adjusts),
        *((kind, [e for e in journal.identities if e.kind == kind]) for kind in ("rename", "merge")),
        ("list", journal.lists), ("edit-player", journal.player_edits), ("round", journal.rounds),
        *((kind, [c for c in journal.changes if c.kind == kind]) for kind in ("join", "withdraw"))]
    for kind, entries in found:
        yield from ((e.line, kind, -1) for e in entries if e.file == label and e.line)


def _written_table(block: str, label: str, line: int) -> dict[str, Any]:
    """The last [[match]] as written: its block (from its header on) read as TOML."""
    from ..tomlsource import parse_toml

    problems: list[Problem] = []
    data = parse_toml(block, label, problems)
    tables = data.get("match") if data is not None else None
    if not isinstance(tables, list) or not tables or not isinstance(tables[0], dict):
        raise ActionRefused(_("{file}:{line}: the last entry does not read as one [[match]]; nothing was written. "
                              "Check the journal (nardrating check).").format(file=label, line=line))
    return tables[0]


UNDO_INSTEAD = {
    "player": N_("a player cannot be removed from an append-only journal; if the id is a typo, "
                 "rename it (nardrating rename-player OLD NEW) or merge it into the right one (merge-players DUP INTO)"),
    "tournament": N_("a tournament cannot be removed; correct its matches with amend or void, and add the right "
                     "tournament under a new id"),
    "void": N_("a void cannot be voided; enter the match again with add-match (or amend the match that replaced it)"),
    "adjust": N_("an adjustment is undone by another: add an [[adjust]] with the opposite delta"),
    "rename": N_("a rename is undone by another: nardrating rename-player NEW OLD"),
    "merge": N_("a merge cannot be undone by the journal; edit the file by hand if it was never published"),
    "edit-player": N_("an edit is undone by another: nardrating edit-player with the old values"),
    "list": N_("a published list stays recorded: freeze the list again if it was wrong (nardrating verify "
               "says what moved)"),
    "round": N_("a paired round cannot be taken back; enter its results, or mark players absent in the next round"),
    "join": N_("a late entry is undone by a withdrawal: nardrating withdraw TOURNAMENT PLAYER"),
    "withdraw": N_("a withdrawal cannot be undone here; enter the player again with nardrating join"),
}


def undo(ledger: Ledger, dry_run: bool = False, shown: LastEntry | None = None) -> Written:
    """Void the last match this club wrote; an amend's match: void it and enter the original again.

    `shown`: the last entry as the command showed it; under the club lock, the file's last entry
    must still be that one (another writer may have appended meanwhile), else nothing is written."""
    last = shown if shown is not None else last_entry(ledger)
    if last.kind != "match" or last.match is None:
        raise ActionRefused(_("{file}:{line}: the last entry is a [[{kind}]], which undo does not void: {instead}").format(
            file=last.file, line=last.line, kind=last.kind,
            instead=_(UNDO_INSTEAD[last.kind]) if last.kind in UNDO_INSTEAD else _("edit the journal by hand")))
    if not last.written_id:
        raise ActionRefused(_(
            "{file}:{line}: the last entry is a [[match]] written without an id (the journal calls it {name!r} by "
            "its place in the file), and undo voids only a match by the id written in it; nothing was written. "
            "Add an id to it (id = \"...\") and run undo again, or void it yourself: "
            "nardrating void {name} --reason ...").format(file=last.file, line=last.line, name=last.match.id))

    def unchanged(club: Ledger) -> None:
        now = last_entry(club)
        if (now.file, now.line, now.text) != (last.file, last.line, last.text):
            raise ActionRefused(_(
                "{file} changed since undo read its last entry ({kind} at line {line}): another writer appended "
                "to it meanwhile (now [[{now}]] at line {now_line}); nothing was written. Run undo again to see "
                "the last entry now.").format(file=last.file, kind=f"[[{last.kind}]]", line=last.line,
                                              now=now.kind, now_line=now.line))

    amended = last.match
    original_id = amended.amends
    if original_id is None:
        fields = {"match": amended.id, "date": date.today(), "reason": "undone"}

        def void_fields(club: Ledger, path: Path) -> Fields:
            unchanged(club)
            return fields

        voided = write_entry(ledger, "void", void_fields, compare=True, dry_run=dry_run)
        return voided._replace(changes=[])

    def again(club: Ledger, _m: MatchView, new_id: str) -> Fields:  # the original match's data, under a new id
        unchanged(club)
        return _corrected_fields(_original_any(club, original_id), MatchArgs(), new_id, original_id)

    return _correct(ledger, amended.id, again, f"undone: {original_id} restored", None, dry_run)


def round_mates(journal: Journal, match_id: str) -> tuple[str, int, list[str]] | None:
    """Of a tournament's board result, (the tournament, the round, the ids of that round's other results
    not voided), in journal order; None for a match of no round: what undo names after voiding one of
    them (a round entered from the wrong file is voided in one write: void takes them all)."""
    from itertools import compress

    found = journal.match_by_id(match_id)
    if found is None or found.tournament is None or found.round is None:
        return None
    m = journal.matches
    code = journal.tournament_codes.index.get(found.tournament, -2)
    rows = compress(range(len(m.ids)), map(code.__eq__, m.tournament))   # (a C-level filter of a million rows)
    mates = [journal.match(i) for i in rows if i != found.index and i not in journal.voided]
    return found.tournament, found.round, [mate.id for mate in mates if mate.round == found.round]


def _original_any(club: Ledger, match_id: str) -> MatchView:
    """A match by id, voided or not (undo restores a voided original)."""
    found = club.journal.match_by_id(match_id)
    if found is None:
        refuse(club, _("unknown match {match!r}").format(match=match_id))
    return found
