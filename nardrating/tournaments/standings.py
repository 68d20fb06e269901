"""Standings with tie-breaks, and the crosstable, as data.

Players are ranked by points, then by each tie-break in the tournament's order (default: for a
Swiss buchholz-cut1, buchholz, sonneborn-berger; for a round-robin sonneborn-berger,
direct-encounter, wins). Direct encounter (FIDE C.07 (2023) Art. 6) is decided within each
group still tied at that point: when every member of the group has met every other (always so
with pre-determined pairings), the points scored in those games rank them (two players who met
more than once count their average); when not all have met, a player is ranked above the rest
only if no one below could overtake them by winning their missing encounters. It is applied
again to the players it leaves tied, as long as it separates some. Players tied on everything
share the rank.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..datarecords import datarecord
from .model import Cell, Entrant, Tournament
from .names import TIEBREAKS
from .tiebreaks import DE, Scorer, Value, default_order


@datarecord(frozen=True)
class Standing:
    """A player's place in the standings: rank (shared when tied on everything), points, tie-break values."""
    rank: int
    entrant: Entrant
    points: float
    tiebreaks: dict[str, Value]


@datarecord(frozen=True)
class CrossRow:
    """One row of the crosstable: the player's standing and their cells, round by round."""
    standing: Standing
    cells: list[Cell]


def unknown_tiebreaks(names: Sequence[str]) -> list[str]:
    return [name for name in names if name not in TIEBREAKS]


def standings(state: Tournament, order: Sequence[str] | None = None) -> list[Standing]:
    """Every entrant ranked (FIDE C.07 (2023) Art. 4: points, then the tie-breaks in order)."""
    order = tuple(order if order is not None else state.tiebreaks or default_order(state))
    scorer = Scorer(state)
    players = [e.player for e in sorted(state.entrants, key=lambda e: e.number)]
    values: dict[str, dict[str, Value]] = {p: {} for p in players}
    functions = scorer.functions()
    for name in order:
        if name != DE:
            for p in players:
                values[p][name] = functions[name](p)
    groups = _split(players, lambda p: scorer.points[p])
    for name in order:
        refined: list[list[str]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif name == DE:
                first = _encounters(scorer, group)
                for p in group:
                    values[p][DE] = first[p]
                refined += _direct_encounter(scorer, group)
            else:
                refined += _split(group, lambda p, name=name: values[p][name])  # type: ignore[misc]
        groups = refined
    by_player = {e.player: e for e in state.entrants}
    found: list[Standing] = []
    for group in groups:
        rank = len(found) + 1
        for p in sorted(group, key=lambda p: by_player[p].number):
            found.append(Standing(rank, by_player[p], scorer.points[p], {n: values[p].get(n) for n in order}))
    return found


def crosstable(state: Tournament, order: Sequence[str] | None = None) -> list[CrossRow]:
    cells = state.cells()
    return [CrossRow(s, cells[s.entrant.player]) for s in standings(state, order)]


def _split(group: list[str], get: Callable[[str], Value]) -> list[list[str]]:
    """The group in descending order of `get`, split where it changes (None ranks last)."""
    ordered = sorted(group, key=lambda p: (get(p) is None, -(get(p) or 0)))
    out: list[list[str]] = []
    last: Value | object = object()
    for p in ordered:
        v = get(p)
        if not out or v != last:
            out.append([])
        out[-1].append(p)
        last = v
    return out


def _encounters(scorer: Scorer, group: list[str]) -> dict[str, Value]:
    return {p: _met(scorer, p, set(group))[0] for p in group}


def _met(scorer: Scorer, player: str, members: set[str]) -> tuple[float, int]:
    """(points against the other members, how many of them the player met)."""
    by_opponent: dict[str, list[float]] = {}
    for c in scorer.cells[player]:
        counts = c.played or scorer.state.round_robin and c.kind == "forfeit"
        if counts and c.opponent in members and c.opponent != player:
            by_opponent.setdefault(c.opponent, []).append(c.points)
    return sum((sum(v) / len(v) for v in by_opponent.values()), 0.0), len(by_opponent)


def _direct_encounter(scorer: Scorer, group: list[str]) -> list[list[str]]:
    members = set(group)
    met = {p: _met(scorer, p, members) for p in group}
    others = len(group) - 1
    if scorer.state.round_robin or all(n == others for _, n in met.values()):
        parts = _split(group, lambda p: met[p][0])
    else:  # Art. 6.2: separated only where the players below cannot catch up
        best = {p: met[p][0] + (others - met[p][1]) for p in group}
        ordered = sorted(group, key=lambda p: (-met[p][0], -best[p]))
        parts = []
        for k, p in enumerate(ordered):
            rest = ordered[k + 1:]
            if rest and met[p][0] > max(best[q] for q in rest):
                parts.append([p])
            else:
                parts.append([p, *rest])
                break
    if len(parts) == 1:
        return parts
    return [sub for part in parts for sub in (_direct_encounter(scorer, part) if len(part) > 1 else [part])]
