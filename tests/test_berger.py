"""Round-robin pairings against FIDE's Berger tables (Handbook C.05, Annex 1), every round of every size."""
import re

import pytest

from nardrating.tournaments.berger import berger_round, rounds_of, schedule_round
from nardrating.tournaments.model import PAIRING_ALLOCATED, WITHDRAWN, Entrant, Tournament
from nardrating.tournaments.pairing import PairingError, next_round
from nardrating.tournaments.systems import pairer_for

from .conftest import ROOT

TABLES = ROOT.parent / "shared" / "data" / "pairing" / "berger_fide_tables.txt"


def fide_tables() -> dict[int, dict[int, list[tuple[int, int]]]]:
    """FIDE's tables: players (even) → round → boards (white, black)."""
    tables: dict[int, dict[int, list[tuple[int, int]]]] = {}
    for block in TABLES.read_text(encoding="utf-8").split("\n\n"):
        lines = block.strip().splitlines()
        if not lines:
            continue
        n = int(re.match(r"(\d+) or (\d+) players", lines[0])[2])
        tables[n] = {int(m[1]): [tuple(map(int, p.split("-"))) for p in re.findall(r"\d+-\d+", m[2])]
                     for m in (re.match(r"Rd (\d+): (.*)", line) for line in lines[1:])}
    return tables


# FIDE's tables lie beside the project (../shared/data/pairing); a clone elsewhere skips what reads them.
needs_tables = pytest.mark.skipif(not TABLES.is_file(), reason=f"FIDE's Berger tables are not at {TABLES}")
TABLE = fide_tables() if TABLES.is_file() else {}
CASES = [(n, r) for n, rounds in sorted(TABLE.items()) for r in sorted(rounds)]


@needs_tables
def test_the_file_holds_every_table_from_4_to_16_players():
    assert sorted(TABLE) == [4, 6, 8, 10, 12, 14, 16]
    assert all(sorted(TABLE[n]) == list(range(1, n)) for n in TABLE)
    assert len(CASES) == 3 + 5 + 7 + 9 + 11 + 13 + 15


@pytest.mark.parametrize("n, r", CASES, ids=[f"{n}-players-round-{r}" for n, r in CASES])
@needs_tables
def test_every_round_of_every_table_is_fides(n, r):
    assert berger_round(n, r) == TABLE[n][r]
    assert schedule_round(n - 1, r) == TABLE[n][r]   # an odd field plays the next table, its top number the bye


def odd_field(players: int) -> Tournament:
    return Tournament("rr", pairing="berger", entrants=tuple(
        Entrant(k, f"p{k}", f"P{k}") for k in range(1, players + 1)), bye_points=0)


def test_an_odd_field_gives_the_highest_numbers_opponent_the_bye():
    # 5 players play the 6-player table: round 1 is 1-6, 2-5, 3-4, so player 1 is free (C.05 Annex 1).
    state = odd_field(5)
    played = next_round(state, pairer_for(state))
    assert [(b.white, b.black) for b in played.boards] == [("p2", "p5"), ("p3", "p4")]
    assert [(b.player, b.kind) for b in played.byes] == [("p1", PAIRING_ALLOCATED)]
    assert state.bye_value(PAIRING_ALLOCATED) == 0


def test_every_pair_meets_once_and_the_event_ends():
    state = odd_field(7)
    pairer = pairer_for(state)
    for r in range(rounds_of(7)):
        played = next_round(state, pairer)
        state = state.with_round(played.__class__(played.number, tuple(
            b.__class__(b.board, b.white, b.black, "1/2-1/2") for b in played.boards), played.byes))
    pairs = [frozenset((b.white, b.black)) for r in state.rounds for b in r.boards]
    assert len(pairs) == len(set(pairs)) == 7 * 6 // 2
    with pytest.raises(PairingError, match="is finished: all 7 rounds are paired"):
        next_round(state, pairer)


@needs_tables
def test_double_round_robin_reverses_colours_and_never_gives_three_in_a_row():
    # C.05 Annex 1: the second cycle is the table with colours reversed, and the last two rounds
    # of the first cycle are exchanged; without that exchange player 1 of 8 would have
    # black in rounds 7, 8, 9 (table rounds 7 and, reversed, 1 and 2).
    for n in range(4, 17, 2):
        cycle = n - 1
        assert [schedule_round(n, r, True) for r in range(1, cycle - 1)] == [TABLE[n][r] for r in range(1, cycle - 1)]
        assert schedule_round(n, cycle - 1, True) == TABLE[n][cycle]
        assert schedule_round(n, cycle, True) == TABLE[n][cycle - 1]
        for r in range(1, cycle + 1):
            assert schedule_round(n, cycle + r, True) == [(b, w) for w, b in TABLE[n][r]]
        colours: dict[int, str] = {p: "" for p in range(1, n + 1)}
        for r in range(1, 2 * cycle + 1):
            for w, b in schedule_round(n, r, True):
                colours[w] += "w"
                colours[b] += "b"
        assert not [p for p, seq in colours.items() if "www" in seq or "bbb" in seq], n
    unswapped = [TABLE[8][r] for r in range(1, 8)] + [[(b, w) for w, b in TABLE[8][r]] for r in range(1, 8)]
    player1 = "".join("w" if w == 1 else "b" for boards in unswapped for w, b in boards if 1 in (w, b))
    assert player1[6:9] == "bbb"


def test_a_withdrawn_players_opponent_is_free():
    state = odd_field(5)
    state = Tournament("rr", pairing="berger", entrants=tuple(
        Entrant(k, f"p{k}", f"P{k}", withdrawn=1 if k == 5 else None) for k in range(1, 7)), bye_points=0)
    played = next_round(state, pairer_for(state))  # 6-player table, round 1: 1-6, 2-5, 3-4
    assert [(b.white, b.black) for b in played.boards] == [("p1", "p6"), ("p3", "p4")]
    assert sorted((b.player, b.kind) for b in played.byes) == [("p2", PAIRING_ALLOCATED), ("p5", WITHDRAWN)]


def test_round_robins_refuse_requested_byes():
    state = odd_field(4)
    with pytest.raises(PairingError, match="enter an absent player's game as a forfeit"):
        next_round(state, pairer_for(state), absent=["p1"])
