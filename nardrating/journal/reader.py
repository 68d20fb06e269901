"""Read journal files (TOML by hand, CSV in bulk) into one `Journal`.

Problems are collected, never raised: each carries the file and the line of
the entry's ``[[match]]`` header or the CSV row.
"""
from __future__ import annotations

from pathlib import Path
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..errors import Problem, did_you_mean
from ..i18n import _
from .limits import ENTRY_KINDS
from .tomlfast import read_plain
from .tomlsource import decode, header_lines, key_line, parse_toml, shown
from .textrules import valid_id
from .model import Adjust, Identity, Journal, Placing, Player, PlayerEdit, PublishedList, Tournament, Void
from .play import Change, RoundRecord, TournamentPlay
from .plainadjust import PlainAdjust
from .plainmatch import PlainMatch, entry_of

if TYPE_CHECKING:   # (the entry models load pydantic: only for an entry the plain paths do not take)
    from pydantic import ValidationError

    from .entries import AdjustEntry, Entry


def _pydantic_problems(exc: ValidationError, label: str, line: int | None, kind: str,
                       entry_id: str | None) -> list[Problem]:
    # At the line of the entry's [[kind]] header, as users look for it.
    from .entries import entry_errors, loc_text

    return [Problem(label, line, f"{loc_text(loc)}: {message}" if loc else message, entry_id)
            for loc, message in entry_errors(exc, kind)]


def read_toml_journal(raw: bytes, path: Path, label: str, journal: Journal, default_discipline: str,
                      problems: list[Problem], source: int | None = None, line_offset: int = 0,
                      match_offset: int = 0) -> None:
    """Entries of one TOML file, or of the bytes appended to it (line_offset: lines before them)."""
    from ..collector import collector_paused

    with collector_paused():  # tomllib's tables and the entries: many objects, none in a cycle (collector.py)
        _read_toml(raw, path, label, journal, default_discipline, problems, source, line_offset, match_offset)


def _read_toml(raw: bytes, path: Path, label: str, journal: Journal, default_discipline: str,
               problems: list[Problem], source: int | None, line_offset: int, match_offset: int) -> None:
    text = decode(raw, label, problems, line_offset)
    if text is None:
        return
    before = len(problems)
    plain = read_plain(text)   # a journal as nardrating writes it, in one pass; else tomllib (tomlfast.py)
    data = plain[0] if plain is not None else parse_toml(text, label, problems)
    if data is None:
        for k in range(before, len(problems)):
            p = problems[k]
            problems[k] = Problem(p.file, p.line + line_offset if p.line else p.line, p.message, p.entry)
        return
    if source is None:
        source = len(journal.files)
        journal.files.append(label)
    journal.matches_for(0).growable()
    headers = {kind: [line + line_offset for line in lines]
               for kind, lines in (plain[1] if plain is not None else header_lines(text)).items()}
    for key in data:
        if key not in ENTRY_KINDS:
            at = (headers.get(key) or [(key_line(text, 1, key) or 1) + line_offset])[0]
            problems.append(Problem(label, at, _("unknown entry kind {kind!r}{hint}; a journal holds [[player]], [[match]], "
                                                 "[[tournament]], [[void]], [[adjust]], [[rename]], [[merge]], [[list]], "
                                                 "[[edit-player]], [[round]], [[join]] and [[withdraw]]").format(
                kind=key, hint=did_you_mean(key, ENTRY_KINDS))))
    # Entries are taken in file order (by header line) so that seq follows the file.
    pending: list[tuple[int, int, str, Any, int | None]] = []  # (sort line, n, kind, raw table, header line)
    for kind in ENTRY_KINDS:
        tables = data.get(kind, [])
        lines = headers.get(kind, [])
        if not isinstance(tables, list):
            problems.append(Problem(label, lines[0] if lines else None,
                                    _("{kind} must be written as [[{kind}]] tables").format(kind=kind)))
            continue
        for n, raw in enumerate(tables):
            line = lines[n] if n < len(lines) else None
            pending.append((line if line is not None else 1 << 60, n, kind, raw, line))
    pending.sort(key=lambda item: (item[0], item[1]))
    for _sort_line, n, kind, raw, line in pending:
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        # An id that breaks the id rule is quoted, escapes and all: never printed raw.
        entry_id = None if raw_id is None else raw_id if valid_id(raw_id) else shown(raw_id)
        if not isinstance(raw, dict):
            problems.append(Problem(label, line, _("[[{kind}]] must be a table").format(kind=kind)))
            continue
        try:
            entry = entry_of(kind, raw)   # (the common [[match]] without pydantic: plainmatch.py)
        except ValueError as exc:   # (pydantic's ValidationError is a ValueError; pydantic is loaded if it is one)
            from pydantic import ValidationError

            if not isinstance(exc, ValidationError):
                raise
            problems += _pydantic_problems(exc, label, line, kind, entry_id)
            continue
        _add_entry(kind, entry, n + (match_offset if kind == "match" else 0), path, label, line, source,
                   journal, default_discipline, problems)


def _add_entry(kind: str, entry: Entry | PlainMatch | PlainAdjust, n: int, path: Path, label: str, line: int | None,
               source: int, journal: Journal, default_discipline: str, problems: list[Problem]) -> None:
    seq = journal.take_seq() if kind != "player" else 0
    if isinstance(entry, PlainMatch):
        _add_match_entry(entry, n, path, label, line, source, journal, default_discipline, problems, seq)
        return
    if isinstance(entry, PlainAdjust):   # (as an AdjustEntry below: the same fields)
        _add_adjust(entry, label, line, seq, journal)
        return
    from .entries import (EDITED_FIELDS, AdjustEntry, EditPlayerEntry, ListEntry, MatchEntry, MergeEntry, PlayerEntry,
                          RenameEntry, TournamentEntry, VoidEntry, parse_place)
    from .playentries import JoinEntry, RoundEntry, WithdrawEntry

    if isinstance(entry, PlayerEntry):
        first = journal.players.get(entry.id)
        if first is not None and first.declared:
            problems.append(Problem(label, line, _("player id {id!r} is already used at {file}:{line}").format(
                id=entry.id, file=first.file, line=first.line), entry.id))
            return
        if first is not None:  # named by a CSV row, declared here: as a full read, which creates those last
            del journal.players[entry.id]
        journal.players[entry.id] = Player(entry.id, entry.name or entry.id, entry.alias, entry.qualification,
                                           entry.title, entry.joined, label, line)
        journal.player_codes.code(entry.id)
    elif isinstance(entry, MatchEntry):
        _add_match_entry(entry, n, path, label, line, source, journal, default_discipline, problems, seq)
    elif isinstance(entry, TournamentEntry):
        if entry.id in journal.tournaments:
            first_t = journal.tournaments[entry.id]
            problems.append(Problem(label, line, _("tournament id {id!r} is already used at {file}:{line}").format(
                id=entry.id, file=first_t.file, line=first_t.line), entry.id))
            return
        standings: tuple[Placing, ...] | None = None
        if entry.standings is not None:
            placings: list[Placing] = []
            for placing in entry.standings:
                try:
                    low, high = parse_place(placing.place)
                except ValueError:
                    problems.append(Problem(label, line, _("standings: place {place!r} of {player!r} is not a place; "
                                                           "write 1 or a shared range like \"2-3\"").format(
                        place=placing.place, player=placing.player), entry.id))
                    continue
                placings.append(Placing(placing.player, low, high))
            standings = tuple(placings)
        discipline = entry.discipline or default_discipline
        journal.discipline_codes.code(discipline)
        journal.tournament_codes.code(entry.id)
        journal.tournaments[entry.id] = Tournament(entry.id, entry.name or entry.id, entry.system, entry.start,
                                                   entry.end, discipline, entry.official, standings,
                                                   label, line, seq, _play(entry))
    elif isinstance(entry, VoidEntry):
        journal.voids.append(Void(entry.match, entry.date, entry.reason, label, line, seq))
    elif isinstance(entry, AdjustEntry):
        _add_adjust(entry, label, line, seq, journal)
    elif isinstance(entry, EditPlayerEntry):
        changes = tuple((key, getattr(entry, key)) for key in EDITED_FIELDS if getattr(entry, key) is not None)
        journal.player_edits.append(PlayerEdit(entry.player, entry.date, changes, label, line, seq))
    elif isinstance(entry, (RenameEntry, MergeEntry)):
        journal.identities.append(Identity(kind, entry.player, entry.to if isinstance(entry, RenameEntry) else entry.into,
                                           entry.date, label, line, seq))
    elif isinstance(entry, ListEntry):
        journal.lists.append(PublishedList(entry.file, entry.sha256, entry.date, label, line, seq))
    elif isinstance(entry, RoundEntry):
        journal.rounds.append(RoundRecord(entry.tournament, entry.round, entry.date,
                                          tuple((b.board, b.white, b.black) for b in entry.boards),
                                          tuple((b.player, b.kind) for b in entry.byes), label, line, seq))
    elif isinstance(entry, (JoinEntry, WithdrawEntry)):
        journal.changes.append(Change(kind, entry.tournament, entry.player, entry.round, entry.date,
                                      entry.reason if isinstance(entry, WithdrawEntry) else "", label, line, seq))


def _add_adjust(entry: AdjustEntry | PlainAdjust, label: str, line: int | None, seq: int, journal: Journal) -> None:
    journal.adjusts.append(Adjust(entry.date, entry.player, entry.rating, entry.discipline, entry.set, entry.delta,
                                  entry.reason, label, line, seq, entry.k, entry.games, entry.rd, entry.volatility))


def _add_match_entry(entry: Any, n: int, path: Path, label: str, line: int | None, source: int, journal: Journal,
                     default_discipline: str, problems: list[Problem], seq: int) -> None:
    """A [[match]] (the model's MatchEntry or a PlainMatch: the same fields) into the journal's columns."""
    match_id = entry.id or f"{path.stem}-{n + 1}"
    extra: dict[str, Any] = {}  # as Matches.extra: score (a pair), chips, note, amends
    if entry.score is not None:
        extra["score"] = tuple(entry.score)
    if entry.chips is not None:
        extra["chips"] = entry.chips
    if entry.note:
        extra["note"] = entry.note
    if entry.amends:
        extra["amends"] = entry.amends
        seq = amended_seq(journal, entry.amends, seq)
    if getattr(entry, "round", None) is not None:   # (RoundMatchEntry's: a board of a round run here)
        extra["round"] = entry.round
    score_a = entry.score_a()
    if score_a is None:
        problems.append(Problem(label, line, _("winner {winner!r} is not one of the match's players {a!r} and "
                                               "{b!r}").format(winner=entry.winner, a=entry.players[0],
                                                               b=entry.players[1]), match_id))
        score_a = 0.5
    add_match(journal, match_id, entry.date.toordinal(), entry.players[0], entry.players[1], score_a,
              entry.length, entry.discipline or default_discipline, entry.tournament, entry.rated,
              entry.forfeit, seq, source, line, extra, problems)


def amended_seq(journal: Journal, amends: str, seq: int) -> int:
    """The replay position of a match that amends another: the amended match's (its seq; a chain of
    amends leads back to the first), so that the corrected match is replayed where the wrong one
    was, as if it had been entered right (seed 003: corrections recompute the later games). A match
    it names that comes later in the journal, or none: its own."""
    i = journal.match_row(amends)
    return seq if i is None else journal.matches_for(1).seq[i]


def _play(entry: Entry) -> TournamentPlay | None:
    """The fields of a tournament run here, if the entry gives any."""
    from .playentries import PlayedTournamentEntry

    if not isinstance(entry, PlayedTournamentEntry):
        return None
    fields = (entry.pairing, entry.rounds, entry.players, entry.tiebreaks, entry.forbidden, entry.bye_points,
              entry.max_losses, entry.length)
    if all(f is None for f in fields):
        return None
    return TournamentPlay(entry.pairing, entry.rounds, None if entry.players is None else tuple(entry.players),
                          None if entry.tiebreaks is None else tuple(entry.tiebreaks),
                          tuple((a, b) for a, b in entry.forbidden or ()), entry.bye_points, entry.max_losses,
                          entry.length)


def add_match(journal: Journal, match_id: str, ordinal: int, a: str, b: str, score_a: float, length: int,
              discipline: str, tournament: str | None, rated: bool, forfeit: bool, seq: int, source: int,
              line: int | None, extra: dict[str, Any], problems: list[Problem]) -> None:
    m = journal.matches_for(0)
    label = journal.files[source]
    if journal.has_match_id(match_id):
        first = journal.match(journal.match_index[match_id])
        problems.append(Problem(label, line, _("match id {id!r} is already used at {file}:{line}").format(
            id=match_id, file=first.file, line=first.line), match_id))
        return
    i = len(m.ids)
    if journal._match_index is not None:
        journal._match_index[match_id] = i
    if journal._id_set is not None:
        journal._id_set.add(match_id)
    m.ids.append(match_id)
    m.dates.append(ordinal)
    if ordinal > journal.max_date:
        journal.max_date = ordinal
    m.a.append(journal.player_codes.code(a))
    m.b.append(journal.player_codes.code(b))
    m.score_a.append(score_a)
    m.length.append(length)
    _growing(m.discipline).append(journal.discipline_codes.code(discipline))
    _growing(m.tournament).append(journal.tournament_codes.code(tournament) if tournament else -1)
    _growing(m.rated).append(rated)
    _growing(m.forfeit).append(forfeit)
    _growing(m.seq).append(seq)
    _growing(m.source).append(source)
    _growing(m.line).append(-1 if line is None else line)
    if extra:
        m.extra[i] = extra


def _growing(column: Sequence[int]) -> MutableSequence[int]:
    """A machine-array column, which Matches.growable() has made appendable (never a mapped view)."""
    return cast("MutableSequence[int]", column)
