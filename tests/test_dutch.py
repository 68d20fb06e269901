"""The Dutch system through py4swiss (the `pairing` extra): FIDE's sample tournament replayed round by
round, and random tournaments checked against FIDE's absolute criteria on every round paired."""
import json
from dataclasses import replace

import pytest

from nardrating.tournaments.dutch import DutchPairer
from nardrating.tournaments.model import PAIRING_ALLOCATED
from nardrating.tournaments.pairing import next_round

from .conftest import ROOT
from .tournament_support import absolute_criteria, random_tournament, trf_cells, trf_state

pytest.importorskip("py4swiss", reason="the Dutch system needs the pairing extra: pip install -e '.[pairing]'")

EXAMPLE = (ROOT.parent / "shared" / "data" / "imports" / "example1.trf").read_text(encoding="utf-8")
SPIELFREI = 284  # the file's dummy player "spielfrei" (no one: it plays no game)


def replay_round(r: int, by_hand: tuple[int, ...] = ()) -> tuple[set[frozenset[str]], set[frozenset[str]], list[str]]:
    """(pairs as played, pairs the engine makes, its byes) for round r from the state after r − 1 rounds;
    the players the file shows without an opponent in round r (absent, withdrawn, not yet entered) are
    left out, as the arbiter did, and so are `by_hand`, the players of a board the arbiter made."""
    cells = trf_cells(EXAMPLE)
    state = trf_state(EXAMPLE, upto=r - 1, drop=frozenset({SPIELFREI}))
    away = [f"p{k}" for k, (_, _, cs) in cells.items() if k != SPIELFREI and (r > len(cs) or not cs[r - 1][0])
            and (r > len(cs) or cs[r - 1][2] not in "U+")]
    paired = next_round(state, DutchPairer(), absent=away + [f"p{k}" for k in by_hand])
    as_played = {frozenset((b.white, b.black)) for b in trf_state(EXAMPLE, drop=frozenset({SPIELFREI})).rounds[r - 1].boards}
    return as_played, {frozenset((b.white, b.black)) for b in paired.boards}, \
        [b.player for b in paired.byes if b.kind == PAIRING_ALLOCATED]


@pytest.mark.slow  # seven 283-player rounds: about 8 s of CPU
def test_fides_sample_tournament_replayed_round_by_round():
    # The 9th Karl-Mala-Gedenkturnier (Frankfurt, 2005; FIDE's sample TRF): 283 players, 7 rounds,
    # paired in 2005 by a program of the Dutch rules then in force, with these arbiter's decisions:
    # - round 1: 177 Roemhild v 259 Sell is a pair made by hand (both in the lower half), and the
    #   unrated 223 Hummel and 224 Neiss were in the other order (their opponents 83 and 82 are
    #   swapped); 276 Henrich entered late (round 2);
    # - withdrawals: 13 Bakhmatov after round 1 (lost it by forfeit), 121 Glatzel, 126 Heinzer and 179
    #   Grosse after round 4, 27 Kiese after round 5, 156 Holloway and 180 Wimmer after round 6;
    # - rounds 2-4, 6 and 7 differ where the 2005 rules chose other floaters than C.04.3 (the rules in
    #   force until 31 January 2026): the state before each round is the file's, so each round's
    #   differences are that round's own.
    reproduced, total = {}, 0
    for r in range(1, 8):
        as_played, engine, byes = replay_round(r, by_hand=(177, 259) if r == 1 else ())
        reproduced[r] = len(as_played & engine)
        total += len(as_played)
        if r == 1:
            hand_made = {frozenset(("p177", "p259")), frozenset(("p83", "p223")), frozenset(("p82", "p224"))}
            assert as_played - engine == hand_made
            assert engine - as_played == {frozenset(("p83", "p224")), frozenset(("p82", "p223"))}
        if r == 5:
            assert as_played == engine and byes == ["p282"]   # as played, the bye to 282 included
    assert total == 980                                       # every board of the file, forfeits included
    # 851 of 980 boards as played (rounds 1-7: 138, 109, 87, 121, 139, 121, 136), measured on this
    # code with py4swiss 0.3.1: a floor, so that a change that pairs further from the record shows.
    assert sum(reproduced.values()) >= 851, reproduced


CASES = [(1, 24, 7, 0), (2, 41, 9, 2), (3, 15, 5, 0), (4, 60, 7, 3)]


@pytest.mark.parametrize("seed, players, rounds, late", CASES, ids=[f"seed-{c[0]}-{c[1]}-players" for c in CASES])
def test_random_tournaments_keep_fides_absolute_criteria(seed, players, rounds, late):
    broken: list[str] = []
    checked = []

    def check(state, paired):
        checked.append(paired.number)
        broken.extend(absolute_criteria(state, paired))

    random_tournament(seed, players, rounds, DutchPairer(), late=late, absences=0.06, half_byes=0.04,
                      withdrawals=0.03, forfeits=0.04, checks=check)
    assert checked == list(range(1, rounds + 1))
    assert broken == []


def test_the_checker_sees_a_broken_round():
    state = random_tournament(5, 8, 2, DutchPairer())
    again = state.rounds[0]
    second = again.__class__(3, again.boards, again.byes)
    assert any("meet again" in w for w in absolute_criteria(state, second))
    from nardrating.tournaments.model import Board, Entrant, Round, Tournament

    entrants = tuple(Entrant(k, f"p{k}", f"P{k}") for k in range(1, 5))
    twice_white = Tournament("c", pairing="dutch", rounds_planned=5, entrants=entrants, rounds=(
        Round(1, (Board(1, "p1", "p2", "1-0"), Board(2, "p3", "p4", "1-0"))),
        Round(2, (Board(1, "p1", "p3", "1-0"), Board(2, "p4", "p2", "1-0")))))
    third = Round(3, (Board(1, "p1", "p4"), Board(2, "p2", "p3")))
    assert absolute_criteria(twice_white, third) == ["round 3: p1's colour difference passes 2",
                                                     "round 3: p1 has w a third time running"]
    # In the last round a topscorer (p1: 2 of 2) and their opponent are exempt (C.04.3 A.7).
    assert absolute_criteria(replace(twice_white, rounds_planned=3), third) == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 30))
def test_many_random_tournaments_keep_fides_absolute_criteria(seed):
    import random

    rng = random.Random(seed)
    players, rounds = rng.randint(9, 120), rng.randint(5, 11)
    broken: list[str] = []
    random_tournament(seed, players, rounds, DutchPairer(), late=rng.randint(0, 4), absences=rng.uniform(0, 0.1),
                      half_byes=rng.uniform(0, 0.08), withdrawals=rng.uniform(0, 0.05), forfeits=rng.uniform(0, 0.08),
                      checks=lambda state, paired: broken.extend(absolute_criteria(state, paired)))
    assert broken == []


@pytest.mark.slow  # a 283-player round through the command line
def test_an_imported_tournament_in_progress_is_continued_by_pair(cli, tmp_path):
    # FIDE's sample cut after round 4, its XXR saying 7: `pair` pairs round 5 from the journal. The
    # cut file knows of no withdrawal (Bakhmatov's absences are no withdrawal in a file in progress),
    # so all 283 players are paired: 141 boards and a bye.
    from .conftest import make_club
    from .test_import_files import write

    lines = []
    for line in EXAMPLE.splitlines():
        if line.startswith("001"):
            line = line[:91 + 4 * 10].rstrip()
        lines.append(line)
    club = make_club(tmp_path / "club")
    imported = cli("import", write(tmp_path, "cut.trf", "\n".join(lines) + "\nXXR 7\n"), "--club", club)
    assert imported.exit_code == 0, imported.output
    assert "in progress, 4 of 7 rounds" in imported.stdout
    paired = cli("pair", "9-karl-mala-gedenkturnier-2005", "--date", "2005-07-30", "--format", "json", "--club", club)
    assert paired.exit_code == 0, paired.output
    made = json.loads(paired.stdout)
    assert (made["round"], len(made["pairs"])) == (5, 141)
    assert [b["kind"] for b in made["byes"]] == ["pairing-allocated"]
    assert cli("check", "--club", club).exit_code == 0


def test_pairing_a_round_of_a_dated_event(cli, tmp_path):
    # The sample club's spring open (rounds dated): round 4's results in, round 5 paired by the Dutch
    # system and written; the TRF given to py4swiss must not trip on the rounds' dates.
    import shutil

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", club)
    assert cli("results", "spring-open", club / "round-4.txt", "--club", club).exit_code == 0
    paired = cli("pair", "spring-open", "--date", "2025-03-29", "--format", "json", "--club", club)
    assert paired.exit_code == 0, paired.output
    made = json.loads(paired.stdout)
    assert (made["round"], len(made["pairs"]), made["byes"]) == (5, 5, [])
    assert cli("check", "--club", club).exit_code == 0
    assert cli("pair", "spring-open", "--date", "2025-03-29", "--club", club).exit_code == 1  # round 5 has no results
