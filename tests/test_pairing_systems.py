"""The pairing interface and its systems that need no extra: knockout, losses, the TRF(x) a Dutch engine
reads, an external engine named by a command, and the refusals every system shares."""
import random
import sys
from dataclasses import replace

import pytest

from nardrating.tournaments.knockout import bracket, seeding
from nardrating.tournaments.model import (ABSENT, HALF_POINT, PAIRING_ALLOCATED, WITHDRAWN, Board, Bye, Entrant,
                                          Round, Tournament)
from nardrating.tournaments.pairing import PairingError, next_round
from nardrating.tournaments.systems import pairer_for
from nardrating.tournaments.trfx import read_pairs, write_trf


def field(n: int, pairing: str, **kw) -> Tournament:
    return Tournament("t", "Cup", pairing, entrants=tuple(Entrant(k, f"p{k}", f"Player {k}", 2000 - k)
                                                           for k in range(1, n + 1)), **kw)


def played(state: Tournament, results: dict[int, str] | None = None, default: str = "1-0") -> Tournament:
    """The next round paired by the state's own system, with results (by board)."""
    r = next_round(state, pairer_for(state))
    boards = tuple(replace(b, result=(results or {}).get(b.board, default)) for b in r.boards)
    return state.with_round(replace(r, boards=boards))


def pairs(r: Round) -> list[tuple[str, str]]:
    return [(b.white, b.black) for b in r.boards]


def test_seeding_order_keeps_the_top_seeds_apart():
    assert seeding(2) == [1, 2]
    assert seeding(4) == [1, 4, 2, 3]
    assert seeding(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_knockout_gives_byes_to_the_top_seeds_and_pairs_the_winners():
    state = field(6, "knockout")
    # 8 slots, 1 8 4 5 2 7 3 6: seeds 7 and 8 do not exist, so seeds 1 and 2 have byes.
    state = played(state, {1: "0-1", 2: "1-0"})   # 4-5: 5 wins; 3-6: 3 wins
    first = state.rounds[0]
    assert pairs(first) == [("p4", "p5"), ("p3", "p6")]
    assert sorted((b.player, b.kind) for b in first.byes) == [("p1", PAIRING_ALLOCATED), ("p2", PAIRING_ALLOCATED)]
    state = played(state, {1: "0-1", 2: "-+"})    # 5 v 1: 1 wins; 2 v 3: black (3) wins by forfeit
    # Colours: 5 had black in round 1 and 1 no game, so 5 takes white; 2 (no game) and 3 (white): 2.
    assert pairs(state.rounds[1]) == [("p5", "p1"), ("p2", "p3")]
    assert bracket(state) == ["p1", "p3"]
    state = played(state)
    assert pairs(state.rounds[2]) == [("p1", "p3")]  # 1: a black; 3: a white (its forfeit is no game)
    with pytest.raises(PairingError, match="is finished"):
        next_round(state, pairer_for(state))


def test_a_drawn_knockout_game_must_be_decided_first():
    state = played(field(4, "knockout"), {1: "1/2-1/2"})
    with pytest.raises(PairingError, match="board 1 .* has no winner; a knockout needs one"):
        next_round(state, pairer_for(state))


def test_losses_system_pairs_until_max_losses():
    rng = random.Random(7)
    state = field(9, "losses", max_losses=2)
    seen: set[frozenset[str]] = set()
    for _ in range(30):
        pairer = pairer_for(state)
        if pairer.finished(state):
            break
        try:
            r = next_round(state, pairer)
        except PairingError as exc:  # those left have all met: the event cannot go on without a rematch
            assert "cannot be paired without two players meeting again" in str(exc)
            left = [e.player for e in state.entrants if state.losses(e.player) < 2]
            assert sum(frozenset((a, b)) not in seen for a in left for b in left if a < b) < len(left) // 2
            break
        out = {p for p in (e.player for e in state.entrants) if state.losses(p) >= 2}
        paired = {p for b in r.boards for p in (b.white, b.black)}
        assert not paired & out                               # rule 1: two losses and out
        for b in r.boards:
            assert frozenset((b.white, b.black)) not in seen  # rule 4: never paired twice
            seen.add(frozenset((b.white, b.black)))
        points = {p: state.points(p) for p in paired}
        # rule 2/4: the top-ranked player meets someone of their own score when one is left unpaired
        top = r.boards[0]
        assert points[top.white] == points[top.black] or len({points[p] for p in paired}) > 1
        state = state.with_round(replace(r, boards=tuple(replace(b, result=rng.choice(("1-0", "0-1")))
                                                         for b in r.boards)))
    byes = [b.player for r in state.rounds for b in r.byes if b.kind == PAIRING_ALLOCATED]
    assert len(byes) == len(set(byes)) or len(left) < 3    # rule 3: a second bye only when all had one


def test_losses_needs_max_losses():
    with pytest.raises(PairingError, match="gives no max_losses"):
        next_round(field(4, "losses"), pairer_for(field(4, "losses")))


def test_losses_bye_goes_to_the_lowest_ranked_without_one_and_is_no_loss():
    state = played(field(5, "losses", max_losses=3))
    assert [(b.player, b.kind) for b in state.rounds[0].byes] == [("p5", PAIRING_ALLOCATED)]
    assert state.losses("p5") == 0 and state.points("p5") == 1.0
    state = played(state)
    assert [b.player for b in state.rounds[1].byes] != ["p5"]


def test_next_round_refusals_name_what_is_wrong():
    state = field(4, "knockout")
    open_round = state.with_round(Round(1, (Board(1, "p1", "p4", "1-0"), Board(2, "p2", "p3"))))
    with pytest.raises(PairingError, match=r"round 1 has no result on board 2; enter them first"):
        next_round(open_round, pairer_for(open_round))
    swiss = field(4, "losses", max_losses=3)
    with pytest.raises(PairingError, match="--absent zz: 'zz' is not an entrant of 't'"):
        next_round(swiss, pairer_for(swiss), absent=["zz"])
    gone = replace(swiss, entrants=tuple(replace(e, withdrawn=1) if e.number == 2 else e for e in swiss.entrants))
    with pytest.raises(PairingError, match="--half-bye p2: 'p2' is not in round 1"):
        next_round(gone, pairer_for(gone), half_byes=["p2"])
    with pytest.raises(PairingError, match="has no pairing system; add pairing = one of berger"):
        pairer_for(replace(swiss, pairing=None))


def test_requested_byes_and_withdrawals_are_the_rounds_byes():
    state = field(6, "losses", max_losses=3)
    state = replace(state, entrants=tuple(replace(e, withdrawn=1) if e.number == 6 else e for e in state.entrants))
    r = next_round(state, pairer_for(state), absent=["p1"], half_byes=["p2"])
    # p3, p4, p5 are left: p3-p4 play, the lowest-ranked, p5, has the pairing-allocated bye.
    assert sorted((b.player, b.kind) for b in r.byes) == [("p1", ABSENT), ("p2", HALF_POINT),
                                                           ("p5", PAIRING_ALLOCATED), ("p6", WITHDRAWN)]
    assert pairs(r) == [("p3", "p4")]


def test_the_trf_an_engine_reads():
    state = field(3, "dutch", rounds_planned=5, forbidden=frozenset({frozenset(("p1", "p3"))}))
    state = state.with_round(Round(1, (Board(1, "p1", "p2", "+-"),), (Bye("p3", HALF_POINT),)))
    text = write_trf(state, pairing={"p2": ABSENT})
    lines = text.splitlines()
    row = {line[4:8].strip(): line for line in lines if line.startswith("001")}
    # columns of TRF-16: start number 5-8, name 15-47, rating 49-52, points 81-84, rank 86-89, rounds from 92
    assert row["1"][14:47].strip() == "Player 1" and row["1"][48:52] == "1999" and row["1"][80:84] == " 1.0"
    assert row["1"][91:99] == "   2 w +"
    assert (row["2"][91:99], row["2"][101:109]) == ("   1 b -", "0000 - Z")   # the round to pair: p2 left out
    assert row["3"][91:99] == "0000 - H" and row["3"][80:84] == " 0.5"
    assert "XXR 5" in lines and "XXC white1" in lines and "XXP 1 3" in lines


def test_a_pairs_file_is_read_and_checked():
    state = field(3, "dutch", rounds_planned=3)
    assert read_pairs("2\n3 1\n2 0\n", state) == [(3, 1), (2, 0)]
    for text, why in (("", "first line"), ("2\n1 2\n", "announces 2 pairs but lists 1"),
                      ("1\n1 9\n", "not two players"), ("1\n1 x\n", "not two pairing numbers")):
        with pytest.raises(ValueError, match=why):
            read_pairs(text, state)


FAKE_ENGINE = """import sys
trf, out = sys.argv[1], sys.argv[2]
numbers = [int(line[4:8]) for line in open(trf) if line.startswith("001") and len(line.rstrip()) <= {cut}]
pairs = [(numbers[k], numbers[k + 1]) for k in range(0, len(numbers) - 1, 2)]
if len(numbers) % 2:
    pairs.append((numbers[-1], 0))
open(out, "w").write(f"{{len(pairs)}}\\n" + "".join(f"{{w}} {{b}}\\n" for w, b in pairs))
"""


def test_an_external_engine_named_by_a_command(tmp_path):
    # A stand-in for bbpPairings: pairs the players of the TRF without a cell for the round, in order.
    engine = tmp_path / "engine.py"
    engine.write_text(FAKE_ENGINE.format(cut=91), encoding="utf-8")
    state = field(5, "dutch", rounds_planned=3)
    command = [sys.executable, str(engine), "{trf}", "{pairs}"]
    r = next_round(state, pairer_for(state, command), absent=["p2"])
    assert pairs(r) == [("p1", "p3"), ("p4", "p5")]
    assert [(b.player, b.kind) for b in r.byes] == [("p2", ABSENT)]
    bad = tmp_path / "bad.py"
    bad.write_text("import sys; sys.exit('no licence file')", encoding="utf-8")
    with pytest.raises(PairingError, match=r"failed \(exit 1\): no licence file"):
        next_round(state, pairer_for(state, [sys.executable, str(bad), "{trf}"]))
    with pytest.raises(PairingError, match="was not found"):
        next_round(state, pairer_for(state, ["no-such-pairing-program-here", "{trf}"]))
    with pytest.raises(PairingError, match="must name the TRF file"):
        pairer_for(state, ["bbpPairings", "--dutch"])
    wrong = tmp_path / "wrong.py"
    wrong.write_text(FAKE_ENGINE.format(cut=10**6), encoding="utf-8")  # also pairs the absent player
    with pytest.raises(PairingError, match="paired other players than the 4 of round 1"):
        next_round(state, pairer_for(state, [sys.executable, str(wrong), "{trf}", "{pairs}"]), absent=["p2"])


def test_dutch_needs_its_rounds(monkeypatch):
    state = field(4, "dutch")
    with pytest.raises(PairingError, match="needs its number of rounds"):
        next_round(state, pairer_for(state, [sys.executable, "-c", "", "{trf}"]))


def test_without_the_extra_dutch_says_what_to_install(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_py4swiss(name, *args, **kwargs):
        if name.startswith("py4swiss"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_py4swiss)
    state = field(4, "dutch", rounds_planned=3)
    with pytest.raises(PairingError, match=r"needs py4swiss: pip install 'nardrating\[pairing\]'"):
        next_round(state, pairer_for(state))
