"""Every player's history of a list whose replay the cache cannot keep (mfsnb, fide), kept for
`history`: one player's lines read without replaying the list.

The engine gives each player's history as plain data, the items its result keeps and makes the
lines from when they are read (Engine.kept_histories), and makes the very same lines from that data
again (Engine.history_from_kept). Stored after a replay of the journal exactly as the cached
snapshot has it (or as it and the matches recorded since: Ledger.kept_key), per list and discipline
(with the date read), as one or more generations, each appended after the ones before it: the
players' parts as JSON, then the generation's index (a head with the key, the engine's meta and the
players; each player's part's offset in the file, length and BLAKE2b digest), then a trailer of
fixed size (a mark, the head's and the index's lengths, the index's SHA-256). A read takes the
trailer at the file's end, the index before it and one player's part only (a 200k-match list's file
is tens of MB: never read whole). Read back only for the same snapshot token, counts and recorded
matches and nothing else appended since, the same engine and version, list, discipline and date;
any other case, or any problem, means the list is replayed.

A match appended after every entry (add-match) adds a generation to the same file: the grown parts
of its two players and an index of every part, the others where they lie (a few hundred kB, not the
tens of MB of the whole file written again). A file grown past twice what its last index names is
written anew whole. A reader that meets a generation half written finds no trailer and replays.
"""
from __future__ import annotations

import hashlib
import json
import os
from array import array
from datetime import date
from operator import add
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from ..engines.base import HistoryEvent, RatingResult
from ..engines.kepthistory import NotPlain
from .cachecheck import need
from .cachedir import CacheFolder
from .cachestandings import list_key

if TYPE_CHECKING:
    from ..config import RatingList
    from .cachetail import Snapshot

Ledger = Any   # (replay.ledger.Ledger, which imports this module)

FORMAT = 2         # 2: generations appended, each with its index and trailer at the end
_DIGEST = 16       # bytes of a player's part's BLAKE2b digest
_MARK = b"nrhist2\n"
_TRAILER = len(_MARK) + 8 + 8 + 32   # the mark, the head's and the index's lengths, the index's SHA-256
_SLACK = 1 << 20   # a file grows by generations up to twice what it holds and this; then it is written anew
# A player's part as JSON: one encoder for every part (json.dumps with these options makes one per call).
_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode


def _name(rating: str, discipline: str) -> str:
    """One file per list and discipline, as the kept standings (cachestandings.py)."""
    return "history-" + hashlib.sha256(f"{rating}\n{discipline}".encode("utf-8")).hexdigest()[:16] + ".bin"


def _generation(head: dict[str, Any], starts: array[int], lengths: array[int], digests: bytes) -> bytes:
    """A generation's index and trailer (after its parts, which `starts` place in the file)."""
    head_bytes = json.dumps(head, ensure_ascii=False, allow_nan=False).encode("utf-8")
    index = head_bytes + starts.tobytes() + lengths.tobytes() + digests
    return index + _MARK + len(head_bytes).to_bytes(8, "little") + len(index).to_bytes(8, "little") + \
        hashlib.sha256(index).digest()


@datarecord
class Index:
    """The last generation's index of a history file: its head, where each player's part lies
    (offset, length) and its digest, the players by name, and the file's size it was read at."""

    head: dict[str, Any]
    names: list[str]
    starts: array[int]
    lengths: array[int]
    digests: bytes
    size: int

    def where(self) -> dict[str, int]:
        where = dict(zip(self.names, range(len(self.names))))
        need(len(where) == len(self.names), "a player kept twice")
        return where

    def part(self, fd: int, k: int) -> bytes:
        """Player k's part, checked against its digest."""
        part = _read(fd, self.starts[k], self.lengths[k])
        need(hashlib.blake2b(part, digest_size=_DIGEST).digest() == self.digests[_DIGEST * k:_DIGEST * (k + 1)],
             "a player's history damaged")
        return part


def _index(fd: int) -> Index:
    """The file's last index, every value checked (raises on any problem)."""
    size = os.fstat(fd).st_size
    need(size >= _TRAILER, "history file cut short")
    trailer = _read(fd, size - _TRAILER, _TRAILER)
    need(trailer[:len(_MARK)] == _MARK, "no history trailer")
    at = len(_MARK)
    head_size = int.from_bytes(trailer[at:at + 8], "little")
    index_size = int.from_bytes(trailer[at + 8:at + 16], "little")
    need(0 < head_size <= index_size <= size - _TRAILER, "bad history index")
    index_start = size - _TRAILER - index_size
    index = _read(fd, index_start, index_size)
    need(hashlib.sha256(index).digest() == trailer[at + 16:], "history file damaged")
    head = json.loads(index[:head_size])
    need(isinstance(head, dict), "history head is not an object")
    names = head.get("players")
    need(isinstance(names, list) and set(map(type, names)) <= {str}, "bad players")
    count = len(names)
    need(index_size == head_size + 16 * count + _DIGEST * count, "bad history index")
    starts, lengths = array("q"), array("q")
    starts.frombytes(index[head_size:head_size + 8 * count])
    lengths.frombytes(index[head_size + 8 * count:head_size + 16 * count])
    # (10,000 players' parts: checked by C-level maps)
    need(min(lengths, default=0) >= 0 and min(starts, default=0) >= 0
         and max(map(add, starts, lengths), default=0) <= index_start, "bad history parts")
    return Index(head, names, starts, lengths, index[head_size + 16 * count:], size)


def save(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None, result: RatingResult) -> None:
    """Keep every player's history of the result, where the journal in memory is exactly the cached snapshot
    (or it and the matches recorded since: Ledger.kept_key)."""
    if ledger.kept_key() is None or result.as_of != day:
        return
    kept = engine().kept_histories(result)
    if kept is None:
        return
    meta, histories = kept
    players: list[str] = []
    parts: list[bytes] = []
    try:
        for player, items in histories:
            players.append(player)
            parts.append(_encode(items).encode("utf-8"))
    except (NotPlain, ValueError, TypeError):
        return
    starts, lengths = array("q"), array("q", map(len, parts))
    at = 0
    for length in lengths:
        starts.append(at)
        at += length
    digests = b"".join(hashlib.blake2b(part, digest_size=_DIGEST).digest() for part in parts)
    head = {**list_key(ledger, engine, rating, discipline, day, FORMAT), "meta": meta, "players": players}
    with CacheFolder(ledger.config, create=True) as folder:
        folder.write(_name(rating.name, discipline), [*parts, _generation(head, starts, lengths, digests)])


def load(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None,
         players: list[str], opponents: bool = False) -> RatingResult | None:
    """A result giving these players' kept histories (and, with `opponents`, those of every opponent
    they name), and nothing else; or None. Any problem raises (through_cache): every part is read
    here, none later, when a report could no longer turn to a replay."""
    if ledger.kept_key() is None:
        return None
    with CacheFolder(ledger.config, create=False) as folder:
        fd = folder.open(_name(rating.name, discipline))
    try:
        index = _index(fd)
        head = index.head
        if any(head.get(k) != v for k, v in list_key(ledger, engine, rating, discipline, day, FORMAT).items()):
            return None   # another snapshot, list, date or program
        where = index.where()
        meta, lines_of = head.get("meta"), engine().history_from_kept
        events: dict[str, list[HistoryEvent]] = {}
        wanted = list(players)
        for _ in range(2 if opponents else 1):
            for player in wanted:
                k = where.get(player)
                if k is None or player in events:
                    continue   # (none: no history in this list, as the result's)
                items = json.loads(index.part(fd, k))
                need(type(items) is list, "bad history items")
                events[player] = lines_of(meta, player, items)
            wanted = sorted({e.opponent for player in players for e in events.get(player, ()) if e.opponent})
    finally:
        os.close(fd)
    return RatingResult(rating.name, discipline, engine.name, {}, events, as_of=day)


def _read(fd: int, offset: int, size: int) -> bytes:
    data = os.pread(fd, size, offset)
    need(len(data) == size, "history file cut short")
    return data


@datarecord
class Carried:
    """Kept histories carried over an appended match, but for their key (the new snapshot's): the
    old file's last index and identity, and the grown parts by player (a new player's after the others)."""

    meta: Any
    index: Index
    names: list[str]
    grown: dict[int, bytes]
    file: tuple[int, int]   # (st_dev, st_ino) of the file read


def carried(after: Ledger, engine: Any, rating: RatingList, discipline: str, before_day: date | None,
            before: Snapshot, result: RatingResult) -> Carried | None:
    """The list's kept histories of the journal before a match appended after every entry (snapshot
    `before`, as of `before_day`), with the match's items in its players' parts
    (Engine.kept_after_match, from the standings after_match gave: `result`); every other part as it
    was. None where there are none for that snapshot or the engine cannot tell; any problem raises
    (through_cache)."""
    with CacheFolder(after.config, create=False) as folder:
        fd = folder.open(_name(rating.name, discipline))
    try:
        st = os.fstat(fd)
        index = _index(fd)
        if any(index.head.get(k) != v for k, v in list_key(after, engine, rating, discipline, before_day, FORMAT,
                                                            snapshot=before).items()):
            return None
        carrier = engine()
        kept = carrier.kept_after_match(index.head.get("meta"), result)
        if kept is None:
            return None
        meta, added = kept
        where, names = index.where(), list(index.names)
        grown: dict[int, bytes] = {}
        for player, items in added.items():
            k = where.get(player)
            old: list[Any] = []
            if k is not None:
                old = json.loads(index.part(fd, k))
                need(type(old) is list, "bad history items")
            else:
                k = where[player] = len(names)
                names.append(player)
            both = carrier.carried_items(meta, player, old, items)
            if both is None:
                return None
            grown[k] = _encode(both).encode("utf-8")
    finally:
        os.close(fd)
    return Carried(meta, index, names, grown, (st.st_dev, st.st_ino))


def write_carried(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None,
                  carried: Carried, snapshot: Snapshot) -> None:
    """Keep the carried histories for the journal in memory as `snapshot` (Ledger.kept_key: as it is
    recorded, or as the snapshot about to be written, after this, so that the file, just grown, is not
    removed with the older snapshots): a generation appended to the file read, if it is still that
    file as it was; a new file of every part where the old one has grown past twice its parts."""
    index, grown = carried.index, carried.grown
    count = len(carried.names)
    starts, lengths = array("q", index.starts), array("q", index.lengths)
    digests = bytearray(index.digests)
    pad = count - len(starts)
    starts.extend([0] * pad)
    lengths.extend([0] * pad)
    digests += bytes(_DIGEST * pad)
    at = index.size
    for k in sorted(grown):
        part = grown[k]
        starts[k], lengths[k] = at, len(part)
        digests[_DIGEST * k:_DIGEST * (k + 1)] = hashlib.blake2b(part, digest_size=_DIGEST).digest()
        at += len(part)
    head = {**list_key(ledger, engine, rating, discipline, day, FORMAT, snapshot=snapshot), "meta": carried.meta,
            "players": carried.names}
    parts = [grown[k] for k in sorted(grown)]
    generation = _generation(head, starts, lengths, bytes(digests))
    name = _name(rating.name, discipline)
    with CacheFolder(ledger.config, create=True) as folder:
        if at + len(generation) <= 2 * (sum(lengths) + len(generation)) + _SLACK:
            folder.append(name, carried.file, index.size, [*parts, generation])
            return
        # Grown past twice what it holds: every part, read once from the old file, into a new one.
        fd = folder.open(name)
        try:
            st = os.fstat(fd)
            need((st.st_dev, st.st_ino) == carried.file and st.st_size >= index.size, "another history file")
            body = memoryview(_read(fd, 0, index.size))
        finally:
            os.close(fd)
        chunks: list[bytes | memoryview] = []
        new_starts, at = array("q"), 0
        for k in range(count):
            chunks.append(grown[k] if k in grown else body[starts[k]:starts[k] + lengths[k]])
            new_starts.append(at)
            at += lengths[k]
        folder.write(name, [*chunks, _generation(head, new_starts, lengths, bytes(digests))])
