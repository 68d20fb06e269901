"""The yardsticks of the elo, glicko and glicko2 rows: a bare `csv.reader` over the journal CSV and the
engine's own formulas from the papers, in one plain Python process, keeping each game's record for
history (its rating before, change and expected score, as recalc keeps them).

    python bench/plain.py elo|glicko|glicko2|chips|mfsnb|fide|placement matches.csv [ratings.toml]

elo: seed 003, E = 1/(1 + 10^((Rb − Ra)/400)), new = old ± K·(S − E), K 20, start 1200.
glicko: Glickman, "The Glicko system" (monthly periods, RD from 350, c 34.6).
glicko2: Glickman, "Example of the Glicko-2 system" (monthly periods, σ 0.06, τ 0.5, ε 0.000001).
chips: seed 001, a won match adds its length in chips, a lost one takes 80 % of it, ratings × 0.95 a
day, per discipline.
mfsnb: seed 000, quarterly lists per discipline; each match a competition of its own, rated against
the list in force (new players 1500): D = own − opponent, Pe from the table, R = 10·(P − Pe)
rounded, halves away from zero; the period's R added on its list.
fide: seed 002 with quarterly lists; every player rated on the imported list (ratings.toml's
[[adjust]] set); each match an event of its own, rated on the next list against the list in force:
D capped at 400, P_D from table (b), K 40 below 30 games, 20, 10 from 2400; K·(S − P_D) rounded.
placement: seed 001 per discipline, each match in a tournament (its `tournament` cell; the
benchmark's are weeks, Monday to Sunday); when one ends, 10·log2(N)/M for each of its N players by
place M from points (equal points share the mean place); every rating halved on a month's first
day; each match keeps both players' ratings before it, each place and halving its rating before. One game is one match, score 1, ½ or 0. No checks, no cache, no output but a count: the least a
pure-Python recalc of that engine has to do.
"""
import csv
import math
import sys
import tomllib
from array import array
from bisect import bisect_left
from datetime import date

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def elo(rows, col, history):
    ia, ib, ir = col["player_a"], col["player_b"], col["result"]
    ratings: dict = {}
    k = 20.0
    for row in rows:
        a, b, s = row[ia], row[ib], SCORES[row[ir]]
        ra, rb = ratings.get(a, 1200.0), ratings.get(b, 1200.0)
        e = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
        change = k * (s - e)
        ratings[a], ratings[b] = ra + change, rb - change
        history[0].append(ra)
        history[1].append(change)
        history[2].append(e)
    return ratings


def volatility(sigma, phi, v, delta, tau):
    """Glicko-2 step 5: the Illinois algorithm for σ'."""
    a = math.log(sigma * sigma)
    phi2, d2, tau2 = phi * phi, delta * delta, tau * tau

    def f(x):
        ex = math.exp(x)
        return ex * (d2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    A = a
    if d2 > phi2 + v:
        B = math.log(d2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fA, fB = f(A), f(B)
    while abs(B - A) > 0.000001:
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C)
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA /= 2.0
        B, fB = C, fC
    return math.exp(A / 2.0)


def glicko(rows, col, history, two):
    """Both papers on the Glicko-2 scale: every game of a month against the others' state at its start."""
    ia, ib, ir, idate = col["player_a"], col["player_b"], col["result"], col["date"]
    scale = 173.7178 if two else 400 / math.log(10)
    c2, tau, max_phi = 34.6 * 34.6, 0.5, 350 / scale
    r: dict = {}
    phi: dict = {}
    sigma: dict = {}
    last: dict = {}
    pi2 = math.pi * math.pi

    def close(month, games):
        onset = {}
        for x in games:
            ph, before = phi.get(x, max_phi), last.get(x)
            if before is not None and month > before:
                if two:
                    idle = month - before - 1
                    if idle > 0:
                        ph = min(math.sqrt(ph * ph + idle * sigma[x] ** 2), max_phi)
                else:
                    ph = min(math.sqrt((ph * scale) ** 2 + c2 * (month - before)), 350) / scale
            onset[x] = ph
        mu = {x: (r.get(x, 1500.0) - 1500) / scale for x in games}
        for x, own in games.items():
            info, terms, es = 0.0, [], []
            for y, s in own:
                gj = 1.0 / math.sqrt(1.0 + 3.0 * onset[y] ** 2 / pi2)
                e = 1.0 / (1.0 + math.exp(-gj * (mu[x] - mu[y])))
                info += gj * gj * e * (1.0 - e)
                terms.append(gj * (s - e))
                es.append(e)
            v = 1.0 / info
            ph = onset[x]
            if two:
                sigma[x] = volatility(sigma.get(x, 0.06), ph, v, v * sum(terms), tau)
                ph = math.sqrt(ph * ph + sigma[x] ** 2)
            new = 1.0 / math.sqrt(1.0 / (ph * ph) + 1.0 / v)
            before = r.get(x, 1500.0)
            for t, e in zip(terms, es):
                change = new * new * t * scale
                history[0].append(before)
                history[1].append(change)
                history[2].append(e)
                before += change
            r[x], phi[x], last[x] = before, new, month

    month, games = None, {}
    for row in rows:
        day = row[idate]
        m = int(day[:4]) * 12 + int(day[5:7]) - 1
        if m != month:
            if games:
                close(month, games)
            month, games = m, {}
        a, b, s = row[ia], row[ib], SCORES[row[ir]]
        games.setdefault(a, []).append((b, s))
        games.setdefault(b, []).append((a, 1.0 - s))
    if games:
        close(month, games)
    return r


def chips(rows, col, history):
    """Seed 001's game rating: chips won (the match length), 80 % of chips lost, × 0.95 a day."""
    ia, ib, ir, il, idate, idisc = (col[name] for name in ("player_a", "player_b", "result", "length", "date", "discipline"))
    rating: dict = {}
    day_of: dict = {}
    ordinal: dict = {}  # each date's text parsed once
    for row in rows:
        day = ordinal.get(row[idate])
        if day is None:
            day = ordinal[row[idate]] = date.fromisoformat(row[idate]).toordinal()
        disc = row[idisc]
        a, b = (disc, row[ia]), (disc, row[ib])
        ra, rb = rating.get(a, 0.0), rating.get(b, 0.0)
        if day_of.get(a, day) != day:
            ra *= 0.95 ** (day - day_of[a])
        if day_of.get(b, day) != day:
            rb *= 0.95 ** (day - day_of[b])
        day_of[a] = day_of[b] = day
        n = float(row[il] or 1)
        change_a, change_b = (n, -0.8 * n) if row[ir] == "1-0" else (-0.8 * n, n)
        rating[a], rating[b] = ra + change_a, rb + change_b
        history[0].append(ra)
        history[1].append(change_a)
        history[2].append(change_b)
    return rating


# Seeds 000 and 002 print the same table: the upper ends of the bands of |D| and the stronger
# player's expected percent (the weaker's is 100 − that); beyond the last band, 100.
UPPER = (3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162, 170,
         179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411,
         432, 456, 484, 517, 559, 619, 735)


def percent(d):
    stronger = 50 + bisect_left(UPPER, abs(d))  # the bands go up by one percent
    return stronger if d >= 0 else 100 - stronger


def quarter(text):
    return int(text[:4]) * 4 + (int(text[5:7]) - 1) // 3


def lists(rows, col, history, start, rate):
    """Quarterly lists: each match rated against the list in force (`start` before one), by
    `rate(own, opponent, score in halves, games so far)` → change; the quarter's changes published on
    its list."""
    ia, ib, ir, idate = col["player_a"], col["player_b"], col["result"], col["date"]
    idisc = col.get("discipline")
    rating, games, pending = {}, {}, {}
    halves = {"1-0": 2, "0-1": 0, "1/2-1/2": 1}
    current = None
    for row in rows:
        q = quarter(row[idate])
        if q != current:
            for x, change in pending.items():
                rating[x] = rating.get(x, start(x)) + change
            current, pending = q, {}
        disc = row[idisc] if idisc is not None else ""
        a, b, h = (disc, row[ia]), (disc, row[ib]), halves[row[ir]]
        ra, rb = rating.get(a), rating.get(b)
        ra, rb = start(a) if ra is None else ra, start(b) if rb is None else rb
        change_a, change_b = rate(ra, rb, h, games.get(a, 0)), rate(rb, ra, 2 - h, games.get(b, 0))
        games[a], games[b] = games.get(a, 0) + 1, games.get(b, 0) + 1
        pending[a] = pending.get(a, 0) + change_a
        pending[b] = pending.get(b, 0) + change_b
        history[0].append(ra)
        history[1].append(change_a)
        history[2].append(change_b)
    for x, change in pending.items():
        rating[x] = rating.get(x, start(x)) + change
    return rating


def away(numerator, denominator):
    """numerator / denominator rounded to a whole number, halves away from zero (denominator > 0)."""
    q, r = divmod(abs(numerator), denominator)
    q += 2 * r >= denominator
    return q if numerator >= 0 else -q


def mfsnb(rows, col, history):
    # R = 10·(P − Pe) = (100·P − Pe%) / 10, P in halves: (50·halves − Pe%) / 10.
    return lists(rows, col, history, lambda x: 1500,
                 lambda own, opp, h, n: away(50 * h - percent(own - opp), 10))


def fide(rows, col, history, ratings_path):
    with open(ratings_path, "rb") as f:
        imported = {("", a["player"]): a["set"] for a in tomllib.load(f)["adjust"]}

    def rate(own, opp, h, n):
        d = max(-400, min(400, own - opp))
        k = 40 if n < 30 else 20 if own < 2400 else 10
        return away(k * (50 * h - percent(d)), 100)   # K·(S − P_D), P_D in hundredths

    return lists(rows, col, history, imported.__getitem__, rate)


def places(points):
    """Seed 001's places by points, best first; equal points share the mean of their places."""
    ranked = sorted(points.items(), key=lambda item: -item[1])
    out, k = {}, 0
    while k < len(ranked):
        end = k
        while end + 1 < len(ranked) and ranked[end + 1][1] == ranked[k][1]:
            end += 1
        for player, _ in ranked[k:end + 1]:
            out[player] = (k + end + 2) / 2
        k = end + 1
    return out


def placement(rows, col, history):
    """Seed 001's tournament rating, per discipline: each ended tournament's places, ratings halved
    every month; history keeps each match's two ratings before, each place's rating before and
    gain, and each halving's rating before."""
    ia, ib, ir, idate, idisc, it = (col[name] for name in ("player_a", "player_b", "result", "date", "discipline",
                                                            "tournament"))
    rating: dict = {}   # (discipline, player) → rating
    points: dict = {}   # (discipline, tournament) → player → points
    week, month = None, None

    def award():
        for (disc, _tid), table in points.items():
            n = len(table)
            for player, place in places(table).items():
                key = (disc, player)
                before = rating.get(key, 0.0)
                gain = 10 * math.log2(n) / place
                rating[key] = before + gain
                history[0].append(before)
                history[1].append(gain)
        points.clear()

    for row in rows:
        day, tid, disc = row[idate], row[it], row[idisc]
        if tid[1:] != week:            # a new week: last week's tournaments have ended
            award()
            week = tid[1:]
        if day[:7] != month:           # a month's first day: every rating halved
            if month is not None:
                for key, before in rating.items():
                    if before:
                        rating[key] = before * 0.5
                        history[2].append(before)
            month = day[:7]
        a, b, s = row[ia], row[ib], SCORES[row[ir]]
        table = points.setdefault((disc, tid), {})
        table[a] = table.get(a, 0.0) + s
        table[b] = table.get(b, 0.0) + 1.0 - s
        history[0].append(rating.get((disc, a), 0.0))
        history[1].append(rating.get((disc, b), 0.0))
    award()
    return rating


def main(engine: str, path: str, extra: str | None = None) -> None:
    history = [array("d"), array("d"), array("d")]  # before, change, expected (or the other's change)
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        col = {name: k for k, name in enumerate(next(rows))}
        if engine == "elo":
            ratings = elo(rows, col, history)
        elif engine in ("glicko", "glicko2"):
            ratings = glicko(rows, col, history, engine == "glicko2")
        elif engine == "fide":
            ratings = fide(rows, col, history, extra)
        else:
            ratings = {"chips": chips, "mfsnb": mfsnb, "placement": placement}[engine](rows, col, history)
    print(len(ratings), len(history[0]))


if __name__ == "__main__":
    main(*sys.argv[1:])
