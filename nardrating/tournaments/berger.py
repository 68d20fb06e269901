"""Round-robin pairings by FIDE's Berger tables (FIDE Handbook C.05, Annex 1).

For n players (n even; an odd field plays as n + 1, "the highest number counts as a bye"),
round r pairs x = ((r − 1)·n/2 mod (n − 1)) + 1 with n on board 1 — n has black in odd rounds
and white in even ones — and then x + k against x − k (numbers 1 … n − 1 taken cyclically),
x + k with white, for k = 1 … n/2 − 1. This reproduces every round of the tables C.05 prints
(tested against them for 3/4 to 15/16 players).

A double round-robin plays the table twice, the second cycle with the colours reversed; as
C.05 Annex 1 recommends, the last two rounds of the first cycle are exchanged, so that no
player has the same colour three times running across the two cycles.
"""
from __future__ import annotations


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """The boards (white, black) of round r (1 … n−1) for n players, n even, by pairing number."""
    if n % 2 or n < 2 or not 1 <= r <= n - 1:
        raise ValueError(f"no Berger round {r} for {n} players")
    m = n - 1
    x = (r - 1) * (n // 2) % m + 1
    boards = [(x, n) if r % 2 else (n, x)]

    def cyclic(v: int) -> int:
        return (v - 1) % m + 1

    boards += [(cyclic(x + k), cyclic(x - k)) for k in range(1, n // 2)]
    return boards


def table_size(players: int) -> int:
    """The table an odd field plays by: the next even number."""
    return players + players % 2


def rounds_of(players: int, double: bool = False) -> int:
    n = table_size(players)
    return (n - 1) * (2 if double else 1)


def schedule_round(players: int, r: int, double: bool = False) -> list[tuple[int, int]]:
    """Round r of a (double) round-robin of `players`; pairs with the number players + 1 (the
    bye of an odd field) included, so the caller sees who is free."""
    n = table_size(players)
    cycle = n - 1
    if not 1 <= r <= rounds_of(players, double):
        raise ValueError(f"round {r} is beyond the {rounds_of(players, double)} rounds of the table")
    if not double:
        return berger_round(n, r)
    if r <= cycle:
        if cycle >= 3 and r >= cycle - 1:
            r = 2 * cycle - 1 - r  # the last two rounds of the first cycle exchanged
        return berger_round(n, r)
    return [(b, w) for w, b in berger_round(n, r - cycle)]
