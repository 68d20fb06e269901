"""Replayed results in the cache (engines that can store them: Engine.can_cache), beside the journal's
snapshot (cache.py): per rating list and discipline, a small file of meta and per-player arrays,
and a big one of the records (and of any table of the engine's own, its names starting "table_"),
mapped into memory when read."""
from __future__ import annotations

import hashlib
import json
from array import array
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .cache import LayoutRow, _code, _identity, _mapped, new_token
from .cachecheck import all_finite, all_non_negative, check_result_head, need
from .cachedir import CacheFolder

if TYPE_CHECKING:
    from ..config import ClubConfig


def _result_name(rating: str, discipline: str) -> str:
    return "result-" + hashlib.sha256(f"{rating}\n{discipline}".encode("utf-8")).hexdigest()[:16]


def _pack_arrays(arrays: Mapping[str, array[Any] | memoryview]) -> tuple[list[LayoutRow], Iterator[bytes | array[Any] | memoryview]]:
    """The arrays' layout, and their bytes one array at a time: a machine array or a contiguous view
    as it lies, a strided view copied in its own order."""
    layout: list[LayoutRow] = []
    offset = 0
    for name, column in arrays.items():
        size = len(column) * column.itemsize
        layout.append([name, _code(column), offset, size])
        offset += size
    return layout, (column if isinstance(column, array) or column.c_contiguous else column.tobytes()
                    for column in arrays.values())


def _unpack_arrays(layout: list[list[Any]], blob: bytes) -> dict[str, array[Any]]:
    arrays: dict[str, array[Any]] = {}
    for name, code, offset, size in layout:
        need(offset + size <= len(blob), "cache array out of bounds")
        column = array(code)
        column.frombytes(blob[offset:offset + size])
        arrays[name] = column
    return arrays


def write_result(config: ClubConfig, rating: str, discipline: str, meta: dict[str, Any],
                 players: Mapping[str, array[Any] | memoryview], columns: Mapping[str, array[Any] | memoryview]) -> None:
    """A replayed state: meta and per-player arrays in one small file, the records in a big one."""
    name = _result_name(rating, discipline)
    blob_name = f"{name}-{new_token()}.bin"
    with CacheFolder(config, create=True) as folder:
        column_layout, column_blob = _pack_arrays(columns)
        blob_stat = folder.write(blob_name, column_blob)
        player_layout, player_parts = _pack_arrays(players)
        player_blob = b"".join(player_parts)
        head = json.dumps({**meta, "players": player_layout, "columns": column_layout, "blob": blob_name,
                           "blob_file": _identity(blob_stat)}, ensure_ascii=False).encode("utf-8")
        body = head + player_blob  # with its own hash: damage anywhere in it is seen
        folder.write(f"{name}.state", len(head).to_bytes(8, "little") + hashlib.sha256(body).digest() + body)
        for other in folder.names():
            if other.startswith(name + "-") and other != blob_name:
                folder.remove(other)


def read_result(config: ClubConfig, rating: str, discipline: str, player_count: int
                ) -> tuple[dict[str, Any], dict[str, array[Any]], Callable[[], dict[str, memoryview]]]:
    """(meta, per-player arrays, a function giving the records' arrays), or raise."""
    name = _result_name(rating, discipline)
    with CacheFolder(config, create=False) as folder:
        data, _ = folder.read(f"{name}.state")
        size, body = int.from_bytes(data[:8], "little"), data[40:]
        need(hashlib.sha256(body).digest() == data[8:40] and size <= len(body), "result file damaged")
        meta = check_result_head(json.loads(body[:size]), name)
        players = _unpack_arrays(meta["players"], body[size:])
        lengths = {len(column) for column in players.values()}
        need(len(lengths) <= 1 and all(n <= player_count for n in lengths), "result of another journal")
        for column in players.values():
            need(all_finite(column) if column.typecode == "d" else all_non_negative(column),
                 "a rating that is not a number" if column.typecode == "d" else "a negative count")
        columns = _mapped(folder, meta["blob"], meta["columns"], meta["blob_file"])
    need(all(len(column) == meta["records"] for name, column in columns.items() if not name.startswith("table_")),
         "result columns of different lengths")
    return meta, players, lambda: columns
