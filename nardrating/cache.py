"""Derived state cached in the club folder, `.nardrating/`: only an optimisation.

What is stored: the parsed journal (players, tournaments… as JSON; the match
columns as raw machine arrays) and, per rating list and discipline, the
replayed result of engines that can resume. Nothing is stored in a format
that runs code when read (no pickle): a cache someone sends you is data.

When it is used: the manifest records the config's hash, the program and
engine versions, and for each journal file its size, modification time and
SHA-256. A file with the same size and time is unchanged. A file that has
only grown (its old bytes hash the same) is the append-only case: only the
new bytes are parsed. Anything else — an edit in the middle, a changed
config, a new version — means a full read and replay, and a new cache.
"""
from __future__ import annotations

import hashlib
import operator
import json
import os
import sys
import tempfile
from array import array
from datetime import date
from itertools import accumulate
from pathlib import Path

from . import __version__

CACHE_DIR = ".nardrating"
FORMAT = 3  # bump whenever what is stored changes shape
# Match columns and their array type codes: 'i' 32-bit, 'q' 64-bit, 'd' double, 'b' byte.
COLUMNS = (("dates", "i"), ("a", "i"), ("b", "i"), ("score_a", "d"), ("length", "i"),
           ("discipline", "i"), ("tournament", "i"), ("rated", "b"), ("forfeit", "b"),
           ("seq", "q"), ("source", "i"), ("line", "i"))


def enabled() -> bool:
    return os.environ.get("NARDRATING_NO_CACHE", "") in ("", "0")


def cache_dir(config) -> Path:
    return config.folder / CACHE_DIR


def file_stat(path: Path) -> dict:
    """Size and modification time: enough to tell that a file is unchanged."""
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def config_key(config) -> dict:
    from .engines.registry import engine_class

    return {
        "format": FORMAT,
        "version": __version__,
        "python": sys.version_info[:2],
        "config": hashlib.sha256(config.text.encode("utf-8")).hexdigest(),
        "engines": {r.engine: engine_class(r.engine).version for r in config.ratings.values()},
        "files": [str(p) for p in config.club.journal],
    }


# --- writing ----------------------------------------------------------------------

def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _journal_meta(journal) -> dict:
    def iso(d):
        return d.isoformat() if d else None

    return {
        "files": journal.files,
        "players": [[p.id, p.name, p.alias, p.qualification, p.title, iso(p.joined), p.file, p.line, p.declared]
                    for p in journal.players.values()],
        "player_codes": journal.player_codes.names,
        "discipline_codes": journal.discipline_codes.names,
        "tournament_codes": journal.tournament_codes.names,
        "tournaments": [[t.id, t.name, t.system, iso(t.start), iso(t.end), t.discipline, t.official,
                         None if t.standings is None else [[s.player, s.low, s.high] for s in t.standings],
                         t.file, t.line, t.seq] for t in journal.tournaments.values()],
        "voids": [[v.match, iso(v.date), v.reason, v.file, v.line, v.seq] for v in journal.voids],
        "adjusts": [[a.date.isoformat(), a.player, a.rating, a.discipline, a.set, a.delta, a.reason,
                     a.file, a.line, a.seq, a.k, a.games, a.rd, a.volatility] for a in journal.adjusts],
        "extra": [[i, {k: list(v) if isinstance(v, tuple) else v for k, v in e.items()}]
                  for i, e in journal.matches.extra.items()],
        "next_seq": journal.next_seq,
        "max_date": journal.max_date,
        "voided": [[i, journal.voids.index(v)] for i, v in journal.voided.items()],
        "csv_named": [[name, label] for name, (label, _) in journal.csv_named.items()],
    }


def _pack_columns(matches) -> tuple[dict, bytes]:
    parts, layout, offset = [], [], 0
    for name, code in COLUMNS:
        values = getattr(matches, name)
        if name == "line" and not isinstance(values, array) and None in values:
            values = [-1 if v is None else v for v in values]
        blob = (values if isinstance(values, (array, memoryview)) and _code(values) == code
                else array(code, values)).tobytes()
        layout.append([name, code, offset, len(blob)])
        parts.append(blob)
        offset += len(blob)
    text = "\n".join(matches.ids) + "\n" if len(matches.ids) else ""
    ids = text.encode("utf-8")
    layout.append(["ids", "text", offset, len(ids)])
    parts.append(ids)
    offset += len(ids)
    # Where each id starts, so one id can be read without splitting them all:
    # the byte lengths summed, plus one newline per id.
    lengths = map(len, matches.ids) if text.isascii() else (len(x.encode("utf-8")) for x in matches.ids)
    starts = array("q", map(operator.add, accumulate(lengths, initial=0), range(len(matches.ids) + 1)))
    blob = starts.tobytes()
    layout.append(["id_starts", "q", offset, len(blob)])
    parts.append(blob)
    return {"columns": layout, "count": len(matches.ids)}, b"".join(parts)


def _code(column) -> str:
    return column.typecode if isinstance(column, array) else column.format


def new_token() -> str:
    return os.urandom(6).hex()


def write_journal(config, journal, states: list[dict], lineage: list | None = None, token: str | None = None) -> str:
    """Store the parsed journal; `states` are the file states it was read from.

    `lineage` lists the tokens of earlier snapshots this journal only appended
    to, so that results replayed from them can be resumed. Returns the token.
    """
    folder = cache_dir(config)
    folder.mkdir(exist_ok=True)
    token = token or new_token()
    layout, blob = _pack_columns(journal.matches)
    _atomic_write(folder / f"matches-{token}.bin", blob)
    meta = _journal_meta(journal)
    meta["layout"] = layout["columns"]
    meta["count"] = layout["count"]
    _atomic_write(folder / f"journal-{token}.json", json.dumps(meta, ensure_ascii=False).encode("utf-8"))
    manifest = {**config_key(config), "states": states, "token": token, "lineage": (lineage or [])[-20:],
                "count": journal.match_count(),
                "file_matches": [journal.matches.source.count(k) for k in range(len(journal.files))]}
    _atomic_write(folder / "manifest.json", json.dumps(manifest).encode("utf-8"))
    _remove_stale(folder, token)
    return token


def _remove_stale(folder: Path, keep: str) -> None:
    """Remove older snapshots; recent ones may still be read by a concurrent command."""
    import time

    now = time.time()
    for path in folder.iterdir():
        # Snapshots of other tokens, and temporary files a killed writer left.
        if (path.name.startswith(("journal-", "matches-", ".")) and keep not in path.name) or \
                path.name.endswith(".tmp"):
            try:
                if now - path.stat().st_mtime > 120:
                    path.unlink()
            except OSError:
                pass


# --- reading ------------------------------------------------------------------------

def read_manifest(config) -> dict | None:
    try:
        data = json.loads((cache_dir(config) / "manifest.json").read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def read_journal(config, manifest: dict):
    """The cached Journal, or raise if any part is missing or malformed.

    Players, tournaments and the rest are read now; the match columns (the
    bulk) only when something asks for them: a leaderboard from a cached
    result never does.
    """
    from .journal.model import Adjust, Journal, Placing, Player, Tournament, Void

    folder = cache_dir(config)
    token = manifest["token"]
    meta = json.loads((folder / f"journal-{token}.json").read_bytes())
    journal = Journal()
    blob_path = folder / f"matches-{token}.bin"
    if not blob_path.is_file():
        raise ValueError("cache columns missing")
    layout, count = meta["layout"], meta["count"]
    def load_matches():
        try:
            return _read_columns(blob_path, layout, count, meta["extra"])
        except (OSError, ValueError, UnicodeDecodeError):
            # The columns went missing or bad after the rest was read: read the journal itself.
            from .errors import LedgerError
            from .ledger import read_journal as read_files

            fresh, problems, _ = read_files(config)
            if problems:
                raise LedgerError(problems) from None
            return fresh.matches

    journal._load_matches = load_matches
    journal._cached_count = count
    journal.max_date = meta["max_date"]
    d = lambda text: date.fromisoformat(text) if text else None  # noqa: E731
    # File names as this command shows them (relative to today's current folder, not the one
    # of the command that wrote the cache).
    from .config import display_path

    if len(meta["files"]) != len(config.journal_paths()):
        raise ValueError("cache of other journal files")
    relabel = dict(zip(meta["files"], (display_path(p) for p in config.journal_paths())))
    journal.files = [relabel[f] for f in meta["files"]]
    for player in meta["players"]:
        player[6] = relabel.get(player[6], player[6])
    for entry in meta["tournaments"]:
        entry[8] = relabel.get(entry[8], entry[8])
    for entry in meta["voids"]:
        entry[3] = relabel.get(entry[3], entry[3])
    for entry in meta["adjusts"]:
        entry[7] = relabel.get(entry[7], entry[7])
    for pid, name, alias, qual, title, joined, file, line, declared in meta["players"]:
        journal.players[pid] = Player(pid, name, alias, qual, title, d(joined), file, line, declared)
    for codes, names in ((journal.player_codes, meta["player_codes"]), (journal.discipline_codes, meta["discipline_codes"]),
                         (journal.tournament_codes, meta["tournament_codes"])):
        for name in names:
            codes.code(name)
    for tid, name, system, start, end, disc, official, standings, file, line, seq in meta["tournaments"]:
        journal.tournaments[tid] = Tournament(tid, name, system, d(start), d(end), disc, official,
                                              None if standings is None else tuple(Placing(*s) for s in standings),
                                              file, line, seq)
    journal.voids = [Void(mid, d(day), reason, file, line, seq) for mid, day, reason, file, line, seq in meta["voids"]]
    journal.adjusts = [Adjust(d(day), *rest) for day, *rest in meta["adjusts"]]
    journal.next_seq = meta["next_seq"]
    journal.csv_named = {name: (label, None) for name, label in meta["csv_named"]}
    journal.voided = {i: journal.voids[k] for i, k in meta["voided"]}
    return journal


def _mapped(path: Path, layout: list) -> dict:
    """Columns of a cache file as typed views of the file mapped into memory.

    Nothing is copied or parsed: reading one value reads one page. The views
    behave as read-only sequences of numbers (`Matches.growable` copies them
    into arrays before anything is appended).
    """
    import mmap

    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        whole = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)) if size else memoryview(b"")
    views = {}
    for name, code, offset, length in layout:
        if offset < 0 or length < 0 or offset + length > size:
            raise ValueError("cache column out of bounds")
        part = whole[offset:offset + length]
        if code == "text":
            views[name] = part
        elif code in "bBiIqQdf" and length % array(code).itemsize == 0:
            views[name] = part.cast(code)
        else:
            raise ValueError("cache column of an unknown type")
    return views


def _read_columns(path: Path, layout: list, count: int, extra: list):
    from .journal.model import IdColumn, Matches

    views = _mapped(path, layout)
    m = Matches()
    text, starts = views.get("ids", b""), views.get("id_starts")
    if starts is None or len(starts) != count + 1 or (count and starts[-1] != len(text)):
        raise ValueError("cache ids malformed")
    m.ids = IdColumn(text, starts)
    for name, _ in COLUMNS:
        setattr(m, name, views[name])
    if any(len(getattr(m, name)) != count for name, _ in COLUMNS) or len(m.ids) != count:
        raise ValueError("cache columns of different lengths")
    m.extra = {i: {k: tuple(v) if k == "score" else v for k, v in e.items()} for i, e in extra}
    return m


def changed_files(config, manifest: dict) -> list | None:
    """Compare the journal files with the cached states.

    Returns [] when nothing changed, [(index, old state)] for files that only
    grew (so far only the last file may grow: its new entries then come last
    in replay order), or None when the cache cannot be used.
    """
    key = config_key(config)
    if any(manifest.get(k) != (list(v) if isinstance(v, tuple) else v) for k, v in key.items()):
        return None
    states = manifest.get("states")
    paths = config.journal_paths()
    if not isinstance(states, list) or len(states) != len(paths):
        return None
    grown = []
    for k, (path, old) in enumerate(zip(paths, states)):
        try:
            now = file_stat(path)
        except OSError:
            return None
        if now["size"] == old["size"] and now["mtime_ns"] == old["mtime_ns"]:
            continue
        if now["size"] <= old["size"] or k != len(paths) - 1:
            return None
        with open(path, "rb") as f:
            prefix = f.read(old["size"])
        if hashlib.sha256(prefix).hexdigest() != old["sha256"]:
            return None
        grown.append((k, old))
    return grown


# --- replayed results (engines that can resume: time_invariant ones) ----------------------

def _result_name(rating: str, discipline: str) -> str:
    return "result-" + hashlib.sha256(f"{rating}\n{discipline}".encode("utf-8")).hexdigest()[:16]


def _pack_arrays(arrays: dict) -> tuple[list, bytes]:
    parts, layout, offset = [], [], 0
    for name, column in arrays.items():
        blob = column.tobytes()
        layout.append([name, column.typecode, offset, len(blob)])
        parts.append(blob)
        offset += len(blob)
    return layout, b"".join(parts)


def _unpack_arrays(layout: list, blob: bytes) -> dict:
    arrays = {}
    for name, code, offset, size in layout:
        if offset < 0 or size < 0 or offset + size > len(blob) or code not in "bBiIqQdf":
            raise ValueError("cache array out of bounds")
        column = array(code)
        column.frombytes(blob[offset:offset + size])
        arrays[name] = column
    return arrays


def write_result(config, rating: str, discipline: str, meta: dict, players: dict, columns: dict) -> None:
    """A replayed state: meta and per-player arrays in one small file, the records in a big one."""
    folder = cache_dir(config)
    folder.mkdir(exist_ok=True)
    name = _result_name(rating, discipline)
    token = os.urandom(6).hex()
    column_layout, column_blob = _pack_arrays(columns)
    _atomic_write(folder / f"{name}-{token}.bin", column_blob)
    player_layout, player_blob = _pack_arrays(players)
    head = json.dumps({**meta, "players": player_layout, "columns": column_layout,
                       "blob": f"{name}-{token}.bin"}, ensure_ascii=False).encode("utf-8")
    _atomic_write(folder / f"{name}.state", len(head).to_bytes(8, "little") + head + player_blob)
    for path in folder.glob(f"{name}-*.bin"):
        if token not in path.name:
            try:
                path.unlink()
            except OSError:
                pass


def read_result(config, rating: str, discipline: str):
    """(meta, per-player arrays, a function reading the records' arrays), or None."""
    folder = cache_dir(config)
    try:
        data = (folder / f"{_result_name(rating, discipline)}.state").read_bytes()
        size = int.from_bytes(data[:8], "little")
        meta = json.loads(data[8:8 + size])
        players = _unpack_arrays(meta["players"], data[8 + size:])
        blob_path = folder / meta["blob"]
        if not blob_path.is_file():
            return None
        return meta, players, lambda: _mapped(blob_path, meta["columns"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
