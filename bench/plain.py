"""The yardsticks of the elo, glicko and glicko2 rows: a bare `csv.reader` over the journal CSV and the
engine's own formulas from the papers, in one plain Python process, keeping each game's record for
history (its rating before, change and expected score, as recalc keeps them).

    python bench/plain.py elo|glicko|glicko2 matches.csv

elo: seed 003, E = 1/(1 + 10^((Rb − Ra)/400)), new = old ± K·(S − E), K 20, start 1200.
glicko: Glickman, "The Glicko system" (monthly periods, RD from 350, c 34.6).
glicko2: Glickman, "Example of the Glicko-2 system" (monthly periods, σ 0.06, τ 0.5, ε 0.000001).
One game is one match, score 1, ½ or 0. No checks, no cache, no output but a count: the least a
pure-Python recalc of that engine has to do.
"""
import csv
import math
import sys
from array import array

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


def main(engine: str, path: str) -> None:
    history = [array("d"), array("d"), array("d")]  # before, change, expected
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        col = {name: k for k, name in enumerate(next(rows))}
        ratings = elo(rows, col, history) if engine == "elo" else glicko(rows, col, history, engine == "glicko2")
    print(len(ratings), len(history[0]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
