"""Derived state in the user's cache directory: only an optimisation, never above the journal.

What is stored (see cachedir.py for where): the parsed journal (players,
tournaments… as JSON; the match columns as raw machine arrays), the matches
appended since, as a record in the manifest (cachetail.py), and per rating list
and discipline the replayed result of engines that can resume (cacheresults.py).
Nothing is stored in a format that runs code when read (no pickle).

When it is used: the manifest is bound to the club's resolved config path, the
config's and the program's own source's hashes, and records per journal file
its size, modification and change time (ns), inode, device and SHA-256. A file
whose stat matches is unchanged, unless it is racily clean (modified within
RACY_NS of being read), which is hashed. A file that has only grown, from an
entry boundary a full parse also sees, is the append-only case. Every value
read back is checked (cachecheck.py); the caller drops the cache on any doubt.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from array import array
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, cast

from .._version import __version__
from .cachecheck import STAT_FIELDS, Bad, check_journal_meta, check_manifest, need
from . import cacheplayers, cachetables
from .cachedir import CacheFolder, write_manifest
from .cachegrowth import Grown, changed_files, file_state

if TYPE_CHECKING:
    from ..config import ClubConfig
    from .cachetail import Base
    from ..journal.columns import Matches
    from ..journal.model import Adjust, Journal

FORMAT = 8  # the shape of what is stored; the program's source hash covers everything else
# Match columns and their array type codes: 'i' 32-bit, 'q' 64-bit, 'd' double, 'b' byte.
COLUMNS = (("dates", "i"), ("a", "i"), ("b", "i"), ("score_a", "d"), ("length", "i"),
           ("discipline", "i"), ("tournament", "i"), ("rated", "b"), ("forfeit", "b"),
           ("seq", "q"), ("source", "i"), ("line", "i"))

# A stored column or array: [name, type code (or "text"), byte offset, byte size].
LayoutRow = list[str | int]


# What load found of the matches appended since the snapshot: (the snapshot, the record applied or None).
Tail = tuple["Base", "dict[str, Any] | None"]


class ColumnsLayout(TypedDict):
    columns: list[LayoutRow]
    count: int


def enabled() -> bool:
    return os.environ.get("NARDRATING_NO_CACHE", "") in ("", "0")


_source_digest: str | None = None


def source_digest() -> str:
    """A digest of this package's own .py files: any change of the code invalidates the cache."""
    global _source_digest
    if _source_digest is None:
        _source_digest = digest_of_sources(str(Path(__file__).resolve().parents[1]), time.time_ns())  # nardrating/
    return _source_digest


RACY_NS = 2_000_000_000   # a file changed this recently may change again within one tick of its clock


def digest_of_sources(package: str, now_ns: int) -> str:
    """SHA-256 over the .py files under `package`, each by its path inside it and its stat (size,
    modification and change times, inode, device): a file written anew gets a new change time, which
    no program can set back, so reading 190 files' bytes at every start is not needed. Where a file
    changed within RACY_NS of now, an edit in the same clock tick would keep its stat: then the
    digest is of the files' bytes, as git hashes a racily clean file."""
    found = {}  # each file by its path inside the package, with / (plain strings: no pathlib per file)
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        inside = os.path.relpath(folder, package).replace(os.sep, "/")
        for name in files:
            if name.endswith(".py"):
                found[name if inside == "." else f"{inside}/{name}"] = os.path.join(folder, name)
    stats = {relative: os.stat(path) for relative, path in found.items()}
    racy = any(now_ns - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS for st in stats.values())
    digest = hashlib.sha256(b"bytes\0" if racy else b"stat\0")
    for relative in sorted(found):
        if racy:
            with open(found[relative], "rb") as source:
                data = source.read()
            digest.update(relative.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
        else:
            st = stats[relative]
            digest.update(f"{relative}\0{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino} {st.st_dev}\n"
                          .encode())
    return digest.hexdigest()


def config_key(config: ClubConfig) -> dict[str, object]:
    """What a manifest must match exactly to be used for this club, config and program."""
    return {
        "format": FORMAT,
        "version": __version__,
        "python": list(sys.version_info[:2]),
        "club": str(config.path.resolve()),
        "config": hashlib.sha256(config.text.encode("utf-8")).hexdigest(),
        "source": source_digest(),
        "files": [str(p) for p in config.club.journal],
    }


def _identity(st: os.stat_result) -> dict[str, int]:
    return {name: getattr(st, "st_" + name) for name in STAT_FIELDS}


# --- writing ----------------------------------------------------------------------

def _journal_meta(journal: Journal) -> dict[str, object]:
    from ..journal import play
    from .cacheadjusts import stored_columns

    def iso(d: date | None) -> str | None:
        return d.isoformat() if d else None

    return {
        "files": journal.files,
        "players": compact(cacheplayers.player_columns(journal)),
        "player_codes": journal.player_codes.names,
        "discipline_codes": journal.discipline_codes.names,
        # (None: the tournaments' own ids in order, the usual case, stored once with them)
        "tournament_codes": None if journal.tournament_codes.names == list(journal.tournaments)
        else journal.tournament_codes.names,
        "voids": [[v.match, iso(v.date), v.reason, v.file, v.line, v.seq] for v in journal.voids],
        "adjusts": compact(stored_columns(journal.adjusts)),
        "extra": [[i, {k: list(v) if isinstance(v, tuple) else v for k, v in e.items()}]
                  for i, e in journal.matches.extra.items()],
        "next_seq": journal.next_seq,
        "max_date": journal.max_date,
        "voided": [[i, journal.voids.index(v)] for i, v in journal.voided.items()],
        "identities": [[x.kind, x.player, x.into, iso(x.date), x.file, x.line, x.seq] for x in journal.identities],
        "lists": [[x.path, x.sha256, iso(x.date), x.file, x.line, x.seq] for x in journal.lists],
        "player_edits": [[e.player, iso(e.date), [[k, iso(v) if isinstance(v, date) else v] for k, v in e.changes],
                          e.file, e.line, e.seq] for e in journal.player_edits],
        "csv_named": cacheplayers.named_runs(journal),
        "play": play.meta(_plays(journal), journal.rounds, journal.changes),
    }


def compact(columns: list[list[Any]]) -> list[Any]:
    """The columns, each of one value alone (a value of one type: text, a flag, an int or None)
    given as {"all": value, "n": how many}: most of 10,000 imported ratings' fields, and of the
    players' (check_journal_meta makes them lists again before checking them). The players' ids and
    the adjustments' journal order differ from entry to entry: never given so (the reader takes
    the count from a column given whole)."""
    return [{"all": column[0], "n": len(column)} if len(column) > 1 and type(column[0]) in _ONE_VALUE
            and column.count(column[0]) == len(column) and set(map(type, column)) == {type(column[0])} else column
            for column in columns]


_ONE_VALUE = (type(None), str, bool, int)   # (no float: 0.0 and -0.0 count alike)


def _plays(journal: Journal) -> dict[str, Any]:
    """The tournaments run here, by id: from a cached table as read without making its entries."""
    from .cachetables import Table

    table = journal.tournaments
    if isinstance(table, Table) and table.untouched():
        return dict(table.plays)
    return {t.id: t.play for t in table.values() if t.play is not None}


def _pack_columns(matches: Matches) -> tuple[ColumnsLayout, Iterator[bytes | array[Any] | memoryview]]:
    """The columns' layout, and their bytes one column at a time (never all of them in memory at
    once; a machine array or a mapped view as it lies, not copied into bytes)."""
    from ..journal.columns import IdColumn

    count = len(matches.ids)
    # The ids as one UTF-8 blob, and where each id starts, so that one id can be read
    # without splitting them all (see IdColumn).
    packed = matches.ids.packed() if isinstance(matches.ids, IdColumn) else None
    ids, starts = packed or IdColumn.of(list(matches.ids)).packed() or (b"", array("q", [0]))
    layout: list[LayoutRow] = []
    offset = 0
    for name, code in COLUMNS:
        size = count * array(code).itemsize
        layout.append([name, code, offset, size])
        offset += size
    layout.append(["ids", "text", offset, len(ids)])
    offset += len(ids)
    layout.append(["id_starts", "q", offset, len(starts) * starts.itemsize])

    def parts() -> Iterator[bytes | array[Any] | memoryview]:
        for name, code in COLUMNS:
            values = getattr(matches, name)
            if name == "line" and not isinstance(values, array) and None in values:
                values = [-1 if v is None else v for v in values]
            yield (values if isinstance(values, (array, memoryview)) and _code(values) == code
                   else _machine_column(code, values))
        yield ids
        yield starts

    return {"columns": layout, "count": count}, parts()


def _machine_column(code: str, values: Any) -> array[Any]:
    """A column as an array of `code` (a list packed by struct: extend_packed)."""
    from ..journal.columns import extend_packed

    return extend_packed(array(code), values) if isinstance(values, list) else array(code, values)


def _code(column: array[Any] | memoryview) -> str:
    return column.typecode if isinstance(column, array) else column.format


def new_token() -> str:
    return os.urandom(6).hex()


def write_journal(config: ClubConfig, journal: Journal, states: list[dict[str, Any]], lineage: list[str] | None = None, token: str | None = None) -> str:
    """Store the parsed journal; `states` are the file states it was read from.

    `lineage` lists the tokens of earlier snapshots this journal only appended
    to, so that results replayed from them can be resumed. Returns the token.
    """
    token = token or new_token()
    with CacheFolder(config, create=True) as folder:
        layout, parts = _pack_columns(journal.matches)
        blob_stat = folder.write(f"matches-{token}.bin", parts)
        meta = _journal_meta(journal)
        tournaments = cachetables.reference(folder, journal)
        meta.update(layout=layout["columns"], count=layout["count"], matches_file=_identity(blob_stat),
                    tournaments=tournaments)
        data = json.dumps(meta, ensure_ascii=False).encode("utf-8")
        folder.write(f"journal-{token}.json", data)
        write_manifest(folder, {
            **config_key(config), "states": states, "token": token, "lineage": (lineage or [])[-20:],
            "count": journal.match_count(), "journal_sha256": hashlib.sha256(data).hexdigest(),
            "file_matches": [journal.matches.source.count(k) for k in range(len(journal.files))]})
        _remove_stale(folder, token, tournaments["file"])
    return token


def save_journal(config: ClubConfig, journal: Journal, states: list[dict[str, Any]], lineage: list[str],
                 token: str | None = None) -> str | None:
    """write_journal, or None where the cache folder cannot be written (which simply means no cache)."""
    try:
        return write_journal(config, journal, states, lineage, token)
    except OSError:
        return None


def _remove_stale(folder: CacheFolder, keep: str, tournaments: str) -> None:
    """Remove our own older snapshots by exact name; recent ones may still be read by a concurrent command."""
    now = time.time()
    for name in folder.names():
        # (a list's kept histories, tens of MB, are of an older snapshot too: history-… names no token)
        if name.startswith(("journal-", "matches-", ".tmp-", "tournaments-", "history-")) and keep not in name \
                and name != tournaments:
            try:
                if folder.age_s(name, now) > 120:
                    folder.remove(name)
            except OSError:
                pass


# --- reading: any problem raises, and the caller (ledger.through_cache) reads the journal ---

def load(config: ClubConfig) -> tuple[dict[str, Any], Journal, list[Grown], Tail]:
    """(manifest, cached Journal, grown files, tail) for this club, or raise.

    `grown` lists (index, old state, bytes, stat, time read) of journal files that only grew,
    from an entry boundary, since the manifest's record of matches appended (cachetail.py: it is
    applied where the files are in the states it was read from, or grew since), else since the
    snapshot; [] when nothing changed. Tail: (the snapshot before the record, the record or None).
    """
    from ..collector import collector_paused
    from . import cachetail

    with CacheFolder(config, create=False) as folder:
        raw, _ = folder.read("manifest.json")
        files = len(config.journal_paths())
        manifest = check_manifest(json.loads(raw), config_key(config), files)
        try:
            record = cachetail.usable(manifest, files)
            grown, refreshed = changed_files(config, record) if record is not None else ([], False)
        except (Bad, KeyError, TypeError):  # a record that does not fit these files: the snapshot's states
            record = None
        if record is None:
            grown, refreshed = changed_files(config, manifest)
        if refreshed:  # racily clean files hashed equal: remember them as checked now
            if record is not None:
                manifest["tail"] = record = cachetail.sealed(record)
            write_manifest(folder, manifest)
        with collector_paused():  # the snapshot's players, codes and entries: lists, none in a cycle (collector.py)
            journal = read_journal(config, folder, manifest)
        base = cachetail.base_of(journal)
        if record is not None:
            cachetail.apply(journal, record)
        return manifest, journal, grown, (base, record)


# The snapshot's "play" of a journal with no tournament run here (journal/play.py meta).
NO_PLAY: dict[str, Any] = {"tournaments": {}, "rounds": [], "changes": []}


def read_journal(config: ClubConfig, folder: CacheFolder, manifest: dict[str, Any]) -> Journal:
    """The cached Journal, every value checked; its match columns mapped from the file, not read."""
    from ..config import display_path
    from ..journal.columns import Codes
    from ..journal.model import Identity, Journal, PlayerEdit, PublishedList, Void
    from .cacheadjusts import CachedAdjusts
    from .cacheplayers import PlayerTable

    token = manifest["token"]
    raw, _ = folder.read(f"journal-{token}.json")
    need(hashlib.sha256(raw).hexdigest() == manifest["journal_sha256"], "journal snapshot of another manifest")
    meta = check_journal_meta(json.loads(raw), manifest)
    columns = _read_columns(folder, f"matches-{token}.bin", meta)
    journal = Journal()
    journal._load_matches = lambda: columns
    journal._cached_count = meta["count"]
    journal.max_date = meta["max_date"]
    # File names as this command shows them (relative to today's current folder).
    relabel = dict(zip(meta["files"], (display_path(p) for p in config.journal_paths())))
    journal.files = [relabel[f] for f in meta["files"]]
    labels = journal.files
    journal.players = PlayerTable.of_columns(meta["players"], labels)  # a Player made when one is asked for
    # (distinct names: checked by check_journal_meta)
    journal.player_codes = Codes.of(meta["player_codes"])
    journal.discipline_codes = Codes.of(meta["discipline_codes"])
    journal.tournaments = cachetables.read(folder, meta["tournaments"], journal.files)
    if meta["tournament_codes"] is None:
        journal.tournament_codes = journal.tournaments.codes()
    else:
        journal.tournament_codes = Codes.of(meta["tournament_codes"])
        need(all(map(journal.tournaments.__contains__, journal.tournament_codes.names)), "unknown tournament codes")
    journal.voids = [Void(mid, day, reason, relabel[file], line, seq) for mid, day, reason, file, line, seq in meta["voids"]]
    journal.adjusts = cast("list[Adjust]", CachedAdjusts(meta["adjusts"], relabel))   # (a list's every use: made when read)
    journal.next_seq = meta["next_seq"]
    journal.csv_named = cacheplayers.named_from_runs(meta["csv_named"], labels)
    journal.voided = {i: journal.voids[k] for i, k in meta["voided"]}
    journal.identities = [Identity(kind, player, into, day, relabel[file], line, seq)
                          for kind, player, into, day, file, line, seq in meta["identities"]]
    journal.identities_applied = len(journal.identities)  # the cached players and codes follow them
    journal.lists = [PublishedList(path, sha, day, relabel[file], line, seq) for path, sha, day, file, line, seq in meta["lists"]]
    journal.player_edits = [PlayerEdit(player, day, tuple((k, date.fromisoformat(v) if k == "joined" else v)
                                                          for k, v in changes), relabel[file], line, seq)
                            for player, day, changes, file, line, seq in meta["player_edits"]]
    journal.edits_applied = len(journal.player_edits)  # and so do the cached players
    if meta["play"] != NO_PLAY:  # (a club that runs no tournament here: play.py's records are never made)
        from ..journal import play

        plays, journal.rounds, journal.changes = play.from_meta(meta["play"], relabel)
        need(all(map(journal.tournaments.__contains__, plays)), "a tournament run here that is not in the snapshot")
        journal.tournaments.plays = plays   # entries made from the table carry them (the table stays as read)
    return journal


def _mapped(folder: CacheFolder, name: str, layout: list[list[Any]], identity: dict[str, int]) -> dict[str, memoryview]:
    """Columns of a cache file as typed views of the file mapped into memory.

    The file must be the very one written (its size, times, inode and device as
    recorded); nothing is copied or parsed: reading one value reads one page.
    """
    import mmap

    fd = folder.open(name)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        need(_identity(st) == identity, f"{name} is not the file this cache wrote")
        size = st.st_size
        whole = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)) if size else memoryview(b"")
    views: dict[str, memoryview] = {}
    for column, code, offset, length in layout:
        need(offset + length <= size, "cache column out of bounds")
        part = whole[offset:offset + length]
        views[column] = part if code == "text" else part.cast(code)
    return views


def _read_columns(folder: CacheFolder, name: str, meta: dict[str, Any]) -> Matches:
    from ..journal.columns import IdColumn, Matches

    count = meta["count"]
    views = _mapped(folder, name, meta["layout"], meta["matches_file"])
    text, starts = views["ids"], views["id_starts"]
    need(text.format == "B" and starts.format == "q" and len(starts) == count + 1 and starts[0] == 0 and starts[-1] == len(text), "cache ids malformed")
    m = Matches()
    m.ids = IdColumn(text, starts)  # type: ignore[assignment]  # reads as a list of str (as ledger's IdColumn.of)
    for column, code in COLUMNS:
        need(len(views[column]) == count and views[column].format == code, "cache columns of other lengths or types")
        setattr(m, column, views[column])
    for flag in ("rated", "forfeit"):
        need(not views[flag].cast("B").tobytes().translate(None, b"\0\1"), "cache flags other than 0 and 1")
    m.extra = {i: {k: tuple(v) if k == "score" else v for k, v in e.items()} for i, e in meta["extra"]}
    return m


__all__ = ["Bad", "enabled", "load", "write_journal", "save_journal", "file_state", "new_token"]
