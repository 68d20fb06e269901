"""The journal's tournaments in the cache: one column per field, checked column by column, stored
in a file of their own named by their content, and read back as a table that makes a Tournament
entry only when one is asked for.

A club with a million tournaments reads them back in a few passes over lists (not ten checks and
an object per tournament); a command that never looks at them (a leaderboard of a list that does
not read tournament ends) makes none; and a snapshot written again after an add-player keeps the
very file of the one before it (the same tournaments, found by identity: Tournament entries are
immutable) instead of writing and hashing them again. The file is bound to its snapshot by its
SHA-256.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, MutableMapping
from datetime import date
from typing import TYPE_CHECKING, Any

from .cachecheck import MAX_ORDINAL, Bad, need

if TYPE_CHECKING:
    from ..journal.columns import Codes
    from ..journal.model import Journal, Tournament
    from ..journal.play import TournamentPlay
    from .cachedir import CacheFolder

FIELDS = ("ids", "names", "systems", "starts", "ends", "disciplines", "official", "files", "lines", "seqs")
PREFIX = "tournaments-"


def reference(folder: CacheFolder, journal: Journal) -> dict[str, Any]:
    """Where the journal's tournaments are stored ({file, sha256, count}), writing them if needed."""
    table = journal.tournaments
    if isinstance(table, Table) and table.untouched() and table.ref["file"] in folder.names():
        return dict(table.ref)  # the very tournaments read from that file, none made or changed
    current = list(table.values())
    files = {name: k for k, name in enumerate(journal.files)}
    data = json.dumps({
        "ids": [t.id for t in current], "names": [t.name for t in current], "systems": [t.system for t in current],
        "starts": [t.start.toordinal() for t in current], "ends": [t.end.toordinal() for t in current],
        "disciplines": [t.discipline for t in current], "official": [t.official for t in current],
        "files": [files[t.file] for t in current], "lines": [t.line or 0 for t in current],
        "seqs": [t.seq for t in current],
        "standings": [[k, [[p.player, p.low, p.high] for p in t.standings]]
                      for k, t in enumerate(current) if t.standings is not None],
    }, ensure_ascii=False).encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    name = f"{PREFIX}{digest[:16]}.json"
    if name not in folder.names():
        folder.write(name, data)
    return {"file": name, "sha256": digest, "count": len(current)}


def read(folder: CacheFolder, ref: Any, labels: list[str]) -> Table:
    """The tournaments a snapshot refers to, every value checked, as a Table.
    `labels`: the journal files as this command shows them, by the index stored."""
    from ..journal.model import Placing

    need(isinstance(ref, dict) and sorted(ref) == ["count", "file", "sha256"], "bad tournaments reference")
    name, digest, count = ref["file"], ref["sha256"], ref["count"]
    need(isinstance(name, str) and name.startswith(PREFIX) and isinstance(digest, str) and type(count) is int,
         "bad tournaments reference")
    raw, _ = folder.read(name)
    need(hashlib.sha256(raw).hexdigest() == digest, "tournaments of another snapshot")
    data = json.loads(raw)
    need(isinstance(data, dict) and sorted(data) == sorted((*FIELDS, "standings")), "bad tournaments")
    columns = [data[field] for field in FIELDS]
    need(all(isinstance(c, list) and len(c) == count for c in columns), "tournament columns of other lengths")
    ids, names, systems, starts, ends, disciplines, official, files, lines, seqs = columns
    for texts in (ids, names, systems, disciplines):
        need(set(map(type, texts)) <= {str}, "bad tournament text")
    need(len(set(ids)) == count, "tournament ids twice")
    for numbers, low, high in ((starts, 1, MAX_ORDINAL), (ends, 1, MAX_ORDINAL), (files, 0, len(labels) - 1),
                               (lines, 0, None), (seqs, 0, None)):
        need(set(map(type, numbers)) <= {int} and (not numbers or min(numbers) >= low and
                                                    (high is None or max(numbers) <= high)), "bad tournament number")
    need(set(map(type, official)) <= {bool}, "bad tournament flag")
    standings: list[tuple[Placing, ...] | None] = [None] * count
    rows = data["standings"]
    need(isinstance(rows, list), "bad standings")
    for row in rows:
        need(isinstance(row, list) and len(row) == 2 and type(row[0]) is int and 0 <= row[0] < count
             and isinstance(row[1], list), "bad standings")
        placings = []
        for placing in row[1]:
            need(isinstance(placing, list) and len(placing) == 3 and isinstance(placing[0], str)
                 and type(placing[1]) is int and type(placing[2]) is int and 1 <= placing[1] <= placing[2],
                 "bad standings")
            placings.append(Placing(*placing))
        standings[row[0]] = tuple(placings)
    return Table(dict(ref), columns, standings, labels)


class Table(MutableMapping[str, "Tournament"]):
    """id → Tournament over the checked columns; an entry is made the first time it is asked for.
    Anything added or removed turns it into a plain dict of every entry (the cached case is a read)."""

    def __init__(self, ref: dict[str, Any], columns: list[list[Any]], standings: list[Any], labels: list[str]) -> None:
        self.ref, self.columns, self.standings, self.labels = ref, columns, standings, labels
        self.index = dict(zip(columns[0], range(len(columns[0]))))
        self.made: dict[str, Tournament] = {}
        self.plain: dict[str, Tournament] | None = None   # once changed: every entry, in order
        self.plays: dict[str, TournamentPlay] = {}        # the tournaments run here: kept in the snapshot's meta

    def untouched(self) -> bool:
        """Whether the table holds exactly what was read (the entries made from it are immutable)."""
        return self.plain is None

    def end_ordinals(self) -> list[int]:
        """Every tournament's end date (an ordinal), without making an entry."""
        return [t.end.toordinal() for t in self.plain.values()] if self.plain is not None else self.columns[4]

    def codes(self) -> Codes:
        """Codes of the tournaments' ids in their order (a copy: coding more extends it, not the table)."""
        from ..journal.columns import Codes

        codes = Codes()
        codes.names, codes.index = list(self.columns[0]), dict(self.index)
        return codes

    def with_standings(self) -> list[Tournament]:
        """The entries that record standings, made (the others are not)."""
        if self.plain is not None:
            return [t for t in self.plain.values() if t.standings is not None]
        ids = self.columns[0]
        return [self[ids[k]] for k, standings in enumerate(self.standings) if standings is not None]

    def with_play(self) -> list[Tournament]:
        """The entries of tournaments run here, made (the others are not)."""
        if self.plain is not None:
            return [t for t in self.plain.values() if t.play is not None]
        return [self[tid] for tid in self.plays]

    def _make(self, k: int) -> Tournament:
        from ..journal.model import Tournament

        tid, name, system, start, end, discipline, official, file, line, seq = (c[k] for c in self.columns)
        try:
            return Tournament(tid, name, system, date.fromordinal(start), date.fromordinal(end), discipline, official,
                              self.standings[k], self.labels[file], line or None, seq, self.plays.get(tid))
        except (ValueError, TypeError) as exc:  # (checked when read; a bug otherwise)
            raise Bad(f"bad tournament: {exc}") from None

    def __getitem__(self, tid: str) -> Tournament:
        if self.plain is not None:
            return self.plain[tid]
        found = self.made.get(tid)
        if found is None:
            found = self.made[tid] = self._make(self.index[tid])
        return found

    def __contains__(self, tid: object) -> bool:
        return tid in (self.plain if self.plain is not None else self.index)

    def __iter__(self) -> Iterator[str]:
        return iter(self.plain if self.plain is not None else self.columns[0])

    def __len__(self) -> int:
        return len(self.plain if self.plain is not None else self.columns[0])

    def _changing(self) -> dict[str, Tournament]:
        if self.plain is None:
            self.plain = {tid: self[tid] for tid in self.columns[0]}
        return self.plain

    def __setitem__(self, tid: str, tournament: Tournament) -> None:
        self._changing()[tid] = tournament

    def __delitem__(self, tid: str) -> None:
        del self._changing()[tid]
