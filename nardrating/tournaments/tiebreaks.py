"""FIDE's tie-breaks (Handbook C.07, the Tie-Break Regulations of 2023), each player's value.

Article numbers are the 2023 edition's. How unplayed rounds count (Art. 16):
- a round a player did not play over the board is "unplayed": forfeits, byes, absences, rounds
  after a withdrawal or before a late entry; the voluntarily unplayed rounds (VUR) among them
  are requested byes, absences, forfeit losses and withdrawals; a pairing-allocated or
  full-point bye and a forfeit win are not voluntary (model.Cell.voluntary);
- an opponent's score, as it enters another player's Buchholz or Sonneborn-Berger (Art. 16.3),
  is their score with every VUR after their last round that was not one (a withdrawal's tail,
  a run of closing byes) counted as a draw; forfeits keep their result;
- a player's own unplayed round counts, in a Swiss, as a game against a dummy opponent whose
  score is the player's own (Art. 16.4); for Sonneborn-Berger that is multiplied by the points
  the round gave (a pairing-allocated bye: 1 × own score; a forfeit loss: 0);
- with pre-determined pairings (round-robin) a forfeit is a game against the scheduled opponent
  and a bye contributes nothing (Art. 16).
The Cut-1 and Median-1 modifiers (Art. 14.1, 14.3) cut the least significant value, a VUR's first
when the player has any (Art. 14.6), and Median-1 also the most significant.
Checked on Mario Held's worked exercises for the 2023 regulations (tests/test_tiebreaks.py).
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

from ..i18n import N_
from .model import PAIRING_ALLOCATED, Cell, Tournament
from .names import TIEBREAKS

BUCHHOLZ, CUT1, MEDIAN, SB, DE, WINS, BLACK, ARO, PROGRESSIVE, KOYA = (
    "buchholz", "buchholz-cut1", "median-buchholz", "sonneborn-berger", "direct-encounter", "wins",
    "black-games", "aro", "progressive", "koya")
assert TIEBREAKS == (BUCHHOLZ, CUT1, MEDIAN, SB, DE, WINS, BLACK, ARO, PROGRESSIVE, KOYA)
SWISS_DEFAULT = (CUT1, BUCHHOLZ, SB)
ROUND_ROBIN_DEFAULT = (SB, DE, WINS)
HEADINGS = {BUCHHOLZ: N_("Buchholz"), CUT1: N_("Buchholz cut 1"), MEDIAN: N_("Median Buchholz"),
            SB: N_("Sonneborn-Berger"), DE: N_("Direct encounter"), WINS: N_("Wins"), BLACK: N_("Games with black"),
            ARO: N_("ARO"), PROGRESSIVE: N_("Progressive"), KOYA: N_("Koya")}
DRAW = 0.5

Value = float | int | None


class Item(NamedTuple):
    """One round's contribution: the (opponent's or dummy's) score, the value it adds, and whether
    the round was voluntarily unplayed (cut first, Art. 14.6)."""
    score: float
    value: float
    voluntary: bool


def default_order(state: Tournament) -> tuple[str, ...]:
    return ROUND_ROBIN_DEFAULT if state.round_robin else SWISS_DEFAULT


class Scorer:
    """Every tie-break of one state, computed from its cells once."""

    def __init__(self, state: Tournament) -> None:
        self.state = state
        self.cells = state.cells()
        self.points = {p: sum(c.points for c in cs) for p, cs in self.cells.items()}
        self.adjusted = self.points if state.round_robin else {p: _adjusted(cs) for p, cs in self.cells.items()}
        self.ratings = {e.player: e.rating for e in state.entrants}

    def value(self, name: str, player: str) -> Value:
        return self.functions()[name](player)

    def functions(self) -> dict[str, Callable[[str], Value]]:
        return {BUCHHOLZ: lambda p: _total(self.items(p, False)), CUT1: lambda p: _total(_cut(self.items(p, False), 1, 0)),
                MEDIAN: lambda p: _total(_cut(self.items(p, False), 1, 1)), SB: lambda p: _total(self.items(p, True)),
                WINS: self.wins, BLACK: self.black_games, ARO: self.aro, PROGRESSIVE: self.progressive,
                KOYA: self.koya}

    def items(self, player: str, sonneborn: bool) -> list[Item]:
        """Buchholz (Art. 8.1: the opponents' scores) or Sonneborn-Berger (Art. 9.1: each score times
        the points scored against that opponent), round by round, unplayed rounds per Art. 16."""
        own = self.points[player]
        found = []
        for c in self.cells[player]:
            if self.state.round_robin:
                if c.opponent is None:
                    continue
                score = self.points[c.opponent]
            elif c.played and c.opponent is not None:
                score = self.adjusted[c.opponent]
            else:
                score = own  # the dummy opponent of an unplayed round (Art. 16.4)
            found.append(Item(score, score * c.points if sonneborn else score,
                              c.voluntary and not self.state.round_robin))
        return found

    def wins(self, player: str) -> int:
        """Art. 7.1: rounds that gave a win's points, played or not (forfeit wins, a pairing-allocated
        bye worth a point, a full-point bye)."""
        return sum(1 for c in self.cells[player] if c.points == 1)

    def black_games(self, player: str) -> int:
        """Art. 7.3: games played over the board with black."""
        return sum(1 for c in self.cells[player] if c.played and c.colour == "b")

    def progressive(self, player: str) -> float:
        """Art. 7.5: the sum of the player's running scores after each round."""
        running = total = 0.0
        for c in self.cells[player]:
            running += c.points
            total += running
        return total

    def koya(self, player: str) -> float:
        """Art. 9.2: the points scored against opponents who scored at least half their maximum
        possible score (with pre-determined pairings a forfeit counts against its scheduled opponent)."""
        total = 0.0
        for c in self.cells[player]:
            if c.opponent is None or not (c.played or self.state.round_robin):
                continue
            if self.points[c.opponent] >= self._possible(c.opponent) / 2:
                total += c.points
        return total

    def _possible(self, player: str) -> float:
        # A round's win each, but in a round-robin the table's free round scores nothing unless bye_points say so.
        cells = self.cells[player]
        free = sum(1 for c in cells if c.kind == PAIRING_ALLOCATED) if self.state.bye_points == 0 else 0
        return float(len(cells) - free)

    def aro(self, player: str) -> int | None:
        """Art. 10.1: the average rating of the opponents of games played over the board (rated
        opponents only), rounded to the nearest whole number, halves up; None without one."""
        ratings = [self.ratings[c.opponent] for c in self.cells[player] if c.played and c.opponent is not None]
        known = [Fraction(r) for r in ratings if r is not None]
        if not known:
            return None
        mean = sum(known, Fraction(0)) / len(known)
        return int((2 * mean.numerator + mean.denominator) // (2 * mean.denominator))


def _adjusted(cells: list[Cell]) -> float:
    """Art. 16.3: the score as others' tie-breaks see it: a VUR without a scheduled opponent after the
    player's last round that was not voluntarily unplayed counts as a draw."""
    last = max((c.round for c in cells if not c.voluntary), default=0)
    return sum(c.points if c.round <= last or c.opponent is not None else DRAW for c in cells)


def _total(items: list[Item]) -> float:
    return sum((item.value for item in items), 0.0)


def _cut(items: list[Item], low: int, high: int) -> list[Item]:
    """Art. 14.1/14.3: drop `low` least significant values (a VUR's first, Art. 14.6) and `high` most."""
    kept = list(items)
    for _ in range(min(low, len(kept))):
        voluntary = [item for item in kept if item.voluntary]
        kept.remove(min(voluntary or kept, key=lambda item: (item.score, item.value)))
    for _ in range(min(high, len(kept))):
        kept.remove(max(kept, key=lambda item: (item.score, item.value)))
    return kept
