"""Tournament states for the tests: read from a TRF's round cells, or generated at random."""
from __future__ import annotations

import random
from dataclasses import replace

from nardrating.tournaments.model import (ABSENT, FULL_POINT, HALF_POINT, PAIRING_ALLOCATED, Board, Bye, Entrant,
                                          Round, Tournament)

Cells = dict[int, tuple[str, float | None, list[tuple[int, str, str]]]]  # number → (name, rating, cells)
BYE_OF = {"U": PAIRING_ALLOCATED, "+": PAIRING_ALLOCATED, "F": FULL_POINT, "H": HALF_POINT}
RESULT_OF = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2", ("+", "-"): "+-", ("-", "+"): "-+",
             ("-", "-"): "--", ("W", "L"): "1-0", ("L", "W"): "0-1", ("D", "D"): "1/2-1/2"}


def trf_cells(text: str) -> Cells:
    """Each 001 line's start number, name, rating and round cells (opponent, colour, code)."""
    found: Cells = {}
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        body = line.rstrip()
        cells = []
        for start in range(91, len(body), 10):
            cell = body[start:start + 8].ljust(8)
            cells.append((int(cell[:4].strip() or 0), cell[5], cell[7].upper()))
        rating = line[48:52].strip()
        found[int(line[4:8])] = (line[14:47].strip(), float(rating) if rating.isdigit() else None, cells)
    return found


def trf_state(text: str, upto: int | None = None, pairing: str | None = "dutch", planned: int | None = None,
              drop: frozenset[int] = frozenset(), system: str = "swiss") -> Tournament:
    """The state after `upto` rounds (all by default); players are "p<start number>"; a cell
    without an opponent is a bye of its code's kind (U and a lone + are pairing-allocated)."""
    players = {k: v for k, v in trf_cells(text).items() if k not in drop}
    rounds = max(len(c) for _, _, c in players.values())
    entrants = tuple(Entrant(k, f"p{k}", name, rating) for k, (name, rating, _) in sorted(players.items()))
    played = []
    for r in range(rounds if upto is None else upto):
        boards, byes = [], []
        for k, (_, _, cells) in sorted(players.items()):
            opponent, colour, code = cells[r] if r < len(cells) else (0, "-", " ")
            if opponent and opponent in players:
                if colour == "w" or colour not in "wb" and k < opponent:
                    other = players[opponent][2][r][2]
                    boards.append(Board(len(boards) + 1, f"p{k}", f"p{opponent}", RESULT_OF[(code, other)]))
            else:
                byes.append(Bye(f"p{k}", BYE_OF.get(code, ABSENT)))
        played.append(Round(r + 1, tuple(boards), tuple(byes)))
    return Tournament("t", "t", pairing, planned or rounds, entrants, tuple(played), system=system)


def random_tournament(seed: int, players: int, rounds: int, pairer, *, absences: float = 0.05,
                      half_byes: float = 0.03, withdrawals: float = 0.02, late: int = 0, forfeits: float = 0.03,
                      draws: float = 0.3, checks=None) -> Tournament:
    """An event paired round by round by `pairer`, with random results, absences, half-point byes,
    withdrawals, forfeits and `late` late entries (joining in round 2 or 3); `checks(state, round)`
    is called on every round the pairer makes, before its results."""
    from nardrating.tournaments.pairing import next_round

    rng = random.Random(seed)
    entrants = [Entrant(k, f"p{k}", f"Player {k}", 2400 - 7 * k, joined=1) for k in range(1, players + 1)]
    for k in range(late):
        entrants.append(Entrant(players + k + 1, f"p{players + k + 1}", "Late", 1500, joined=rng.choice((2, 3))))
    state = Tournament("r", "random", "dutch", rounds, tuple(entrants))
    strength = {e.player: rng.gauss(0, 1) - e.number / 20 for e in entrants}
    for number in range(1, rounds + 1):
        active = [e for e in state.entrants if e.active_in(number)]
        gone = [e for e in active if number > 1 and rng.random() < withdrawals]
        if gone:
            state = replace(state, entrants=tuple(replace(e, withdrawn=number) if e in gone else e
                                                  for e in state.entrants), _cells=None)
            active = [e for e in active if e not in gone]
        away = [e.player for e in active if rng.random() < absences]
        halves = [e.player for e in active if e.player not in away and rng.random() < half_byes]
        paired = next_round(state, pairer, absent=away, half_byes=halves)
        if checks is not None:
            checks(state, paired)
        boards = []
        for b in paired.boards:
            if rng.random() < forfeits:
                result = rng.choice(("+-", "-+"))
            else:
                edge = strength[b.white] - strength[b.black] + 0.1
                u = rng.random()
                result = "1/2-1/2" if u < draws else "1-0" if rng.random() < 1 / (1 + 10 ** (-edge)) else "0-1"
            boards.append(replace(b, result=result))
        state = state.with_round(replace(paired, boards=tuple(boards)))
    return state


def absolute_criteria(state: Tournament, paired: Round) -> list[str]:
    """What breaks FIDE's absolute criteria in a round the Dutch system paired (C.04.3 C1-C3, with
    C.04.1): two players meeting again (a forfeit is no game), a second pairing-allocated bye or one
    after a forfeit win, a colour difference beyond ±2 or the same colour three times running — the
    colour rules bind every player except topscorers in the last round and their opponents (A.7)."""
    cells = state.cells()
    wrong = []
    met = state.played_pairs()
    for b in paired.boards:
        if frozenset((b.white, b.black)) in met:
            wrong.append(f"round {paired.number}: {b.white} and {b.black} meet again")
    for bye in paired.byes:
        if bye.kind == PAIRING_ALLOCATED:
            before = cells[bye.player]
            if any(c.kind == PAIRING_ALLOCATED or c.kind == "forfeit" and c.points == 1 for c in before):
                wrong.append(f"round {paired.number}: {bye.player} has a second bye (or one after a forfeit win)")
    last = paired.number == state.rounds_planned
    top = {p for p, cs in cells.items() if last and sum(c.points for c in cs) > len(cs) / 2}
    for b in paired.boards:
        if top & {b.white, b.black}:
            continue
        for player, colour in ((b.white, "w"), (b.black, "b")):
            colours = [c.colour for c in cells[player] if c.played] + [colour]
            if abs(colours.count("w") - colours.count("b")) > 2:
                wrong.append(f"round {paired.number}: {player}'s colour difference passes 2")
            if "".join(colours[-3:]) in ("www", "bbb"):
                wrong.append(f"round {paired.number}: {player} has {colour} a third time running")
    return wrong
