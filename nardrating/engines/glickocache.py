"""A Glicko replay's state as the cache stores it (replay/cacheresults.py), and back.

Glicko rates a period's games together, so a replay goes on over appended matches from just
before its last period was rated: the state then (glickoreplay.LastPeriod) is stored beside the
state at the end. JSON for the few side events, the unrated games' reasons and the last period's
place; machine arrays by player (rating, φ, σ, the last rated period, games, the last game's
date, the standings' and the history's order; "before_": the same before the last period, and
the player's row of the player-period table), by record (the match row, the players, the eight
fields of RECORD_FIELDS) and by row of the player-period table ("table_" columns).
"""
from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import compress
from typing import Any, cast

from .compact import ColumnRecords, event_from_json, event_json, stored_ratings, whole_flags
from .glickostate import RECORD_FIELDS, GlickoState, LastPeriod, PlayerPeriods

TABLE = ("phi_before", "phi", "volatility", "last_row")   # PlayerPeriods' columns, in its order


def _places(codes: list[int], count: int) -> array[int]:
    """By code: 1 + the code's place in `codes`; 0 where it is not there."""
    places = array("i", bytes(4 * count))
    for place, code in enumerate(codes, start=1):
        places[code] = place
    return places


def _in_place_order(places: Any) -> list[int]:
    """The codes with a place, by place: _places undone (the codes picked and ordered in C)."""
    place = places.tolist()
    codes = list(compress(range(len(place)), place))
    codes.sort(key=place.__getitem__)
    return codes


def pack(state: GlickoState) -> tuple[dict[str, object], dict[str, array[Any]], dict[str, Any]]:
    """(JSON meta, per-player arrays, per-record and player-period columns)."""
    index, a, b, fields = state.records.columns
    count = len(state.r)
    at = state.last_period
    meta: dict[str, object] = {"side": [[pos, player, event_json(e)] for pos, player, e in state.side],
                               "reasons": [[k, r] for k, r in state.records.reasons.items()],
                               "last_date": max(state.played, default=0) if at is None else at.last_date,
                               "records": len(index)}
    players = _by_player("", state.r, state.phi, state.sigma, state.last, state.games, state.played)
    players.update(seen=_places(state.order, count), evented=_places(state.event_order, count))
    if at is not None:
        meta["last_period"] = [at.index, at.records, at.table, at.events]
        players.update(_by_player("before_", at.r, at.phi, at.sigma, at.last, at.games, at.played),
                       before_row=array("i", at.row))
    columns: dict[str, Any] = {"index": index, "a": a, "b": b}
    columns.update({f"field_{f}": column for f, column in enumerate(fields)})
    columns.update({f"table_{name}": column for name, column in zip(TABLE, state.periods.columns())})
    return meta, players, columns


def _by_player(prefix: str, r: list[Any], phi: list[float], sigma: list[float], last: list[int | None],
               games: list[int], played: list[int]) -> dict[str, array[Any]]:
    # A rating still the config's whole start, or an [[adjust]]'s whole `set`, is an int (1500, not 1500.0).
    arrays = {"rating": array("d", r), "whole": whole_flags(r),
              "phi": array("d", phi), "sigma": array("d", sigma),
              "last": array("i", [0 if x is None else x + 1 for x in last]),   # 1 + the period; 0: none yet
              "games": array("q", games), "played": array("i", played)}
    return {prefix + name: column for name, column in arrays.items()}


def _from_player(prefix: str, players: dict[str, array[Any]]
                 ) -> tuple[list[Any], list[float], list[float], list[int | None], list[int], list[int]]:
    """(rating, φ, σ, last rated period, games, played) as _by_player stored them."""
    rating = stored_ratings(players[prefix + "rating"], players[prefix + "whole"])
    return (rating, players[prefix + "phi"].tolist(), players[prefix + "sigma"].tolist(),
            [x - 1 if x else None for x in players[prefix + "last"].tolist()], players[prefix + "games"].tolist(),
            players[prefix + "played"].tolist())


def unpack(meta: dict[str, Any], players: dict[str, array[Any]], load_columns: Callable[[], dict[str, Any]]) -> GlickoState:
    """The state `pack` stored; its columns are views of the mapped file, read where used."""
    found = load_columns()
    table = [found[f"table_{name}"] for name in TABLE]
    if len({len(column) for column in table}) != 1 or not len(table[0]):
        raise ValueError("player-period columns of different lengths")
    records = ColumnRecords((found["index"], found["a"], found["b"], [found[f"field_{f}"] for f in range(RECORD_FIELDS)]),
                            {k: r for k, r in meta["reasons"]}, meta["records"])
    evented = _in_place_order(players["evented"])
    last_period = None
    if meta.get("last_period") is not None:
        index, before, rows, events = meta["last_period"]
        if not (type(index) in (int, type(None)) and all(type(n) is int for n in (before, rows, events))
                and 0 <= before <= meta["records"] and 0 < rows <= len(table[0]) and 0 <= events <= len(evented)
                and max(players["before_row"], default=0) < rows):
            raise ValueError("last period out of range")
        last_period = LastPeriod(index, before, rows, events, meta["last_date"], *_from_player("before_", players),
                                 players["before_row"].tolist())
    return GlickoState(*_from_player("", players), _in_place_order(players["seen"]), evented,
                       records, [(pos, player, event_from_json(e)) for pos, player, e in meta["side"]],
                       PlayerPeriods(*cast(Any, table)), last_period)
