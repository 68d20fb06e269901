"""A player's event of one match made from that match's record alone (RatingResult.event_of, what
add-match's preview shows) equals the event of the player's whole history, value and type (1200,
not 1200.0): for every match of random journals, every engine (elo, glicko and glicko2 by record;
fibs by record; chips, whose decays come between records, and the others from the history), with
unrated and forfeited games, voids, adjustments, inactivity penalties and whole or fractional starts.
"""
from __future__ import annotations

from dataclasses import astuple

import pytest

from nardrating.engines import compact
from nardrating.replay.loader import load_club

from .test_fast_path import random_chess_club, random_club
from .test_report_window import WHOLE


def exact(event):
    return None if event is None else [(type(x).__name__, repr(x)) for x in astuple(event)]


def compared(folder, lists, monkeypatch) -> int:
    """How many (player, match) events were compared, each looked up from its record (every record
    counts as recent here) and found in the history."""
    ledger = load_club(folder, use_cache=False)
    checked = 0
    for name, discipline in lists:
        result = ledger.run(name, discipline)
        histories = {player: list(result.history(player)) for player in result.standings}
        with monkeypatch.context() as patch:
            patch.setattr(compact, "RECENT_RECORDS", 1 << 30)
            for player, events in histories.items():
                for event in events:
                    if event.kind != "match":
                        continue
                    assert exact(result.event_of(player, event.entry)) == exact(event), (name, player, event.entry)
                    checked += 1
        assert result.event_of(next(iter(histories)), "no-such-match") is None
    return checked


# (one seed of each by default, with and without inactivity; the rest in the slow run)
@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (1, 2, 3))])
def test_chess_events_from_their_records_equal_the_histories(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed)
    if seed % 2:   # inactivity penalties: side events before the game they come with
        config = tmp_path / "nardrating.toml"
        config.write_text(config.read_text().replace("[rating.glicko]", "inactivity = [[1, 10]]\n\n[rating.glicko]"))
    lists = [(name, discipline) for name in ("elo", "glicko", "glicko2") for discipline in ("chess", "blitz")]
    assert compared(tmp_path, lists, monkeypatch) > 200


@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (1, 2))])
def test_nardy_events_from_their_records_equal_the_histories(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_club(tmp_path, seed)
    assert compared(tmp_path, [("fibs", "long-nardy"), ("fibs", "short-nardy")], monkeypatch) > 100


@pytest.mark.parametrize("engine", ["elo", "glicko"])
def test_a_whole_rating_before_the_match_is_looked_up_in_the_history(tmp_path, cli, engine):
    # WHOLE (test_report_window.py): x and z have played only unrated games before f1, x at the
    # list's start (elo 1200, glicko 1500), z at the adjustment's 1400; the history gives x's rating
    # before f1 as a whole number, and so must the record's lookup (it reads the history then).
    from .conftest import make_club

    club = make_club(tmp_path / "club", WHOLE, f'[club]\njournal = ["journal.toml"]\ndefault_discipline = "chess"\n\n'
                                               f'[rating.main]\nengine = "{engine}"\n')
    ledger = load_club(club, use_cache=False)
    result = ledger.run("main", "chess")
    start = {"elo": 1200, "glicko": 1500}[engine]
    event = result.event_of("x", "f1")
    assert type(event.before) is int and event.before == start
    assert exact(event) == exact(next(e for e in result.history("x") if e.entry == "f1"))
