"""The period report's rows built from the period's records only (engines/window.py) equal the rows
read from every player's whole history, for every engine whose history is its records and side
events (elo, glicko, glicko2, fibs): on random journals with unrated and forfeited games, voids,
adjustments (whole and fractional `set`, deviations), inactivity penalties and whole or fractional
starts, over random periods (before, across and after the games)."""
from __future__ import annotations

import random
import re
from dataclasses import astuple
from datetime import date, timedelta

import pytest

from nardrating.engines.window import period_events
from nardrating.periods import parse_period
from nardrating.reports import period as period_report
from nardrating.replay.loader import load_club

from .test_fast_path import random_chess_club, random_club


def exact_rows(rows):
    """The rows as types and reprs: 1500 and 1500.0 differ, as they would in the report's JSON."""
    return sorted([(type(x).__name__, repr(x)) for x in astuple(row)] for row in rows)   # (report() sorts them)


def both_ways(result, span, monkeypatch):
    """The rows from the period's records, and from every player's whole history; those worked out
    from the records' numbers (elo, with no adjustment: period_rows), where there are, are the
    rows from the records too."""
    numbers = period_report.generic_report_rows(result, span)
    with monkeypatch.context() as patch:
        patch.setattr(type(result), "period_rows", lambda *args: None)
        windowed = period_report.generic_report_rows(result, span)
        patch.setattr(period_report, "period_events", lambda *args: None)
        whole = period_report.generic_report_rows(result, span)
    assert numbers == windowed   # (as records: the same row objects' values, types aside)
    assert exact_rows(numbers) == exact_rows(windowed)
    return exact_rows(windowed), exact_rows(whole)


def spans(rng, first, days, count=8):
    out = [parse_period(f"{first.year}"), parse_period(f"{first.year - 1}")]
    for _ in range(count):
        a, b = sorted(rng.randint(-5, days + 15) for _ in range(2))
        out.append(parse_period(f"{first + timedelta(days=a)}..{first + timedelta(days=b)}"))
    return out


def compared(folder, monkeypatch, seed, lists, days):
    """How many rows of random periods were compared both ways, over these (list, discipline)."""
    ledger = load_club(folder, use_cache=False)
    rng = random.Random(seed)
    checked = 0
    for name, discipline in lists:
        result = ledger.run(name, discipline)
        assert period_events(result, date(2015, 1, 1), date(2015, 1, 31)) is not None
        for span in spans(rng, date(2015, 1, 1), days):
            windowed, whole = both_ways(result, span, monkeypatch)
            assert windowed == whole, (name, discipline, span)
            checked += len(whole)
    return checked


def some_slow(seeds, default):
    """The seeds, those not in `default` marked slow (CI runs them; the default run keeps a minute)."""
    return [seed if seed in default else pytest.param(seed, marks=pytest.mark.slow) for seed in seeds]


@pytest.mark.parametrize("seed", some_slow(range(6), {0, 1, 2}))
def test_chess_report_rows_from_the_period_equal_those_from_whole_histories(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed)
    if seed % 2:   # inactivity penalties: side events dated before the game they come with
        config = tmp_path / "nardrating.toml"
        config.write_text(config.read_text().replace("[rating.glicko]", "inactivity = [[1, 10]]\n\n[rating.glicko]"))
    lists = [(name, discipline) for name in ("elo", "glicko", "glicko2") for discipline in ("chess", "blitz")]
    assert compared(tmp_path, monkeypatch, seed, lists, 400) > 100   # (rows, not only empty reports)


@pytest.mark.parametrize("seed", some_slow(range(8), {0, 1, 7}))   # (whole starts; the glicko lists' own case)
def test_report_rows_from_the_records_numbers_equal_those_from_the_events(tmp_path, monkeypatch, seed):
    # A list with no adjustment or penalty works its rows out from the records' doubles (elo's,
    # glicko's and glicko2's period_rows): the same as from the events, over random clubs with
    # unrated, forfeited and voided games, pair limits, whole and fractional starts (whole ratings
    # as ints), periods of a day, a week or a month.
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed, rows=rng_rows(seed))
    if seed % 4 < 2:   # the lists' default starts, 1200 and 1500: ints (a start in the config is read as a decimal)
        config = tmp_path / "nardrating.toml"
        config.write_text(re.sub(r"\nstart = [\d.]+\n", "\n", config.read_text()))
    journal = tmp_path / "journal.toml"
    entries = re.split(r"\n(?=\[\[)", journal.read_text())   # (each entry opens with its [[header]])
    journal.write_text("\n".join(entry for entry in entries if not entry.startswith("[[adjust]]")))
    ledger = load_club(tmp_path, use_cache=False)
    lists = [(name, discipline) for name in ("elo", "glicko", "glicko2") for discipline in ("chess", "blitz")]
    worked_out = 0
    for name, discipline in lists:
        result = ledger.run(name, discipline)
        assert not result.side and result.whole_start == (seed % 4 < 2)
        for span in spans(random.Random(seed), date(2015, 1, 1), 400, count=12):
            rows = result.period_rows(span.start, span.end, {})
            assert rows is not None
            worked_out += len(rows)
    assert worked_out > 60
    assert compared(tmp_path, monkeypatch, seed, lists, 400) > 60


def rng_rows(seed):
    """Few games (players new in a period, whole starts kept) or many."""
    return (40, 400)[seed % 2]


@pytest.mark.parametrize("seed", range(4))
def test_fibs_report_rows_from_the_period_equal_those_from_whole_histories(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_club(tmp_path, seed)
    assert compared(tmp_path, monkeypatch, seed, [("fibs", "long-nardy"), ("fibs", "short-nardy")], 31) > 20


WHOLE = """[[player]]
id = "x"

[[player]]
id = "y"

[[player]]
id = "z"

[[match]]
id = "j1"
date = 2024-01-10
players = ["x", "y"]
winner = "x"
rated = false

[[adjust]]
date = 2024-01-20
player = "z"
set = 1400
reason = "transferred"

[[match]]
id = "j2"
date = 2024-01-25
players = ["z", "y"]
result = "1/2-1/2"
rated = false

[[match]]
id = "f1"
date = 2024-02-05
players = ["x", "z"]
winner = "z"
"""


@pytest.mark.parametrize("engine", ["elo", "glicko"])
def test_a_rating_still_whole_before_the_period_is_reported_as_a_whole_number(tmp_path, monkeypatch, engine):
    # x's and z's only games before February are unrated: x is still at the list's start (elo 1200,
    # glicko 1500: whole numbers in the config), z at the adjustment's set 1400. February's report
    # starts them there, x's as a whole number (1200, not 1200.0), read from the record of January
    # that is not rated, which comes last before the period.
    from .conftest import make_club

    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    club = make_club(tmp_path / "club", WHOLE, f'[club]\njournal = ["journal.toml"]\ndefault_discipline = "chess"\n\n'
                                                f'[rating.main]\nengine = "{engine}"\n')
    result = load_club(club, use_cache=False).run("main", "chess")
    span = parse_period("2024-02")
    windowed, whole = both_ways(result, span, monkeypatch)
    assert windowed == whole
    rows = {row.player: row for row in period_report.generic_report_rows(result, span)}
    start = 1200 if engine == "elo" else 1500
    assert (rows["x"].before, type(rows["x"].before)) == (start, int)
    assert rows["z"].before == 1400   # (the journal reads a TOML `set` as a decimal: 1400.0)
    assert rows["x"].games == rows["z"].games == 1 and set(rows) == {"x", "z"}


@pytest.mark.parametrize("seed", range(3))
def test_a_run_of_records_read_at_once_is_each_record_read_alone(tmp_path, monkeypatch, seed):
    # ColumnRecords.rows: the columns sliced once, an unrated game's record (i, rating a, rating b,
    # reason) as records[k] gives it; over random runs, the whole and none.
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed)
    ledger = load_club(tmp_path, use_cache=False)
    rng = random.Random(seed)
    for name in ("elo", "glicko", "glicko2"):
        records = ledger.run(name, "chess").records
        count = len(records)
        assert any(len(records[k]) == 4 for k in range(count))   # (unrated games among them)
        for start, stop in [(0, count), (count, count), *(sorted(rng.sample(range(count + 1), 2)) for _ in range(10))]:
            assert records.rows(start, stop) == [records[k] for k in range(start, stop)]


def exact_details(rows):
    """A player's --details rows as keys (in order), types and reprs."""
    return [[(key, type(value).__name__, repr(value)) for key, value in row.items()] for row in rows]


def dated_in(history, span):
    """The events of a history dated in the span, but a side event that comes before an event dated
    before the span (a Glicko adjustment dated within a rating period applies at its start, before
    that period's games): it is in the rating before the span, through those games."""
    return [e for k, e in enumerate(history) if span.start <= e.date <= span.end and not (
        e.kind != "match" and any(later.date < span.start for later in history[k + 1:]))]


@pytest.mark.parametrize("seed, club", [(0, "chess"), (1, "chess"), (0, "nardy"), *(   # (seed 1: the adjustment of docs/glicko.md)
    pytest.param(seed, club, marks=pytest.mark.slow) for seed, club in ((2, "chess"), (3, "chess"), (1, "nardy")))])
def test_every_players_details_from_the_period_equal_those_from_their_history(tmp_path, monkeypatch, seed, club):
    # `report --details` takes each player's events of the period from the period's records
    # (window.period_events; with --player, that player's alone), not from each player's whole
    # history: the same rows, every player,
    # random periods, with adjustments and unrated games among them (elo, glicko, glicko2, fibs).
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    monkeypatch.setenv("NARDRATING_FAST", "0")
    if club == "chess":
        random_chess_club(tmp_path, seed)
        lists, days = [(name, discipline) for name in ("elo", "glicko", "glicko2") for discipline in ("chess", "blitz")], 400
    else:
        random_club(tmp_path, seed)
        lists, days = [("fibs", "long-nardy"), ("fibs", "short-nardy")], 31
    ledger = load_club(tmp_path, use_cache=False)
    compared = 0
    for name, discipline in lists:
        result = ledger.run(name, discipline)
        for span in spans(random.Random(seed), date(2015, 1, 1), days, count=4):
            found = period_report._events_in_period(result, span)
            assert found is not None
            for player in result.standings:
                from_period = period_report.game_details(ledger, result, player, span, found.get(player, []))
                from_history = period_report.game_details(ledger, result, player, span,
                                                          dated_in(result.history(player), span))
                assert exact_details(from_period) == exact_details(from_history), (name, discipline, span, player)
                alone = period_report._events_in_period(result, span, player)   # (report --player)
                assert set(alone) <= {player}
                assert exact_details(period_report.game_details(ledger, result, player, span, alone.get(player, []))) \
                    == exact_details(from_period), (name, discipline, span, player)
                compared += len(from_history)
    assert compared > 200
