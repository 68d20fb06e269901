"""The glicko and glicko2 period replay (engines/glickoreplay.py, Replay) as a numba-compiled loop.

The same arithmetic in the same order on the same doubles (glickomath.py, the engines' onset and
deviation): every record, rating, deviation and volatility is bit for bit the pure replay's
(tests/test_fast_path.py compares them). 10 ** and x ** 2 are pow() calls with the exponent
passed as a value, as CPython calls them; Python's sum() of Glicko-2's Δ is the same sum
(compensated from Python 3.12 on, as sum() is there). What the loop does not do stays in
Python: adjustments, between the periods they precede; the orders of the standings and of
history; the reasons of unrated games. Where Python would raise (exp or 10 ** overflowing, a
division by zero) the loop stops and declines: the pure replay then raises as it always did.
"""
from __future__ import annotations

import math
from array import array
from typing import Any

import numpy as np

from . import declined
from ..engines.glickomath import COMPENSATED_SUM
from .jit import column as _column, compiled, first_sides, python_ratings

EPSILON, MAX_STEPS = 0.000001, 200             # glicko2.py's


def py_sum(values: Any, start: int, end: int, compensated: bool) -> float:  # numba compiles it
    """sum(values[start:end]) as CPython's sum() of floats adds them."""
    if end <= start:
        return 0.0
    total: float = 0.0 + values[start]   # sum() starts from the int 0
    if not compensated:
        for j in range(start + 1, end):
            total += values[j]
        return total
    c = 0.0
    for j in range(start + 1, end):
        x: float = values[j]
        t = total + x
        if abs(total) >= abs(x):
            c += (total - t) + x
        else:
            c += (x - t) + total
        total = t
    if c != 0.0 and math.isfinite(c):
        total += c
    return total


def _f(x: float, a: float, phi2: float, v: float, delta2: float, tau2: float, two: float) -> float:
    ex = math.exp(x)
    value: float = ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** two) - (x - a) / tau2
    return value


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float, two: float) -> float:
    """glicko2.new_volatility: step 5 by the Illinois algorithm; NaN where Python would raise."""
    a = math.log(sigma * sigma)
    phi2, tau2, delta2 = phi * phi, tau * tau, delta * delta
    A = a
    if delta2 > phi2 + v:
        B = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while _f(a - k * tau, a, phi2, v, delta2, tau2, two) < 0:
            k += 1
        B = a - k * tau
    fA, fB = _f(A, a, phi2, v, delta2, tau2, two), _f(B, a, phi2, v, delta2, tau2, two)
    for _ in range(MAX_STEPS):
        if abs(B - A) <= EPSILON:
            break
        if fB == fA:
            return math.nan
        C = A + (A - B) * fA / (fB - fA)
        fC = _f(C, a, phi2, v, delta2, tau2, two)
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA /= 2.0
        B, fB = C, fC
    return math.exp(A / 2.0)


def _loop(rows: Any, periods: Any, a: Any, b: Any, score: Any, dates: Any, skip: Any, glicko2: bool, scale: float,
          c2: float, max_rd: float, max_phi: float, tau: float, compensated: bool, two: float,
          r: Any, phi: Any, sigma: Any, last: Any, games: Any, played: Any,
          stamp: Any, onset: Any, mu: Any, count: Any, offset: Any, fill: Any, latest: Any, after: Any, rows_of: Any,
          present: Any,
          g_mu: Any, g_phi: Any, g_s: Any, terms: Any, es: Any, befores: Any, k_a: Any, k_b: Any,
          out: int, before_a: Any, before_b: Any, change_a: Any, change_b: Any, e_a: Any, e_b: Any, pp_a: Any, pp_b: Any,
          pp: int, rd_before: Any, rd: Any, volatility: Any, last_row: Any, touched: Any, appear: Any,
          counters: Any) -> int:  # numba
    """Rate the periods of `rows` (whole periods, in order; `periods`: each row's period index) as
    Replay.close does, writing records out, out + 1, … and player-period rows pp, pp + 1, ….

    counters[0], counters[1]: the next record and player-period row; returns 0, or -1 where
    Python would have raised.
    """
    pi2 = math.pi * math.pi
    n = len(rows)
    start = 0
    while start < n:
        index = periods[start]
        end = start
        while end < n and periods[end] == index:
            end += 1
        # Pass 1: each rated side's k; each player's onset and μ at the period's start; the players
        # as they first appear in the period (`appear`: the order the player-period rows take).
        m = 0
        shown = 0
        for q in range(start, end):
            i = rows[q]
            x, y = a[i], b[i]
            for z in (x, y):
                if present[z] != index:
                    present[z] = index
                    appear[shown] = z
                    shown += 1
            if skip[i]:
                k_a[q] = count[x] if stamp[x] == index else 0
                k_b[q] = count[y] if stamp[y] == index else 0
                continue
            for z in (x, y):
                if stamp[z] != index:
                    stamp[z] = index
                    count[z] = 0
                    ph = phi[z]
                    if last[z] >= 0:
                        if glicko2:
                            idle = index - last[z] - 1
                            if idle > 0:
                                grown = math.sqrt(ph * ph + idle * sigma[z] * sigma[z])
                                ph = max_phi if max_phi < grown else grown
                        elif index > last[z]:
                            deviation = math.sqrt((ph * scale) ** two + c2 * (index - last[z]))
                            ph = (max_rd if max_rd < deviation else deviation) / scale
                    onset[z] = ph
                    mu[z] = (r[z] - 1500) / scale
                    touched[m] = z
                    m += 1
            k_a[q] = count[x]
            k_b[q] = count[y]
            count[x] += 1
            count[y] += 1
            latest[x] = i
            latest[y] = i
        # Each player's games in a run of the buffers, in order.
        at = 0
        for t in range(m):
            z = touched[t]
            offset[z] = at
            fill[z] = 0
            at += count[z]
        for q in range(start, end):
            i = rows[q]
            if skip[i]:
                continue
            x, y = a[i], b[i]
            s = score[i]
            j = offset[x] + fill[x]
            g_mu[j], g_phi[j], g_s[j] = mu[y], onset[y], s
            fill[x] += 1
            j = offset[y] + fill[y]
            g_mu[j], g_phi[j], g_s[j] = mu[x], onset[x], 1.0 - s
            fill[y] += 1
        # Each player's period: glickomath.period_sums, the engine's deviation, the shares.
        for t in range(shown):
            z = appear[t]
            if stamp[z] != index:   # only unrated games this period
                continue
            first, stop = offset[z], offset[z] + count[z]
            info = 0.0
            for j in range(first, stop):
                gj = 1.0 / math.sqrt(1.0 + 3.0 * g_phi[j] * g_phi[j] / pi2)
                power = math.exp(-gj * (mu[z] - g_mu[j]))
                if power == np.inf:
                    return -1
                e = 1.0 / (1.0 + power)
                info += gj * gj * e * (1.0 - e)
                terms[j] = gj * (g_s[j] - e)
                es[j] = e
            if info == 0.0:
                return -1
            v = 1.0 / info
            ph = onset[z]
            new_sigma = 0.0
            if glicko2:
                delta = v * py_sum(terms, first, stop, compensated)
                new_sigma = _volatility(sigma[z], ph, v, delta, tau, two)
                if not math.isfinite(new_sigma):
                    return -1
                ph = math.sqrt(ph * ph + new_sigma * new_sigma)
            new_phi = 1.0 / math.sqrt(1.0 / (ph * ph) + 1.0 / v)
            square = new_phi * new_phi
            running = r[z]
            for j in range(first, stop):
                befores[j] = running
                terms[j] = square * terms[j] * scale    # the change: φ'²·g(sj − Ej), × scale
                running = running + terms[j]
            after[z] = running
            rows_of[z] = pp
            rd_before[pp] = onset[z]   # (φ: PlayerPeriods keeps the deviations unscaled)
            rd[pp] = new_phi
            volatility[pp] = new_sigma
            last_row[pp] = latest[z]
            pp += 1
            r[z], phi[z], sigma[z], last[z] = running, new_phi, new_sigma, index
            games[z] += count[z]
            played[z] = dates[latest[z]]
        # Pass 2: the records, in replay order.
        for q in range(start, end):
            i = rows[q]
            x, y = a[i], b[i]
            # A side's rating before it: the player's start, plus their earlier changes of the period.
            if stamp[x] != index:
                before_a[out] = r[x]
            elif k_a[q] < count[x]:
                before_a[out] = befores[offset[x] + k_a[q]]
            else:
                before_a[out] = after[x]
            if stamp[y] != index:
                before_b[out] = r[y]
            elif k_b[q] < count[y]:
                before_b[out] = befores[offset[y] + k_b[q]]
            else:
                before_b[out] = after[y]
            if skip[i]:   # (each side's player-period row: the player's latest, as the pure replay has it)
                change_a[out] = change_b[out] = e_a[out] = e_b[out] = np.nan
                pp_a[out], pp_b[out] = rows_of[x], rows_of[y]
            else:
                j = offset[x] + k_a[q]
                change_a[out], e_a[out], pp_a[out] = terms[j], es[j], rows_of[x]
                j = offset[y] + k_b[q]
                change_b[out], e_b[out], pp_b[out] = terms[j], es[j], rows_of[y]
            out += 1
        start = end
    counters[0], counters[1] = out, pp
    return 0


def _kernel() -> Any:
    """The loop compiled, with the functions it calls compiled first (numba resolves them as it compiles)."""
    functions = globals()
    for name in ("py_sum", "_f", "_volatility"):
        if not hasattr(functions[name], "py_func"):
            functions[name] = compiled(functions[name])
    return compiled(_loop)


def replay(view: Any, engine: Any) -> Any:
    """The GlickoState of Replay(engine, view).run(), or None to leave it to the pure replay."""
    from ..contract.batches import MatchBatch
    from ..engines.base import HistoryEvent, adjusted
    from ..engines.compact import ColumnRecords
    from ..engines.glickomath import period_index
    from ..engines.glickostate import GlickoState, LastPeriod, PlayerPeriods

    p = view.params
    events = list(view.batched_events())
    batches = [event for event in events if isinstance(event, MatchBatch)]
    if not batches:
        declined(f"{engine.name}: no games to replay")
        return None
    first = batches[0]  # every batch indexes the same columns; its rows are its own
    count = len(view.players)
    a, b = _column(first.a, np.int32), _column(first.b, np.int32)
    score, dates = _column(first.score_a, np.float64), _column(first.dates, np.int32)
    order = np.concatenate([_column(batch.rows, np.int32) for batch in batches])   # (int32: half the memory)
    total = len(order)
    skip = np.zeros(len(a), dtype=np.uint8)
    skip[np.fromiter(first.excluded, dtype=np.int64)] = 1  # type: ignore[call-overload]  # a set of rows
    days = dates[order].astype(np.int64)
    distinct = np.unique(days)
    period_of = {day: period_index(day, p.period) for day in distinct.tolist()}
    periods = np.array([period_of[day] for day in distinct.tolist()], dtype=np.int32)[np.searchsorted(distinct, days)]
    del days, distinct
    # The adjustments: (rows before it, adjust); each applies before the period it falls in is rated.
    adjusts, seen_rows = [], 0
    for event in events:
        if isinstance(event, MatchBatch):
            seen_rows += len(event.rows)
        else:
            adjusts.append((seen_rows, event.adjust))
    scale, glicko2 = engine.scale, engine.has_volatility
    r, phi, sigma = (np.full(count, float(x)) for x in (p.start, p.rd / scale, getattr(p, "sigma", 0.0)))
    last, games, played = np.full(count, -1, dtype=np.int64), np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
    # The loop's work arrays: by player (stamp … rows_of, present), and by game of the largest period.
    work = [np.full(count, -1, dtype=np.int64)] + [np.zeros(count) for _ in range(2)] + \
        [np.zeros(count, dtype=np.int64) for _ in range(4)] + [np.zeros(count), np.zeros(count, dtype=np.int64),
                                                               np.full(count, -1, dtype=np.int64)]
    rated = int(total - skip[order].sum())
    largest = int(np.unique(periods, return_counts=True)[1].max())
    buffers = [np.zeros(2 * largest) for _ in range(6)] + [np.zeros(total, dtype=np.int32) for _ in range(2)]
    fields = [array("d", [0.0]) * total for _ in range(6)] + [array("i", [0]) * total for _ in range(2)]
    views = [np.frombuffer(f, dtype=np.float64 if f.typecode == "d" else np.int32) for f in fields]
    # The player-period table: a row per player and period with a rated game, at most two per rated
    # game and one per player and period; written through views of the arrays the result keeps.
    rows_total = min(2 * rated, count * len(np.unique(periods))) + 1
    zeros = array("d", [0.0]) * rows_total
    table = PlayerPeriods(zeros, zeros[:], zeros[:], array("i", [-1]) * rows_total)
    table_columns: list[Any] = [np.frombuffer(column, dtype=np.float64 if column.typecode == "d" else np.int32)
                                for column in (table.phi_before, table.phi, table.volatility, table.last_row)]
    touched, appear, counters = np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64), np.zeros(2, dtype=np.int64)
    loop = _kernel()
    params = (glicko2, scale, float(getattr(p, "c", 0.0)) * float(getattr(p, "c", 0.0)), float(p.max_rd),
              p.max_rd / scale, float(getattr(p, "tau", 0.5)), COMPENSATED_SUM, 2.0)
    exact: dict[int, tuple[Any, int]] = {}   # as eloloop's: a rating Python set, while no game moved it
    side: list[tuple[int, str, Any]] = []
    seen: dict[int, tuple[int, int, int]] = {}   # the standings' order: (row, 0 adjust / 1 a / 2 b, n)
    evented: dict[int, tuple[int, int, int]] = {}   # history's: (period, 0 adjust / 1 game, n)
    out, pp, done = 0, 1, 0
    start = p.start
    adjust_periods = [period_index(adj.date.toordinal(), p.period) for _, adj in adjusts]
    # The state before the last period is rated (glickostate.LastPeriod), taken where its rows
    # start; after an adjustment of a later period, the state at the end (nothing pending then).
    last_index = int(periods[-1])
    later = max(adjust_periods, default=last_index) > last_index
    tail_start = int(np.searchsorted(periods, last_index, side="left"))
    taken: tuple[Any, ...] | None = None
    k = 0
    while done < total or k < len(adjusts):
        # The rows of whole periods before the next adjustment's period (and that period's, if
        # no row of a later period comes before the adjustment: it applies first).
        limit = total if k == len(adjusts) else max(int(np.searchsorted(periods, adjust_periods[k], side="left")), done)
        if not later and done < tail_start:
            limit = min(limit, tail_start)
        if not later and done == tail_start and k == len(adjusts):
            taken = _taken(r, phi, sigma, last, games, played, exact, work[8], out, pp)
        if limit > done:
            status = loop(order[done:limit], periods[done:limit], a, b, score, dates, skip, *params,
                          r, phi, sigma, last, games, played, *work, *buffers, out, *views, pp, *table_columns,
                          touched, appear, counters)
            if status < 0:
                declined(f"{engine.name}: a number Python would refuse (an overflow or a division by zero)")
                return None
            out, pp = int(counters[0]), int(counters[1])
            done = limit
        if k < len(adjusts):
            rows_before, adj = adjusts[k]
            index = adjust_periods[k]
            code = view.player_code(adj.player)
            seen.setdefault(code, (rows_before, 0, k))
            evented.setdefault(code, (index, 0, k))
            value, then = exact.get(code, (start, 0))
            before = value if games[code] == then else float(r[code])
            after = adjusted(adj, before)
            r[code] = after
            exact[code] = (after, int(games[code]))
            if adj.rd is not None:
                phi[code], last[code] = adj.rd / scale, index
            if adj.volatility is not None:
                sigma[code] = adj.volatility
            extra = {"rd": float(phi[code]) * scale}
            if glicko2:
                extra["volatility"] = float(sigma[code])
            side.append((out, adj.player, HistoryEvent(adj.date, None, "adjust", None, None, before, after - before,
                                                       after, True, adj.reason, extra)))
            k += 1
    if taken is None:   # (an adjustment after the last period's games: nothing pending at the end)
        taken = _taken(r, phi, sigma, last, games, played, exact, work[8], out, pp)
    # (what only the loop used goes before the records are cut out: they take copies of the columns)
    del views, work, buffers
    index_column = array("i", order.tobytes())
    first_side = np.full(count, -1, dtype=np.int64)
    compiled(first_sides)(order, a, b, first_side)
    codes = np.flatnonzero(first_side >= 0)
    for code, position in zip(codes.tolist(), first_side[codes].tolist()):
        row_key = (position // 2, 1 + position % 2, 0)
        if seen.get(code, row_key) >= row_key:
            seen[code] = row_key
        event_key = (int(periods[position // 2]), 1, position)
        if evented.get(code, event_key) >= event_key:
            evented[code] = event_key
    del table_columns   # (the views: the arrays are the table's own from here, cut to the rows written)
    for column in (table.phi_before, table.phi, table.volatility, table.last_row):
        del column[pp:]
    reasons = {k: str(first.reason(i)) for k, i in enumerate(order.tolist()) if skip[i]} if rated < total else {}
    records = ColumnRecords((index_column, array("i", a[order].tobytes()), array("i", b[order].tobytes()), fields),
                            reasons)
    event_order = sorted(evented, key=evented.__getitem__)
    at_index = None if later else last_index   # players evented before its games (its adjustments come first):
    evented_before = len(event_order) if later else sum(1 for key in evented.values() if key < (last_index, 1))
    rows_of, records_before, table_before = taken[7:]
    last_period = LastPeriod(at_index, records_before, table_before, evented_before, int(dates[order[-1]]),
                             *_state_lists(taken[:7], start), rows_of.tolist())
    return GlickoState(*_state_lists((r, phi, sigma, last, games, played, exact), start),
                       sorted(seen, key=seen.__getitem__), event_order, records, side, table, last_period)


def _taken(*state: Any) -> tuple[Any, ...]:  # copies of the loop's state (arrays, the exact ratings' dict)
    return tuple(x.copy() if isinstance(x, (np.ndarray, dict)) else x for x in state)


def _state_lists(state: tuple[Any, ...], start: Any
                 ) -> tuple[list[Any], list[float], list[float], list[int | None], list[int], list[int]]:
    """GlickoState's lists by player (rating, φ, σ, last period, games, played) of the loop's state."""
    r, phi, sigma, last, games, played, exact = state
    ratings, counts = python_ratings(r, games, exact, start)
    return ratings, phi.tolist(), sigma.tolist(), [None if x < 0 else x for x in last.tolist()], counts, played.tolist()
