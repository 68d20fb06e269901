"""Replay rules of the ledger, on small journals worked by hand (elo, K = 20, start 1200)."""
from nardrating.replay.loader import load_club

from .conftest import ELO_CONFIG, make_club

PLAYERS = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("a", "b", "c"))


def match(mid, day, a, b, result, **extra):
    lines = [f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nresult = "{result}"']
    lines += [f"{k} = {v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n\n"


def run(tmp_path, journal, config=ELO_CONFIG, **kw):
    return load_club(make_club(tmp_path, PLAYERS + journal, config)).run(**kw)


def test_forfeit_and_unrated_change_nothing(tmp_path):
    result = run(tmp_path, match("m1", "2009-01-01", "a", "b", "1-0", forfeit="true")
                 + match("m2", "2009-01-02", "a", "b", "1-0", rated="false"))
    events = result.history("a")
    assert [(e.entry, e.rated, e.reason, e.change) for e in events] == [
        ("m1", False, "forfeit", 0.0), ("m2", False, "unrated", 0.0)]
    assert result.standings["a"].rating == 1200 and result.standings["a"].games == 0


def test_pair_limit_per_day(tmp_path):
    # Three games of a and b on one day with the limit 2: the third is unrated.
    # Game 1: 1200 v 1200, a wins: +10 → a 1210, b 1190.
    # Game 2: a 1210 v b 1190, draw: E(a) = 1/(1+10^(-20/400)) = 0.52876; a: 20·(0.5 − 0.52876) = −0.575.
    # Game 3: beyond the limit, nothing changes. Next day's game is rated again.
    journal = (match("m1", "2009-01-01", "a", "b", "1-0") + match("m2", "2009-01-01", "b", "a", "1/2-1/2")
               + match("m3", "2009-01-01", "a", "b", "1-0") + match("m4", "2009-01-02", "a", "b", "0-1"))
    events = run(tmp_path, journal).history("a")
    assert [e.rated for e in events] == [True, True, False, True]
    assert round(events[1].change, 3) == -0.575
    assert events[2].reason.startswith("pair limit")


def test_pair_limit_zero_means_no_limit(tmp_path):
    journal = "".join(match(f"m{k}", "2009-01-01", "a", "b", "1-0") for k in range(4))
    config = ELO_CONFIG.replace("pair_limit_per_day = 2", "pair_limit_per_day = 0")
    assert run(tmp_path, journal, config).standings["a"].games == 4


def test_void_and_correction_recompute_later_games(tmp_path):
    # m1 was entered the wrong way round: voided, re-entered as m1b with the same date.
    # Corrected replay: m1b a beats b (+10: a 1210, b 1190); m2 b vs c, b wins:
    # E(b) = 1/(1+10^((1200−1190)/400)) = 0.48561; b: +20·0.51439 = +10.288 → 1200.288.
    journal = (match("m1", "2009-01-01", "b", "a", "1-0") + match("m2", "2009-01-02", "b", "c", "1-0")
               + '[[void]]\nmatch = "m1"\ndate = 2009-01-05\nreason = "wrong way round"\n\n'
               + match("m1b", "2009-01-01", "a", "b", "1-0"))
    result = run(tmp_path, journal)
    assert round(result.standings["b"].rating, 3) == 1200.288
    assert result.standings["a"].rating == 1210
    b_events = result.history("b")
    # Replay order is by date, then journal order: m1 (voided), m1b, then m2.
    assert [(e.entry, e.rated, e.reason) for e in b_events] == [
        ("m1", False, "voided"), ("m1b", True, None), ("m2", True, None)]


def test_entries_of_one_date_keep_journal_order_and_dates_sort(tmp_path):
    # Written out of date order: m2 (Jan 2) first, then m1 (Jan 1). Replay plays m1 first.
    journal = match("m2", "2009-01-02", "a", "c", "1-0") + match("m1", "2009-01-01", "a", "b", "1-0")
    assert [e.entry for e in run(tmp_path, journal).history("a")] == ["m1", "m2"]


def test_adjust_set_and_delta(tmp_path):
    # a set to 1300 on Jan 1 (before the game of that date, which follows it in the journal),
    # then beats b (1200): E = 1/(1+10^(−100/400)) = 0.64006; +20·0.35994 = +7.199 → 1307.199;
    # then delta −7.199… is not round, so use delta = −7 → 1300.199.
    journal = ('[[adjust]]\ndate = 2009-01-01\nplayer = "a"\nset = 1300\nreason = "imported"\n\n'
               + match("m1", "2009-01-01", "a", "b", "1-0")
               + '[[adjust]]\ndate = 2009-01-03\nplayer = "a"\ndelta = -7\nreason = "commission"\n\n')
    result = run(tmp_path, journal)
    events = result.history("a")
    assert [e.kind for e in events] == ["adjust", "match", "adjust"]
    assert round(events[1].after, 3) == 1307.199
    assert round(result.standings["a"].rating, 3) == 1300.199


def test_disciplines_are_separate(tmp_path):
    # A backgammon game never moves the chess rating.
    journal = match("m1", "2009-01-01", "a", "b", "1-0") + match("m2", "2009-01-02", "a", "b", "0-1", discipline='"backgammon"')
    ledger = load_club(make_club(tmp_path, PLAYERS + journal))
    assert ledger.run(discipline="chess").standings["a"].rating == 1210
    assert ledger.run(discipline="backgammon").standings["a"].rating == 1190


def test_as_of_excludes_later_games(tmp_path):
    journal = match("m1", "2009-01-01", "a", "b", "1-0") + match("m2", "2009-02-01", "a", "b", "1-0")
    from datetime import date

    assert run(tmp_path, journal, as_of=date(2009, 1, 31)).standings["a"].rating == 1210


def test_csv_journal_creates_players_by_name(tmp_path):
    config = ELO_CONFIG.replace('journal = ["journal.toml"]', 'journal = ["games.csv", "journal.toml"]')
    club = make_club(tmp_path, "", config)
    (club / "games.csv").write_text("id,date,player_a,player_b,result,length,discipline,tournament,rated\n"
                                    "g1,2009-01-01,Анна,Борис,1-0,1,chess,,true\n"
                                    "g2,2009-01-02,Борис,Анна,1/2-1/2,1,,,\n", encoding="utf-8")
    result = load_club(club).run()
    # g1: +10/−10; g2: Борис 1190 vs Анна 1210 draw: Анна −0.575 (as in the pair-limit test) → 1209.425.
    assert round(result.standings["Анна"].rating, 3) == 1209.425
    assert result.standings["Борис"].games == 2


def test_csv_bad_rows_are_reported_by_line(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = ELO_CONFIG.replace('journal = ["journal.toml"]', 'journal = ["games.csv"]')
    club = make_club(tmp_path, "", config)
    (club / "games.csv").write_text("id,date,player_a,player_b,winner\n"
                                    "g1,2009-13-01,a,b,a\n"
                                    "g2,2009-01-02,a,b,c\n"
                                    "g3,2009-01-02,a,b\n"
                                    "g4,15.01.2009,a,b,a\n", encoding="utf-8")
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "games.csv:2: g1: date '2009-13-01' is not an ISO date like 2009-01-15"   # no 13th month
    assert lines[1].startswith("games.csv:3: g2: winner 'c' is neither 'a' nor 'b'")
    assert lines[2].startswith("games.csv:4: the row has 4 cells, the header 5")
    # day.month.year, as a Russian spreadsheet writes it: the day to write
    assert lines[3] == "games.csv:5: g4: date '15.01.2009' is not an ISO date like 2009-01-15; write 2009-01-15"


def test_a_csv_row_with_one_player_twice_is_told_beside_the_other_rows_problems(tmp_path, cli):
    # A TOML [[match]] of anna against anna is refused by its model, beside any other entry's problem;
    # a CSV row was told only once every other row was right (its file's rows were not added to be checked).
    config = ELO_CONFIG.replace('journal = ["journal.toml"]', 'journal = ["games.csv"]')
    club = make_club(tmp_path, "", config)
    (club / "games.csv").write_text("date,player_a,player_b,winner\n"
                                    "2009-01-01,anna,boris,anna\n"
                                    "2009-01-02,anna,anna,anna\n"
                                    "2009-01-02,anna,boris,\n", encoding="utf-8")
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{club / 'games.csv'}:3: games-2: a match needs two different players, not 'anna' against themself",
        f"{club / 'games.csv'}:4: games-3: no winner: write the winner's id, 'anna' or 'boris'"]
    # alone, it is told as before (by the check across entries)
    (club / "games.csv").write_text("date,player_a,player_b,winner\n2009-01-02,anna,anna,anna\n", encoding="utf-8")
    assert cli("check", "--club", club).stderr.splitlines() == [
        f"{club / 'games.csv'}:2: games-1: a match needs two different players, not 'anna' against themself"]


def test_as_of_before_a_later_adjustment_under_a_time_invariant_engine(tmp_path):
    # fibs replays are reused for any --as-of after the last entry; an [[adjust]] dated after the
    # last match is such an entry: before its date, the rating is the one the matches gave.
    # One 1-point match between new players at 1500: base 4·1·0.5 = 2, boost ×5 → winner 1510.
    config = '[club]\njournal = ["journal.toml"]\ndefault_discipline = "long-nardy"\n[rating.fibs]\nengine = "fibs"\n'
    journal = (match("m1", "2009-01-01", "a", "b", "1-0")
               + '[[adjust]]\ndate = 2009-03-01\nplayer = "a"\nset = 1600\nreason = "commission"\n')
    from datetime import date

    ledger = load_club(make_club(tmp_path, PLAYERS + journal, config))
    assert ledger.run(as_of=date(2009, 2, 1)).standings["a"].rating == 1510
    assert ledger.run(as_of=date(2009, 3, 1)).standings["a"].rating == 1600
