"""The elo replay (engines/elo.py, EloEngine.replay) as a numba-compiled loop over the match columns.

The same arithmetic in the same order on the same doubles: every record and rating is bit
for bit the pure loop's (tests/test_fast_path.py compares them). What the loop does not do
stays in Python, as the pure engine does it: adjustments between chunks of games, the pair
limit (decided by the order of the games alone: here by a stable sort of the rated games by
date and pair), the reasons of unrated games, the standings' order. Inactivity penalties
decline: the pure engine replays those.
"""
from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from . import declined
from .jit import column as _column, compiled, first_sides, python_ratings


def _loop(rows: Any, out: int, a: Any, b: Any, score: Any, dates: Any, skip: Any, k: float, ten: float,
          rating: Any, games: Any, last: Any, f0: Any, f1: Any, f2: Any, f3: Any) -> int:  # numba compiles it
    """Replay games `rows` into records out, out + 1, …; EloEngine.replay's arithmetic.

    Returns the next record position, or -1 when 10 ** x overflowed (Python raises there).
    """
    nan = np.nan
    for i in rows:
        x, y = a[i], b[i]
        ra, rb = rating[x], rating[y]
        f0[out] = ra
        f1[out] = rb
        if skip[i]:
            f2[out] = f3[out] = nan
            out += 1
            continue
        power = ten ** ((rb - ra) / 400.0)
        if power == np.inf:
            return -1
        e_a = 1.0 / (1.0 + power)
        change = k * (score[i] - e_a)
        rating[x] = ra + change
        rating[y] = rb - change
        games[x] += 1
        games[y] += 1
        last[x] = dates[i]
        last[y] = dates[i]
        f2[out] = change
        f3[out] = e_a
        out += 1
    return out


def pair_limited(order: Any, a: Any, b: Any, dates: Any, skip: Any, limit: int, count: int) -> Any:
    """The games beyond `limit` rated ones a pair a date (PairLimit, in replay order), as a mask of `order`.

    Of the games not skipped, the n-th of its (date, pair) in replay order is refused from
    n = limit on: a stable sort by (date, pair) keeps replay order within each, as PairLimit counts.
    """
    x, y = a[order].astype(np.int64), b[order].astype(np.int64)
    key = dates[order].astype(np.int64) * count * count + np.minimum(x, y) * count + np.maximum(x, y)
    counted = ~skip[order].astype(bool)
    where = np.flatnonzero(counted)
    sorted_at = where[np.argsort(key[where], kind="stable")]
    keys = key[sorted_at]
    starts = np.ones(len(keys), dtype=bool)
    starts[1:] = keys[1:] != keys[:-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(len(keys)), 0))
    rank = np.arange(len(keys)) - first          # 0 for a (date, pair)'s first game, 1 for its second…
    refused = np.zeros(len(order), dtype=bool)
    refused[sorted_at[rank >= limit]] = True
    return refused


def replay(view: Any) -> Any:
    """The EloState of EloEngine.replay(view, None), or None to leave it to the pure loop.

    It reads what the pure loop reads, the view's batched events: adjustments, and runs of games
    as MatchBatch columns with the exclusions decided (never the journal's storage).
    """
    from ..contract.batches import MatchBatch
    from ..engines.base import adjust_event
    from ..engines.compact import ColumnRecords
    from ..engines.elostate import RECORD_FIELDS, EloState, exclusion
    from ..engines.policies import Inactivity

    p = view.params
    if Inactivity(p).ladder:
        declined("elo with inactivity penalties")
        return None
    events = list(view.batched_events())
    batches = [event for event in events if isinstance(event, MatchBatch)]
    if not batches:
        declined("elo: no games to replay")
        return None
    first = batches[0]  # every batch indexes the same columns; its rows are its own
    count = len(view.players)
    a, b = _column(first.a, np.int32), _column(first.b, np.int32)
    score, dates = _column(first.score_a, np.float64), _column(first.dates, np.int32)
    order = np.concatenate([_column(batch.rows, np.int64) for batch in batches])
    skip = np.zeros(len(a), dtype=np.uint8)
    skip[np.fromiter(first.excluded, dtype=np.int64)] = 1  # type: ignore[call-overload]  # a set of rows
    limit = p.pair_limit_per_day
    if limit:
        skip[order[pair_limited(order, a, b, dates, skip, limit, count)]] = 1
    rating = np.full(count, float(p.start))
    games = np.zeros(count, dtype=np.int64)
    last = np.zeros(count, dtype=np.int64)
    total = len(order)
    # The records' columns are the machine arrays the result keeps (ColumnRecords); the loop writes
    # into them through numpy views, without a copy.
    fields = [array("d", [0.0]) * total for _ in range(RECORD_FIELDS)]
    views = [np.frombuffer(column, dtype=np.float64) for column in fields]
    # A rating the loop never touched is what Python made it (the config's start, an adjustment):
    # an int stays an int (1200, not 1200.0), as in the pure replay. code → (value, games then).
    exact: dict[int, tuple[Any, int]] = {}
    side: list[tuple[int, str, Any]] = []
    seen: dict[int, tuple[int, int]] = {}   # code → (first record, 0 side event / 1 a / 2 b) for the order
    loop = compiled(_loop)
    out = 0
    start = p.start
    for event in events:
        if not isinstance(event, MatchBatch):
            adj = event.adjust
            code = view.player_code(adj.player)
            seen.setdefault(code, (out, 0))
            value, then = exact.get(code, (start, 0))
            before = value if games[code] == then else float(rating[code])
            after, history_event = adjust_event(adj, before)
            rating[code] = after
            exact[code] = (after, int(games[code]))
            side.append((out, adj.player, history_event))
            continue
        rows = _column(event.rows, np.int64)
        # 10.0 passed as a value: a constant base would let LLVM turn pow(10, x) into exp10(x).
        done = loop(rows, out, a, b, score, dates, skip, float(p.k), 10.0, rating, games, last, *views)
        if done < 0:
            declined("elo: a rating difference too large for 10 ** x")
            return None
        out = done
    del views
    index = array("i", order.astype(np.int32).tobytes())
    rec_a, rec_b = array("i", a[order].tobytes()), array("i", b[order].tobytes())
    # The standings' order: players as they first appear, an adjustment before the games after it.
    first_side = np.full(count, -1, dtype=np.int64)
    compiled(first_sides)(order, a, b, first_side)
    codes = np.flatnonzero(first_side >= 0)
    for code, position in zip(codes.tolist(), first_side[codes].tolist()):
        key = (position // 2, 1 + position % 2)
        if seen.get(code, key) >= key:
            seen[code] = key
    order_codes = sorted(seen, key=seen.__getitem__)
    refused = np.flatnonzero(skip[order]).tolist()
    reasons = {k: exclusion(first.reason(int(order[k])), int(dates[order[k]]), limit) for k in refused}
    records = ColumnRecords((index, rec_a, rec_b, fields), reasons)
    last_date = int(dates[order[-1]])
    pairs: dict[tuple[int, int, int], int] = {}
    if limit:  # PairLimit.seen of the last date: the rated games counted per pair, at most the limit
        on_last = order[(dates[order] == last_date) & ~skip[order].astype(bool)]
        for i in on_last.tolist():
            x, y = int(a[i]), int(b[i])
            key3 = (last_date, x, y) if x < y else (last_date, y, x)
            pairs[key3] = pairs.get(key3, 0) + 1
    ratings, game_counts = python_ratings(rating, games, exact, start)
    return EloState(ratings, game_counts, last.tolist(), order_codes, pairs, records, side, last_date)
