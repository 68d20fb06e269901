"""The standings of a list whose replay the cache cannot keep (mfsnb, fide), kept for
`leaderboard` (replay/cachestandings.py): what it shows from them is what a full read shows, in every
format and as of every date asked; they are read only for the journal exactly as it was replayed
(an appended match, a changed config: replayed), and a damaged file is not read."""
from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from nardrating.engines.base import RatingResult, Standing
from nardrating.replay import cachestandings
from nardrating.replay.cachedir import CacheFolder
from nardrating.replay.ledger import through_cache
from nardrating.replay.loader import load_club

from .conftest import no_cache

SAMPLES = Path(__file__).parent.parent / "sample_ledgers"
# (sample club, its list kept as standings, dates asked for besides the default)
LISTS = [("federation-2009", "federation", ["2009-02-15", "2009-12-31"]),
         ("fide-club", "fide", ["2024-06-30"])]


def copied(tmp_path: Path, name: str) -> Path:
    club = tmp_path / name
    shutil.copytree(SAMPLES / name, club)
    return club


def boards(cli, club: Path, rating: str, days: list[str]) -> list[str]:
    out = []
    for day in [None, *days]:
        out += board(cli, club, rating, day)
    return out


def board(cli, club: Path, rating: str, day: str | None) -> list[str]:
    """The leaderboard as of `day` (None: the default) in every format, with and without --all."""
    out = []
    for fmt in ("table", "json", "csv", "md"):
        for extra in ([], ["--all"]):
            result = cli("leaderboard", "--club", club, "--rating", rating, "--format", fmt, *extra,
                         *(["--as-of", day] if day else []))
            assert result.exit_code == 0, result.output
            out.append(result.stdout.replace(str(club), "CLUB"))
    return out


@pytest.mark.parametrize("name, rating, days", LISTS)
def test_a_leaderboard_from_kept_standings_is_a_full_reads(cli, tmp_path, monkeypatch, name, rating, days):
    from nardrating.replay.ledger import Ledger

    club = copied(tmp_path, name)
    run = Ledger.run
    replays: list[tuple] = []
    for day in [None, *days]:   # (one file per list: a date asked for replaces the one before)
        with no_cache():
            full = board(cli, club, rating, day)
        board(cli, club, rating, day)   # (the snapshot, then the standings, written)
        replays.clear()
        with monkeypatch.context() as patch:
            patch.setattr(Ledger, "run", lambda self, *args, **kw: replays.append(args) or run(self, *args, **kw))
            kept = board(cli, club, rating, day)
        assert kept == full
        assert replays == []   # every one of them from the kept standings


@pytest.mark.parametrize("name, rating, days", LISTS)
def test_recalc_keeps_the_standings_the_leaderboard_reads_next(cli, tmp_path, monkeypatch, name, rating, days):
    # recalc replays these lists as of the day the leaderboard reads by default (the journal's last
    # entry) and keeps their standings: the next leaderboard replays nothing, and shows a full read's.
    from nardrating.replay.ledger import Ledger

    club = copied(tmp_path, name)
    with no_cache():
        full = board(cli, club, rating, None)
    assert cli("recalc", "--club", club).exit_code == 0
    run = Ledger.run
    replays: list[tuple] = []
    with monkeypatch.context() as patch:
        patch.setattr(Ledger, "run", lambda self, *args, **kw: replays.append(args) or run(self, *args, **kw))
        kept = board(cli, club, rating, None)
    assert kept == full and replays == []


def test_standings_are_kept_for_the_journal_exactly_as_replayed(cli, tmp_path, monkeypatch):
    club = copied(tmp_path, "federation-2009")
    first = boards(cli, club, "federation", [])
    assert boards(cli, club, "federation", []) == first
    # A match appended: the list is replayed, and what it shows is a full read's.
    added = cli("add-match", "--club", club, "--date", "2009-12-30", "--winner",
                *_two_players(club), "--discipline", "long-nardy")
    assert added.exit_code == 0, added.output
    after = boards(cli, club, "federation", [])
    with no_cache():
        assert after == boards(cli, club, "federation", [])
    assert after != first
    # Another config (a parameter changed): the standings kept are of another snapshot.
    config = club / "nardrating.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("start = 1500 ", "start = 1450 ", 1), encoding="utf-8")
    changed = boards(cli, club, "federation", [])
    with no_cache():
        assert changed == boards(cli, club, "federation", [])


def _two_players(club: Path) -> list[str]:
    ledger = load_club(club, use_cache=False)
    players = sorted(ledger.run("federation").standings)[:2]
    return [players[0], players[0], players[1]]


def test_a_damaged_standings_file_is_not_read(cli, tmp_path):
    club = copied(tmp_path, "fide-club")
    first = boards(cli, club, "fide", [])
    ledger = load_club(club)
    with CacheFolder(ledger.config, create=False) as folder:
        names = [n for n in folder.names() if n.startswith("standings-") and not n.startswith("standings-state-")]
        assert names
        for kept in names:   # a status changed: still JSON, and still a plausible file but for its hash
            data, _ = folder.read(kept)
            at = data.index(b'"rows"')
            status = data.index(b'"rated"', at)
            folder.write(kept, data[:status] + b'"ruled"' + data[status + 7:])
    assert boards(cli, club, "fide", []) == first


def _fide_list(tmp_path: Path) -> tuple:
    """The fide sample's ledger as read from its cached snapshot, its list and its engine."""
    from nardrating.engines.registry import engine_class

    club = copied(tmp_path, "fide-club")
    load_club(club).run("fide")   # (the snapshot written)
    ledger = load_club(club)
    rating_list = ledger.rating("fide")
    return ledger, rating_list, engine_class(rating_list.engine)


def test_only_values_that_come_back_as_they_were_are_kept(tmp_path):
    # A date is tagged; an int stays an int, a float a float; a value of any other type (a Fraction,
    # a tuple) means the standings are not kept.
    from fractions import Fraction

    ledger, rating_list, engine = _fide_list(tmp_path)
    day = date(2024, 6, 30)
    plain = RatingResult("fide", "chess", "fide", {"a": Standing("a", 2100, 3, "rated", date(2024, 1, 2),
                                                                  {"list": date(2024, 4, 1), "x": 1.5, "y": None}),
                                                   "b": Standing("b", 2000.0, 0, "unrated", None, {"x": 2, "z": "k"}),
                                                   "c": Standing("c", None, 1, "rated", date(2024, 1, 2), {})},
                         as_of=day)
    cachestandings.save(ledger, engine, rating_list, "chess", day, plain)
    back = cachestandings.load(ledger, engine, rating_list, "chess", day)
    assert list(back.standings) == ["a", "b", "c"]
    s = back.standings["a"]
    assert (s.rating, type(s.rating), s.extra, s.last_played) == (2100, int, plain.standings["a"].extra, date(2024, 1, 2))
    b, c = back.standings["b"], back.standings["c"]
    assert (b.rating, type(b.rating), b.games, b.status, b.last_played) == (2000.0, float, 0, "unrated", None)
    assert list(b.extra.items()) == [("x", 2), ("z", "k")] and type(b.extra["x"]) is int
    assert (c.rating, c.extra, c.last_played) == (None, {}, date(2024, 1, 2))
    assert through_cache(cachestandings.load, ledger, engine, rating_list, "chess", date(2024, 7, 1)) is None  # (another date)
    odd = RatingResult("fide", "chess", "fide", {"a": Standing("a", 2100, 3, "rated", None, {"x": Fraction(1, 3)})},
                       as_of=day)
    cachestandings.save(ledger, engine, rating_list, "chess", day, odd)
    assert cachestandings.load(ledger, engine, rating_list, "chess", day).standings["a"].extra["x"] == 1.5  # (the plain one)


def test_extra_values_equal_across_types_or_signs_come_back_each_as_it_was(tmp_path):
    # The extra columns are kept as their distinct rows: True == 1 == 1.0 and 0.0 == -0.0 in Python,
    # yet each standing's value must come back with its own type and sign; rows alike in every
    # value and type (b and e) share one kept row and come back as dicts of their own.
    import json
    import math

    ledger, rating_list, engine = _fide_list(tmp_path)
    day = date(2024, 6, 30)
    values = {"a": True, "b": 1, "c": 1.0, "d": 0.0, "e": 1, "f": -0.0, "g": None}
    shown = {p: Standing(p, 2000, 1, "rated", None, {"x": x, "list": date(2024, 4, 1)}) for p, x in values.items()}
    cachestandings.save(ledger, engine, rating_list, "chess", day, RatingResult("fide", "chess", "fide", shown, as_of=day))
    back = cachestandings.load(ledger, engine, rating_list, "chess", day).standings
    assert [(type(s.extra["x"]), s.extra["x"]) for s in back.values()] == [(type(x), x) for x in values.values()]
    assert math.copysign(1, back["d"].extra["x"]) == 1 and math.copysign(1, back["f"].extra["x"]) == -1
    assert back["b"].extra == back["e"].extra and back["b"].extra is not back["e"].extra
    with CacheFolder(ledger.config, create=False) as folder:
        name = next(n for n in folder.names() if n.startswith("standings-") and not n.startswith("standings-state-"))
        data, _ = folder.read(name)
    rows = json.loads(data[32:])["rows"]
    # seven standings, six distinct rows (b and e alike), the date tagged in each
    assert len(rows["extra"]) == 7 and len(rows["extra_rows"]) == 6 and rows["extra"][1] == rows["extra"][4]


@pytest.mark.parametrize("name, rating, days", LISTS)
def test_players_from_kept_standings_are_a_full_reads(cli, tmp_path, name, rating, days):
    club = copied(tmp_path, name)

    def listed() -> list[str]:
        out = [cli("players", "--club", club, "--format", "json", *extra) for extra in ([], *(["--as-of", d] for d in days))]
        assert all(r.exit_code == 0 for r in out), [r.output for r in out]
        return [r.stdout for r in out]

    with no_cache():
        full = listed()
    listed()
    assert listed() == full


@pytest.mark.parametrize("name, rating, days", LISTS)
def test_a_correction_leaves_the_standings_it_replayed(cli, tmp_path, monkeypatch, name, rating, days):
    # A back-dated match and a void compare every rating of the current lists before and after, as
    # of the day the leaderboard reads by default (the journal's last entry): the write keeps the
    # standings it replayed after, for the journal as written, and the next leaderboard replays
    # nothing and shows a full read's.
    import re
    from datetime import timedelta

    from nardrating.replay.ledger import Ledger
    from nardrating.reports import last_entry_date

    club = copied(tmp_path, name)
    assert cli("recalc", "--club", club).exit_code == 0
    ledger = load_club(club, use_cache=False)
    rating_list = ledger.rating(rating)
    discipline = ledger.discipline(rating_list, None)
    a, b = sorted(ledger.run(rating_list, discipline).standings)[:2]
    day = last_entry_date(ledger.journal) - timedelta(days=30)
    run = Ledger.run
    replays: list[tuple] = []
    for step in ("add-match", "void"):
        if step == "add-match":
            written = cli("add-match", "--club", club, "--date", day.isoformat(), "--winner", a, a, b,
                          "--discipline", discipline)
            match_id = re.search(r"added match (\S+)", written.stdout).group(1)
        else:
            written = cli("void", match_id, "--club", club, "--reason", "entered twice")
        assert written.exit_code == 0, written.output
        replays.clear()
        with monkeypatch.context() as patch:
            patch.setattr(Ledger, "run", lambda self, *args, **kw: replays.append(args) or run(self, *args, **kw))
            kept = board(cli, club, rating, None)
        assert replays == []
        with no_cache():
            assert kept == board(cli, club, rating, None)


def test_a_column_of_tagged_dates_comes_back_as_those_dates(tmp_path):
    # One shape of extra columns (as fide's: every standing names its list's date): each column read
    # at once, a date column with other dates, a column of dates and None, and a damaged tag refused.
    import json

    from nardrating.replay.cachecheck import Bad

    ledger, rating_list, engine = _fide_list(tmp_path)
    day = date(2024, 6, 30)
    lists = [date(2024, 4, 1), date(2024, 4, 1), date(2023, 12, 31), date(2024, 4, 1)]
    since = [date(2020, 2, 29), None, date(2024, 1, 2), None]
    shown = {p: Standing(p, 2000 + k, k, "rated", None, {"list": lists[k], "since": since[k], "n": k})
             for k, p in enumerate("abcd")}
    cachestandings.save(ledger, engine, rating_list, "chess", day, RatingResult("fide", "chess", "fide", shown, as_of=day))
    back = cachestandings.load(ledger, engine, rating_list, "chess", day).standings
    assert [list(s.extra.items()) for s in back.values()] == [
        [("list", lists[k]), ("since", since[k]), ("n", k)] for k in range(4)]
    assert all(type(s.extra["list"]) is date for s in back.values())
    with CacheFolder(ledger.config, create=False) as folder:
        name = next(n for n in folder.names() if n.startswith("standings-") and not n.startswith("standings-state-"))
        data, _ = folder.read(name)
    kept = json.loads(data[32:])
    for bad in ({"date": "2024-04-01", "also": 1}, {"day": "2024-04-01"}, {"date": 20240401}):
        rows = json.loads(json.dumps(kept["rows"]))
        rows["extra_rows"][rows["extra"][2]][1][0] = bad
        with pytest.raises(Bad):
            cachestandings._standings(rows)


@pytest.mark.parametrize("day", ["2011-06-12", "2011-06-30"])
def test_a_match_entered_in_order_leaves_the_standings_its_preview_replayed(cli, tmp_path, monkeypatch, day):
    # mfsnb: a match waits for its period's list, so add-match's preview replays the list as of the
    # day the leaderboard reads (the journal's last entry: the new match's), which shows the same line
    # of the new match; the write keeps those standings and the next leaderboard replays nothing.
    # The sample's last entry is 2011-06-11 and its lists are quarterly: a match of 2011-06-12 (and
    # one on the quarter's last day, whose list a replay as of that day publishes) is a competition
    # of its own on the list of 2011-06-30.
    from nardrating.replay.ledger import Ledger

    club = copied(tmp_path, "federation-2009")
    assert cli("recalc", "--club", club).exit_code == 0
    written = cli("add-match", "avakyan", "bagirov", "--winner", "avakyan", "--date", day, "--club", club)
    assert written.exit_code == 0, written.output
    for player in ("avakyan", "bagirov"):
        assert (f"federation (long-nardy): {player} not rated now: a competition of its own, on the list of "
                "2011-06-30") in written.stdout
    run = Ledger.run
    replays: list[tuple] = []
    with monkeypatch.context() as patch:
        patch.setattr(Ledger, "run", lambda self, *args, **kw: replays.append(args) or run(self, *args, **kw))
        kept = board(cli, club, "federation", None)
    assert replays == []
    with no_cache():
        assert kept == board(cli, club, "federation", None)


def test_a_match_after_todays_leaderboard_is_previewed_in_full(cli, tmp_path):
    # club.as_of = "today": a match dated after today (--yes) is not in today's leaderboard; the
    # preview replays the whole journal and shows its line.
    from datetime import timedelta

    club = copied(tmp_path, "federation-2009")
    config = club / "nardrating.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("[club]\n", '[club]\nas_of = "today"\n', 1), encoding="utf-8")
    later = date.today() + timedelta(days=3)
    written = cli("add-match", "avakyan", "bagirov", "--winner", "avakyan", "--date", later.isoformat(),
                  "--yes", "--club", club)
    assert written.exit_code == 0, written.output
    assert "avakyan not rated now: a competition of its own, on the list of" in written.stdout


def test_a_rating_that_would_not_come_back_as_it_was_keeps_no_standings():
    # None, an int or a finite float is kept; NaN, an infinity, a bool or a text is not (checked for
    # the whole column at once: one of 10,000 is enough).
    from nardrating.replay.cachestandings import NotPlain, _columns

    others = [Standing(p, 1500 + k, 1, "rated", None, {}) for k, p in enumerate(("b", "c"))]
    assert _columns([Standing("a", 1.5, 1, "rated", None, {}), *others])["rating"] == [1.5, 1500, 1501]
    assert _columns([Standing("a", None, 0, "unrated", None, {}), *others])["rating"] == [None, 1500, 1501]
    for rating in (float("nan"), float("inf"), True, "1500"):
        with pytest.raises(NotPlain):
            _columns([*others, Standing("a", rating, 1, "rated", None, {})])
