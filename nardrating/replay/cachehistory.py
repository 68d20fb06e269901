"""Every player's history of a list whose replay the cache cannot keep (mfsnb, fide), kept for
`history`: one player's lines read without replaying the list.

The engine gives each player's history as plain data, the items its result keeps and makes the
lines from when they are read (Engine.kept_histories), and makes the very same lines from that data
again (Engine.history_from_kept). Stored after a replay of the journal exactly as the cached
snapshot has it, per list and discipline (with the date read): a head (the key, the engine's meta
and the players) with its own SHA-256, each player's part's end and BLAKE2b digest, then the
players' parts as JSON. A read takes the head and one player's part only (a 200k-match list's
file is tens of MB: never read whole). Read back only for the same snapshot token and counts and
nothing appended since, the same engine and version, list, discipline and date; any other case,
or any problem, means the list is replayed.
"""
from __future__ import annotations

import hashlib
import json
import os
from array import array
from datetime import date
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from ..engines.base import HistoryEvent, RatingResult
from ..engines.kepthistory import NotPlain
from .cachecheck import need
from .cachedir import CacheFolder
from .cachestandings import list_key

if TYPE_CHECKING:
    from ..config import RatingList

Ledger = Any   # (replay.ledger.Ledger, which imports this module)

FORMAT = 1
_DIGEST = 16       # bytes of a player's part's BLAKE2b digest
_PREFIX = 8 + 32   # the head's length, then the SHA-256 of the head, the ends and the digests


def _name(rating: str, discipline: str) -> str:
    """One file per list and discipline, as the kept standings (cachestandings.py)."""
    return "history-" + hashlib.sha256(f"{rating}\n{discipline}".encode("utf-8")).hexdigest()[:16] + ".bin"


def save(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None, result: RatingResult) -> None:
    """Keep every player's history of the result, where the journal in memory is exactly the cached snapshot."""
    if ledger.cache_token is None or ledger.dirty or result.as_of != day:
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
            parts.append(json.dumps(items, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8"))
    except (NotPlain, ValueError, TypeError):
        return
    head = json.dumps({**list_key(ledger, engine, rating, discipline, day, FORMAT), "meta": meta, "players": players},
                      ensure_ascii=False, allow_nan=False).encode("utf-8")
    ends = array("q", [0])
    for part in parts:
        ends.append(ends[-1] + len(part))
    digests = b"".join(hashlib.blake2b(part, digest_size=_DIGEST).digest() for part in parts)
    index = head + ends.tobytes() + digests
    with CacheFolder(ledger.config, create=True) as folder:
        folder.write(_name(rating.name, discipline),
                     [len(head).to_bytes(8, "little"), hashlib.sha256(index).digest(), index, *parts])


def load(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None,
         players: list[str], opponents: bool = False) -> RatingResult | None:
    """A result giving these players' kept histories (and, with `opponents`, those of every opponent
    they name), and nothing else; or None. Any problem raises (through_cache): every part is read
    here, none later, when a report could no longer turn to a replay."""
    if ledger.cache_token is None or ledger.dirty:
        return None
    with CacheFolder(ledger.config, create=False) as folder:
        fd = folder.open(_name(rating.name, discipline))
    try:
        size = os.fstat(fd).st_size
        prefix = os.pread(fd, _PREFIX, 0)
        need(len(prefix) == _PREFIX, "history file cut short")
        head_size = int.from_bytes(prefix[:8], "little")
        need(0 < head_size <= size, "bad history head")
        head_bytes = _read(fd, _PREFIX, head_size)
        head = json.loads(head_bytes)
        need(isinstance(head, dict), "history head is not an object")
        if any(head.get(k) != v for k, v in list_key(ledger, engine, rating, discipline, day, FORMAT).items()):
            return None   # another snapshot, list, date or program
        names = head.get("players")
        need(isinstance(names, list) and all(type(p) is str for p in names), "bad players")
        count = len(names)
        tables = _read(fd, _PREFIX + head_size, 8 * (count + 1) + _DIGEST * count)
        index = head_bytes + tables
        need(hashlib.sha256(index).digest() == prefix[8:], "history file damaged")
        ends = array("q")
        ends.frombytes(tables[:8 * (count + 1)])
        digests = tables[8 * (count + 1):]
        start = _PREFIX + len(index)
        need(ends[0] == 0 and all(a <= b for a, b in zip(ends, ends[1:])) and start + ends[-1] == size,
             "bad history parts")
        where = {p: k for k, p in enumerate(names)}
        need(len(where) == count, "a player kept twice")
        meta, lines_of = head.get("meta"), engine().history_from_kept
        events: dict[str, list[HistoryEvent]] = {}
        wanted = list(players)
        for _ in range(2 if opponents else 1):
            for player in wanted:
                k = where.get(player)
                if k is None or player in events:
                    continue   # (none: no history in this list, as the result's)
                part = _read(fd, start + ends[k], ends[k + 1] - ends[k])
                need(hashlib.blake2b(part, digest_size=_DIGEST).digest() == digests[_DIGEST * k:_DIGEST * (k + 1)],
                     "a player's history damaged")
                items = json.loads(part)
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
    """Kept histories carried over an appended match, but for their key (the new snapshot's): the meta,
    the players, and the file's body as runs of the old one's bytes with the grown parts between them."""

    meta: Any
    players: list[str]
    ends: array[int]
    digests: bytes
    chunks: list[bytes | memoryview]


def carried(after: Ledger, engine: Any, rating: RatingList, discipline: str, before_day: date | None,
            before: tuple[str, dict[str, int]], result: RatingResult) -> Carried | None:
    """The list's kept histories of the journal before a match appended after every entry (snapshot
    `before`, as of `before_day`), with the match's items in its players' parts
    (Engine.kept_after_match, from the standings after_match gave: `result`); every other part as it
    was. Read before the new snapshot is written (which removes older history files); None where there
    are none for that snapshot or the engine cannot tell; any problem raises (through_cache)."""
    with CacheFolder(after.config, create=False) as folder:
        fd = folder.open(_name(rating.name, discipline))
    try:
        prefix = os.pread(fd, _PREFIX, 0)
        need(len(prefix) == _PREFIX, "history file cut short")
        head_size = int.from_bytes(prefix[:8], "little")
        head_bytes = _read(fd, _PREFIX, head_size)
        head = json.loads(head_bytes)
        need(isinstance(head, dict), "history head is not an object")
        if any(head.get(k) != v for k, v in list_key(after, engine, rating, discipline, before_day, FORMAT,
                                                      snapshot=before).items()):
            return None
        names = head.get("players")
        need(isinstance(names, list) and all(type(p) is str for p in names), "bad players")
        count = len(names)
        tables = _read(fd, _PREFIX + head_size, 8 * (count + 1) + _DIGEST * count)
        need(hashlib.sha256(head_bytes + tables).digest() == prefix[8:], "history file damaged")
        ends = array("q")
        ends.frombytes(tables[:8 * (count + 1)])
        digests = tables[8 * (count + 1):]
        need(ends[0] == 0 and all(a <= b for a, b in zip(ends, ends[1:])), "bad history parts")
        carrier = engine()
        kept = carrier.kept_after_match(head.get("meta"), result)
        if kept is None:
            return None
        meta, added = kept
        body = memoryview(_read(fd, _PREFIX + head_size + len(tables), ends[-1]))
    finally:
        os.close(fd)
    where = {p: k for k, p in enumerate(names)}
    need(len(where) == count, "a player kept twice")
    grown: dict[int, bytes] = {}
    for player, items in added.items():
        k = where.get(player)
        old: list[Any] = []
        if k is not None:
            kept_part = bytes(body[ends[k]:ends[k + 1]])
            need(hashlib.blake2b(kept_part, digest_size=_DIGEST).digest() == digests[_DIGEST * k:_DIGEST * (k + 1)],
                 "a player's history damaged")
            old = json.loads(kept_part)
            need(type(old) is list, "bad history items")
        else:
            k = where[player] = len(names)
            names = [*names, player]
        both = carrier.carried_items(meta, player, old, items)
        if both is None:
            return None
        grown[k] = json.dumps(both, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    # The old body's runs between the grown parts, as they lie; a new player's part after them all.
    chunks: list[bytes | memoryview] = []
    new_ends, new_digests, at = array("q", [0]), bytearray(), 0
    for k in range(len(names)):
        part = grown.get(k)
        if part is None:
            size, digest = ends[k + 1] - ends[k], digests[_DIGEST * k:_DIGEST * (k + 1)]
        else:
            if k < count:
                chunks.append(body[at:ends[k]])
                at = ends[k + 1]
            elif at < ends[count]:
                chunks.append(body[at:ends[count]])
                at = ends[count]
            chunks.append(part)
            size, digest = len(part), hashlib.blake2b(part, digest_size=_DIGEST).digest()
        new_ends.append(new_ends[-1] + size)
        new_digests += digest
    chunks.append(body[at:ends[count]])
    return Carried(meta, names, new_ends, bytes(new_digests), chunks)


def write_carried(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None,
                  carried: Carried) -> None:
    """Keep the carried histories for the journal in memory, exactly the cached snapshot it is now."""
    if ledger.cache_token is None or ledger.dirty:
        return
    head = json.dumps({**list_key(ledger, engine, rating, discipline, day, FORMAT), "meta": carried.meta,
                       "players": carried.players}, ensure_ascii=False, allow_nan=False).encode("utf-8")
    index = head + carried.ends.tobytes() + carried.digests
    with CacheFolder(ledger.config, create=True) as folder:
        folder.write(_name(rating.name, discipline),
                     [len(head).to_bytes(8, "little"), hashlib.sha256(index).digest(), index, *carried.chunks])
