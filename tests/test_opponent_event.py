"""explain's opponent side of a match (engines/explaining.py) is made from the match's record, found
among the records of its date, and is the event the opponent's whole history holds: on random elo and
fibs journals (whole and fractional starts, adjustments, unrated and forfeited games, voids, pair
limits), for every rated game of every player."""
from __future__ import annotations

import pytest

from nardrating.engines import explaining
from nardrating.replay.loader import load_club

from .test_fast_path import random_chess_club, random_club


def from_histories(result, event):
    return next(e for e in result.history(event.opponent) if e.entry == event.entry and e.kind == "match")


def compared(folder, lists) -> tuple[int, int]:
    """(events compared, those made from the record): every rated match event of every player."""
    ledger = load_club(folder, use_cache=False)
    count = quick = 0
    for name, discipline in lists:
        result = ledger.run(name, discipline)
        for player in result.standings:
            for event in result.history(player):
                if event.kind != "match" or not event.rated or event.opponent is None:
                    continue
                made = explaining._from_the_record(result, event)
                whole = from_histories(result, event)
                assert explaining.opponent_event(result, event) == whole
                if made is not None:
                    assert (made, type(made.before)) == (whole, type(whole.before))
                    quick += 1
                count += 1
    return count, quick


@pytest.mark.parametrize("seed", [*range(3), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(3, 6))])
def test_the_opponents_event_from_the_record_is_their_historys(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path / "chess", seed, rows=150)
    random_club(tmp_path / "nardy", seed, rows=150)
    count, quick = compared(tmp_path / "chess", [("elo", "chess"), ("elo", "blitz")])
    more, more_quick = compared(tmp_path / "nardy", [("fibs", "long-nardy"), ("fibs", "short-nardy")])
    assert count + more > 100 and quick + more_quick > (count + more) // 2


def test_a_whole_start_is_given_back_as_the_history_has_it(tmp_path):
    # elo's default start is the int 1200, kept as an int until a player's first rated game: the
    # record holds 1200.0, the history 1200. boris's side of the first game is read from his history
    # (1200, an int); of the second game (1200 − 7.5 = 1192.5 before it, K 15, E 0.5) from the record.
    from .conftest import make_club

    club = make_club(tmp_path / "club", '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n\n'
                     '[[match]]\nid = "g1"\ndate = 2015-01-10\nplayers = ["anna", "boris"]\nwinner = "anna"\n\n'
                     '[[match]]\nid = "g2"\ndate = 2015-01-11\nplayers = ["anna", "boris"]\nwinner = "boris"\n',
                     '[club]\njournal = ["journal.toml"]\ndefault_discipline = "chess"\n\n'
                     '[rating.elo]\nengine = "elo"\nk = 15\n')
    result = load_club(club, use_cache=False).run("elo", "chess")
    first, second = [e for e in result.history("anna") if e.kind == "match"]
    assert explaining._from_the_record(result, first) is None
    theirs = explaining.opponent_event(result, first)
    assert (theirs.before, type(theirs.before)) == (1200, int)
    made = explaining._from_the_record(result, second)
    assert made is not None and (made.before, type(made.before)) == (1192.5, float)
    assert made == explaining.opponent_event(result, second) == from_histories(result, second)
