"""The fibs replay (engines/fibs.py, FibsEngine._replay) as a numba-compiled loop over the match columns.

The same arithmetic in the same order on the same doubles: every record and rating is
bit for bit the pure loop's (tests/test_fast_path.py compares them). What the loop does
not do stays in Python, as the pure engine does it: adjustments between chunks of
matches, the pair limit (it depends on the order of matches only, not on ratings), the
reasons of unrated matches. Inactivity penalties decline: the pure engine replays those.

The compiled loop is cached in the user's cache directory ($XDG_CACHE_HOME/nardrating/numba,
a folder of this user only), never in the source tree; without such a folder it is
compiled in memory on each run (about 1 s of CPU).
"""
from __future__ import annotations

from array import array
from typing import Any, Callable

import numpy as np

from . import declined
from .jit import column as _column, compiled

RECORD_FIELDS = 8  # rw, rl, base, bw, bl, pw, ew, el (FibsEngine.RECORD_FIELDS)


def _compiled() -> Callable[..., int]:
    """The loop, compiled (or loaded from numba's cache) once per process."""
    return compiled(_loop)


def _loop(order: Any, out: int, a: Any, b: Any, score: Any, lengths: Any, dates: Any, skip: Any, spread: Any,
          stake: Any, ten: float, by_points: bool, use_boost: bool, rating: Any, experience: Any, games: Any,
          last: Any, present: Any, index: Any, rec_a: Any, rec_b: Any,
          f0: Any, f1: Any, f2: Any, f3: Any, f4: Any, f5: Any, f6: Any, f7: Any) -> int:  # numba compiles it
    """Replay matches `order` into records out, out + 1, …; the arithmetic of FibsEngine._replay.

    Returns the next record position, or -1 when 10 ** x overflowed (Python raises there:
    the pure loop must replay it).
    """
    nan = np.nan
    for i in order:
        x, y = a[i], b[i]
        present[x] = 1
        present[y] = 1
        index[out] = i
        rec_a[out] = x
        rec_b[out] = y
        if skip[i]:
            f0[out] = rating[x]
            f1[out] = rating[y]
            f2[out] = f3[out] = f4[out] = f5[out] = f6[out] = f7[out] = nan
            out += 1
            continue
        n = lengths[i]
        if score[i] == 1.0:
            w, l = x, y
        else:
            w, l = y, x
        rw, rl = rating[w], rating[l]
        power = ten ** ((rl - rw) * spread[n])
        if power == np.inf:
            return -1
        pw = 1.0 / (1.0 + power)
        base = stake[n] * (1.0 - pw)
        ew, el = experience[w], experience[l]
        if use_boost:
            bw = 5.0 - ew / 100.0
            if bw < 1.0:
                bw = 1.0
            bl = 5.0 - el / 100.0
            if bl < 1.0:
                bl = 1.0
        else:
            bw = 1.0
            bl = 1.0
        rating[w] = rw + base * bw
        rating[l] = rl - base * bl
        unit = n if by_points else 1
        experience[w] = ew + unit
        experience[l] = el + unit
        games[w] += 1
        games[l] += 1
        last[w] = dates[i]
        last[l] = dates[i]
        f0[out] = rw
        f1[out] = rl
        f2[out] = base
        f3[out] = bw
        f4[out] = bl
        f5[out] = pw
        f6[out] = ew
        f7[out] = el
        out += 1
    return out


def replay(view: Any) -> Any:
    """The FibsState of FibsEngine._replay(view, None), or None to leave it to the pure loop.

    It reads what the pure loop reads, the view's batched events: adjustments, and runs of
    matches as MatchBatch columns with the exclusions decided (never the journal's storage).
    """
    from ..contract.batches import MatchBatch, PairLimit
    from ..engines.base import adjust_event
    from ..engines.compact import ColumnRecords
    from ..engines.fibsstate import FibsState, exclusion
    from ..engines.policies import Inactivity

    p = view.params
    if Inactivity(p).ladder:
        declined("fibs with inactivity penalties")
        return None
    events = list(view.batched_events())
    batches = [event for event in events if isinstance(event, MatchBatch)]
    if not batches:
        declined("fibs: no matches to replay")
        return None
    first = batches[0]  # every batch indexes the same columns; its rows are its own
    count = len(view.players)
    start, factor, scale = float(p.start), float(p.factor), float(p.scale)
    a = _column(first.a, np.int32)
    b = _column(first.b, np.int32)
    score = _column(first.score_a, np.float64)
    lengths = _column(first.length, np.int32)
    dates = _column(first.dates, np.int32)
    # Matches no list rates, as the pure loop tests them: a draw, and the view's exclusions
    # (voided, a forfeit, unrated).
    skip = score == 0.5
    excluded = np.fromiter(first.excluded, dtype=np.int64)  # type: ignore[call-overload]  # a set of rows
    skip[excluded] = True
    pairs = PairLimit(p.pair_limit_per_day)
    limited = p.pair_limit_per_day > 0
    if limited:  # beyond the limit: decided by the order of the matches alone, as the pure loop decides it
        allows = pairs.allows
        for batch in batches:
            for i in batch.rows:
                if not skip[i] and not allows(batch.dates[i], batch.a[i], batch.b[i]):
                    skip[i] = True
    top = int(lengths.max()) if len(lengths) else 0
    roots = [n ** 0.5 for n in range(top + 1)]  # as the pure loop: √n/scale and factor·√n per length
    spread = np.array([root / scale for root in roots])
    stake = np.array([factor * root for root in roots])
    rating = np.full(count, start)
    experience = np.zeros(count, dtype=np.int64)
    games = np.zeros(count, dtype=np.int64)
    last = np.zeros(count, dtype=np.int64)
    present = np.zeros(count, dtype=np.uint8)
    total = sum(len(batch) for batch in batches)
    # The records' columns are the machine arrays the engine keeps (ColumnRecords); the loop
    # writes into them through numpy views, without a copy.
    columns = [array(code, [0]) * total for code in ("i", "i", "i")] + [array("d", [0.0]) * total for _ in range(RECORD_FIELDS)]
    index, rec_a, rec_b, *field_views = (np.frombuffer(column, dtype=np.int32 if column.typecode == "i" else np.float64)
                                         for column in columns)
    side: list[tuple[int, str, Any]] = []
    loop = _compiled()
    out = 0
    for event in events:
        if not isinstance(event, MatchBatch):
            adj = event.adjust
            code = view.player_code(adj.player)
            present[code] = 1
            after, history_event = adjust_event(adj, float(rating[code]))
            rating[code] = after
            side.append((out, adj.player, history_event))
            continue
        # 10.0 passed as a value: a constant base would let LLVM turn pow(10, x) into exp10(x),
        # which may round differently from the pow() that Python's ** calls.
        out = loop(np.array(event.rows, dtype=np.int64), out, a, b, score, lengths, dates, skip, spread, stake, 10.0,
                   p.experience_unit == "points", p.boost, rating, experience, games, last, present, index, rec_a, rec_b, *field_views)
        if out < 0:
            declined("fibs: a rating difference too large for 10 ** x")
            return None
    skipped = np.flatnonzero(skip[index]).tolist()
    del index, rec_a, rec_b, field_views  # the views: the arrays are the records' own from here
    m_index = columns[0]
    rows = {k: int(m_index[k]) for k in skipped}
    reasons = {k: exclusion(first.reason(i), first.dates[i], first.score_a[i], p.pair_limit_per_day) for k, i in rows.items()}
    records = ColumnRecords((columns[0], columns[1], columns[2], columns[3:]), reasons)
    last_date = first.dates[batches[-1].rows[-1]]
    if limited:
        pairs.seen = {key: n for key, n in pairs.seen.items() if key[0] == last_date}
    return FibsState(rating.tolist(), experience.tolist(), games.tolist(), last.tolist(), bytearray(present.tobytes()),
                     pairs.seen if limited else {}, records, side, last_date)
