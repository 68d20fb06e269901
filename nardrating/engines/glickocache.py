"""A Glicko replay's state as the cache stores it (replay/cacheresults.py), and back.

Glicko rates a period's games together, so a replay cannot go on over matches appended to its
last period: the state is stored for the journal exactly as it was replayed, and given back
only for that journal (Engine.cacheable). JSON for the few side events and the unrated games'
reasons; machine arrays by player (rating, φ, σ, the last rated period, games, the last game's
date, the standings' and the history's order), by record (the match row, the players, the eight
fields of RECORD_FIELDS) and by row of the player-period table ("table_" columns).
"""
from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, cast

from .compact import ColumnRecords, event_from_json, event_json
from .glickoreplay import RECORD_FIELDS, GlickoState, PlayerPeriods

TABLE = ("rd_before", "rd", "volatility", "last_row")   # PlayerPeriods' columns, in its order


def _places(codes: list[int], count: int) -> array[int]:
    """By code: 1 + the code's place in `codes`; 0 where it is not there."""
    places = array("i", bytes(4 * count))
    for place, code in enumerate(codes, start=1):
        places[code] = place
    return places


def _in_place_order(places: Any) -> list[int]:
    return sorted((code for code in range(len(places)) if places[code]), key=places.__getitem__)


def pack(state: GlickoState) -> tuple[dict[str, object], dict[str, array[Any]], dict[str, Any]]:
    """(JSON meta, per-player arrays, per-record and player-period columns)."""
    index, a, b, fields = state.records.columns
    count = len(state.r)
    meta: dict[str, object] = {"side": [[pos, player, event_json(e)] for pos, player, e in state.side],
                               "reasons": [[k, r] for k, r in state.records.reasons.items()],
                               "last_date": max(state.played, default=0), "records": len(index)}
    # A rating still the config's whole start, or an [[adjust]]'s whole `set`, is an int (1500, not 1500.0).
    players: dict[str, array[Any]] = {
        "rating": array("d", state.r), "whole": array("b", [type(r) is int for r in state.r]),
        "phi": array("d", state.phi), "sigma": array("d", state.sigma),
        "last": array("i", [0 if x is None else x + 1 for x in state.last]),   # 1 + the period; 0: none yet
        "games": array("q", state.games), "played": array("i", state.played),
        "seen": _places(state.order, count), "evented": _places(state.event_order, count)}
    columns: dict[str, Any] = {"index": index, "a": a, "b": b}
    columns.update({f"field_{f}": column for f, column in enumerate(fields)})
    columns.update({f"table_{name}": getattr(state.periods, name) for name in TABLE})
    return meta, players, columns


def unpack(meta: dict[str, Any], players: dict[str, array[Any]], load_columns: Callable[[], dict[str, Any]]) -> GlickoState:
    """The state `pack` stored; its columns are views of the mapped file, read where used."""
    found = load_columns()
    table = [found[f"table_{name}"] for name in TABLE]
    if len({len(column) for column in table}) != 1 or not len(table[0]):
        raise ValueError("player-period columns of different lengths")
    records = ColumnRecords((found["index"], found["a"], found["b"], [found[f"field_{f}"] for f in range(RECORD_FIELDS)]),
                            {k: r for k, r in meta["reasons"]}, meta["records"])
    rating = [int(r) if w else r for r, w in zip(players["rating"].tolist(), players["whole"])]
    return GlickoState(rating, players["phi"].tolist(), players["sigma"].tolist(),
                       [x - 1 if x else None for x in players["last"].tolist()], players["games"].tolist(),
                       players["played"].tolist(), _in_place_order(players["seen"]), _in_place_order(players["evented"]),
                       records, [(pos, player, event_from_json(e)) for pos, player, e in meta["side"]],
                       PlayerPeriods(*cast(Any, table)))
