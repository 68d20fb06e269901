"""A player card's best wins rank wins by the opponent's rating before the match (analysis/headtohead.py).
Where a list's history is its records (engines/window.py: elo, glicko, glicko2, fibs), that rating is read
from the match's own record, which holds both sides (opponents_events), not from the opponent's history,
which took one history a win: 1.3 s for one card on a million games. The ranking, every value and its
type (a whole start rating is an int in history: 1200, not 1200.0) equal the opponents' histories', for
every player of random chess and nardy clubs, read through the cache (the records as columns) and not."""
import pytest

from nardrating.analysis import headtohead
from nardrating.engines import window
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache
from .test_exact_corrections import CHESS, NARDY, random_entries, text


def cards(folder, monkeypatch, by_records):
    """Every list's best wins of every player (and against each opponent), each value with its type."""
    if not by_records:
        monkeypatch.setattr(window, "opponents_events", lambda result, player: None)
    ledger = load_club(folder)
    found, used = {}, 0
    for rating in ledger.config.ratings.values():
        for discipline in ledger.disciplines(rating):
            result = ledger.run(rating, discipline)
            for player in ledger.journal.players:
                used += window.opponents_events(result, player) is not None
                for opponent in (None, "p1"):
                    wins = headtohead.best_wins(result, player, opponent)
                    found[(rating.name, discipline, player, opponent)] = [
                        sorted((k, v, type(v).__name__) for k, v in w.items()) for w in wins]
    monkeypatch.undo()
    return found, used


@pytest.mark.parametrize("chess", [True, False], ids=["chess", "nardy"])
@pytest.mark.parametrize("seed", [2, 9])
def test_best_wins_from_the_records_are_the_opponents_histories(tmp_path, monkeypatch, chess, seed):
    folder = make_club(tmp_path / "club", text(random_entries(seed, chess, days=30)), CHESS if chess else NARDY)
    with no_cache():
        replayed, _ = cards(folder, monkeypatch, by_records=True)
        plain, _ = cards(folder, monkeypatch, by_records=False)
    load_club(folder)   # (the snapshot, then the results kept as columns)
    cards(folder, monkeypatch, by_records=True)
    kept, used = cards(folder, monkeypatch, by_records=True)
    assert used > 0   # the records were read for some list
    assert kept == plain == replayed
    assert any(wins for wins in plain.values())
    # (the whole start of the chess club's elo list: a newcomer's rating is an int in their history)
    if chess:
        assert any(v == "int" for wins in plain.values() for w in wins for k, _, v in w if k == "opponent_rating")


@pytest.mark.parametrize("chess", [True, False], ids=["chess", "nardy"])
def test_an_opponents_event_from_the_record_is_their_historys(tmp_path, chess):
    # Every event opponents_events makes is the opponent's own event of that match, as their history
    # has it (a whole value aside: a float here, maybe an int there); every match of the player is there.
    folder = make_club(tmp_path / "club", text(random_entries(4, chess, days=30)), CHESS if chess else NARDY)
    load_club(folder)
    ledger = load_club(folder)
    checked = 0
    for rating in ledger.config.ratings.values():
        for discipline in ledger.disciplines(rating):
            result = ledger.run(rating, discipline)
            for player in ledger.journal.players:
                faced = window.opponents_events(result, player)
                if faced is None:
                    continue
                mine = {e.entry for e in result.history(player) if e.kind == "match"}
                assert set(faced) == mine
                for entry, event in faced.items():
                    assert event.opponent == player
                    opponent = next(e.opponent for e in result.history(player) if e.entry == entry)
                    theirs = next(e for e in result.history(opponent) if e.entry == entry)
                    fields = ("date", "entry", "kind", "opponent", "result", "before", "change", "after", "rated", "reason")
                    assert [getattr(event, f) for f in fields] == [getattr(theirs, f) for f in fields]
                    checked += 1
    assert checked > 100
