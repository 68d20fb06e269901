"""What the club's users ran into on their real days (the organiser, the tournament director, the
commission's secretary, a player), each checked as they would meet it on the command line."""
import json

import pytest

from .conftest import SAMPLES

CHESS = SAMPLES / "chess-club"


# --- a date range typed the wrong way round --------------------------------------------------

@pytest.mark.parametrize("args", [
    ["history", "anna", "--from", "2009-01-29", "--to", "2009-01-15"],
    ["history", "anna", "--chart", "--from", "2009-01-29", "--to", "2009-01-15"],
    ["matches", "--from", "2009-01-29", "--to", "2009-01-15"],
    ["backtest", "--from", "2009-01-29", "--to", "2009-01-15"],
])
def test_from_after_to_is_refused_not_an_empty_answer(cli, args):
    # The chess club's games are on 2009-01-15, -22 and -29: --from 01-29 --to 01-15 holds no day at
    # all, so an empty table with exit 0 would read as "no games"; it is a typo, said as one.
    result = cli(*args, "--club", CHESS)
    assert result.exit_code == 1, result.output
    assert "--to 2009-01-15 is before --from 2009-01-29" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("command", [["report"], ["freeze-list"]])
def test_a_period_that_ends_before_it_starts_is_bad_input_exit_1_with_the_right_order(cli, tmp_path, command):
    # Like any period that is not one (2009-Q5: exit 1, the manual's "Unknown players, lists and
    # disciplines"), not a usage error (exit 2); the message gives the range the right way round.
    import shutil

    club = tmp_path / "club"
    shutil.copytree(CHESS, club)
    before = (club / "journal.toml").read_bytes()
    result = cli(*command, "--period", "2009-03..2009-01", "--club", club)
    assert result.exit_code == 1, result.output
    assert "'2009-03..2009-01' ends before it starts" in result.stderr
    assert "2009-01..2009-03" in result.stderr
    assert (club / "journal.toml").read_bytes() == before
    assert not (club / "lists").exists()


def test_the_same_period_the_right_way_round_is_reported(cli):
    # The three rounds of January 2009 (m0001-m0006), so every player has 3 games in the report.
    result = cli("report", "--period", "2009-01..2009-03", "--club", CHESS, "-f", "json")
    assert result.exit_code == 0, result.output
    assert {row["player"]: row["games"] for row in json.loads(result.stdout)["rows"]} == {
        "anna": 3, "boris": 3, "gleb": 3, "vera": 3}


# --- a typo in an id is the typo's, not the config's ------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["predict", "anna", "bors"], "unknown player 'bors' (did you mean \"boris\"?)"),
    (["export", "trf", "--tournament", "spring-opn"], "unknown tournament 'spring-opn' (did you mean \"spring-open\"?)"),
])
def test_an_unknown_id_on_the_command_line_does_not_blame_the_config(cli, args, message):
    # The id was typed on the command line: nardrating.toml holds no player or tournament, so a
    # message that starts with its path sends the user to the wrong file (history, head-to-head and
    # standings say the same without it).
    club = SAMPLES / "club-swiss"
    result = cli(*args, "--club", club)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(message), result.stderr
    assert "nardrating.toml" not in result.stderr


# --- a journal edited by hand ----------------------------------------------------------------

def test_a_misspelt_key_or_entry_kind_in_the_journal_gets_the_nearest_as_the_config_does(cli, tmp_path, monkeypatch):
    # nardrating.toml's `kk = 20` is answered with (did you mean "k"?); the journal's typos alike, each
    # at its entry's header: lines 1 ([[player]] anna), 8 ([[match]] m1) and 15 ([[mtach]]).
    from .conftest import make_club

    club = make_club(tmp_path / "club", '[[player]]\nid = "anna"\nnmae = "Анна"\n\n[[player]]\nid = "boris"\n\n'
                     '[[match]]\nid = "m1"\ndate = 2009-01-15\nplayers = ["anna", "boris"]\nwinner = "anna"\n'
                     'lenght = 3\n\n[[mtach]]\nid = "m2"\n')
    monkeypatch.chdir(club)
    result = cli("check")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("journal.toml:1: anna: [[player]] has an unknown key 'nmae' (did you mean \"name\"?); "
                               "allowed keys: id, name,"), lines
    assert lines[1].startswith("journal.toml:8: m1: [[match]] has an unknown key 'lenght' (did you mean \"length\"?); "
                               "allowed keys: id,"), lines
    assert lines[2].startswith("journal.toml:15: unknown entry kind 'mtach' (did you mean \"match\"?); "
                               "a journal holds [[player]]"), lines


# --- Russian throughout ----------------------------------------------------------------------

def test_the_tournament_ratings_status_is_in_russian_too(cli):
    # The sample nardy club's tournament list (placement, seed 001): the six players of the winter
    # cup have a place, the others none. In Russian both statuses are words, JSON keeps the values.
    club = SAMPLES / "nardy-club"
    shown = cli("leaderboard", "--rating", "tournament", "--all", "--club", club, env={"LANG": "ru_RU.UTF-8"})
    assert shown.exit_code == 0, shown.output
    assert "ranked" not in shown.stdout and "no tournament" not in shown.stdout
    assert shown.stdout.count("в рейтинге") == 6
    rows = json.loads(cli("leaderboard", "--rating", "tournament", "--club", club, "-f", "json",
                          env={"LANG": "ru_RU.UTF-8"}).stdout)
    assert {row["status"] for row in rows} == {"ranked"}


# --- a club folder from a Windows machine ----------------------------------------------------

def test_entries_appended_to_a_journal_with_windows_line_ends_keep_them(cli, tmp_path):
    # A journal saved on Windows ends its lines in CR LF. What the writers append (a player, a match,
    # an amend's void and match, one entry after another) ends its lines the same way: a bare LF
    # among CR LFs is a file of mixed line ends, which Windows editors show run together.
    import shutil

    club = tmp_path / "club"
    shutil.copytree(CHESS, club)
    journal = club / "journal.toml"
    journal.write_bytes(journal.read_bytes().replace(b"\n", b"\r\n"))
    old = journal.read_bytes()
    for args in (["add-player", "zoe", "--name", "Зоя"],
                 ["add-match", "anna", "zoe", "--winner", "zoe", "--date", "2009-02-05"],
                 ["amend", "m0007", "--winner", "anna"]):
        result = cli(*args, "--club", club)
        assert result.exit_code == 0, result.output
    data = journal.read_bytes()
    assert data.startswith(old)
    added = data[len(old):]
    assert added.count(b"\n") == added.count(b"\r\n") > 0
    assert added.startswith(b"\r\n[[player]]\r\n")   # one blank line before each entry, as with LF
    assert b"\r\n\r\n[[match]]\r\n" in added and b"\r\n\r\n[[void]]\r\n" in added
    # and the journal reads as before: 6 games of 2009-01, then zoe's win and its amend (void + match)
    assert cli("check", "--club", club).stdout.startswith("ok: 5 players, 8 matches, 0 tournaments, 1 void,")


def test_a_windows_journal_ending_in_a_blank_line_gets_no_second_one(cli, tmp_path):
    # People end an entry with a blank line. The LF journal "…winner = \"a\"\n\n" gets the new
    # entry right after that blank line; its CR LF twin must too, not a second blank line (the
    # appended part once looked at the last two bytes only, which cannot tell a blank CR LF line).
    import shutil

    club = tmp_path / "club"
    shutil.copytree(CHESS, club)
    journal = club / "journal.toml"
    lf = journal.read_bytes().rstrip(b"\n") + b"\n\n"
    for text in (lf, lf.replace(b"\n", b"\r\n")):
        journal.write_bytes(text)
        result = cli("add-player", "zoe", "--club", club)
        assert result.exit_code == 0, result.output
        added = journal.read_bytes()[len(text):]
        newline = b"\r\n" if b"\r" in text else b"\n"
        assert added == b"[[player]]" + newline + b'id = "zoe"' + newline
        assert cli("check", "--club", club).exit_code == 0


# --- the tournament director ----------------------------------------------------------------

def test_pair_says_first_that_a_tournament_has_no_pairing_system_whatever_the_date(cli):
    # The nardy club's winter cup (2025-02-15..16) was entered by hand: no `pairing`, so no date
    # would let `pair` pair it. Asked today (after its end), the refusal named the date, and a
    # --date within its dates then met the real refusal.
    club = SAMPLES / "nardy-club"
    for extra in ([], ["--date", "2025-02-15"]):
        result = cli("pair", "winter-cup", "--dry-run", "--club", club, *extra)
        assert result.exit_code == 1, result.output
        assert result.stderr.startswith("tournament 'winter-cup' has no pairing system; add pairing = "), result.stderr


def test_standings_of_a_tournament_entered_by_hand_come_from_its_games(cli_json, cli):
    # The nardy club's two tournaments were entered match by match (add-match --tournament), not
    # paired here: `standings` printed an empty table "after round 0" (exit 0), while the published
    # site ranks them. Counted by hand from the journal (m081-m107):
    nardy = SAMPLES / "nardy-club"
    # the winter cup's places as its [[tournament]] records them; points: vagif beat all five (5),
    # aslan all but vagif (4), gayane beat kamal and murad (2), kamal irina and murad (2), irina beat
    # gayane (1), murad irina (1)
    rows = cli_json("standings", "winter-cup", "--club", nardy)
    assert [(r["rank"], r["player"], r["points"]) for r in rows] == [
        (1, "vagif", 5.0), (2, "aslan", 4.0), (3, "gayane", 2.0), (3, "kamal", 2.0), (5, "murad", 1.0), (6, "irina", 1.0)]
    assert rows[0]["name"] == "Вагиф Алиев" and rows[0]["tiebreaks"] == {} and rows[0]["games"] == 5
    # the spring open records no places: by points, ties sharing the place. davit won his three
    # (m096, m100, m104); bella (m102, m105), kamal (m099, m107) and lusine (m098, m101) two; aslan
    # (m103), elena (m097) and zaur (m106) one; nina none
    rows = cli_json("standings", "spring-open", "--club", nardy)
    assert [(r["rank"], r["player"], r["points"]) for r in rows] == [
        (1, "davit", 3.0), (2, "bella", 2.0), (2, "kamal", 2.0), (2, "lusine", 2.0),
        (5, "aslan", 1.0), (5, "elena", 1.0), (5, "zaur", 1.0), (8, "nina", 0.0)]
    table = cli("standings", "spring-open", "--club", nardy)
    assert table.exit_code == 0
    assert "after round 0" not in table.stdout and "davit" in table.stdout
    assert "not paired here" in table.stdout


def test_crosstable_and_after_round_of_a_tournament_entered_by_hand_say_why_not(cli):
    # Such a tournament has no rounds: no crosstable round by round (an empty one, exit 0, read as
    # "no games"), no standings after a round; each says so and where its results are.
    nardy = SAMPLES / "nardy-club"
    for args in (["crosstable", "winter-cup"], ["standings", "winter-cup", "--after-round", "1"]):
        result = cli(*args, "--club", nardy)
        assert result.exit_code == 1, result.output
        assert result.stderr.startswith("tournament 'winter-cup' was not paired here"), result.stderr
        assert "nardrating standings winter-cup" in result.stderr


def test_explains_inputs_are_in_russian_words_and_numbers(cli):
    # Seed 003's third game: anna (1210 after beating boris) lost to vera (1200, her first game),
    # K 20. The inputs line named JSON's keys in English (opponent, score, opponent_rating) under a
    # Russian heading; JSON keeps them.
    ru = {"LANG": "ru_RU.UTF-8", "COLUMNS": "200"}
    shown = cli("explain", "m0003", "--club", CHESS, env=ru)
    assert shown.exit_code == 0, shown.output
    assert ("исходные данные: соперник vera, рейтинг 1210, рейтинг соперника 1200, результат 0, K 20"
            in shown.stdout.splitlines())
    # seed 000's example: Авакян's 6.5 points of the 2009 open, an event of kind competition
    shown = cli("explain", "open-2009", "--club", SAMPLES / "federation-2009", env=ru)
    first = next(line for line in shown.stdout.splitlines() if line.startswith("исходные данные:"))
    assert first.startswith("исходные данные: вид соревнование, дата 2009-03-01, соревнование open-2009, система swiss, "
                            "рейтинг 2337, рейтинги соперников [2405, 2380,")
    assert first.endswith("очки 6,5")
    english = cli("explain", "m0003", "--club", CHESS, "-f", "json", env=ru)
    assert json.loads(english.stdout)["players"][0]["inputs"] == {
        "opponent": "vera", "rating": 1210.0, "opponent_rating": 1200.0, "score": 0.0, "k": 20.0}


@pytest.mark.parametrize("club, entries", [
    ("chess-club", ["m0003"]), ("federation-2009", ["open-2009", "m0003", "avakyan@2009-06-30", "romanov@2011-05-21"]),
    ("nardy-club", ["m001", "m081", "aslan@2025-03-01"]), ("fide-club", ["m0016", "aleksandrov@2024-05-01"]),
])
def test_every_input_explain_names_has_words(cli, club, entries):
    from nardrating.i18n.terms import INPUTS

    for entry in entries:
        for rating in (None, "tournament", "chips") if club == "nardy-club" else (None,):
            args = ["explain", entry, "--club", SAMPLES / club, "-f", "json"] + (["--rating", rating] if rating else [])
            result = cli(*args)
            if result.exit_code:  # an entry one of the nardy club's lists does not explain
                continue
            for player in json.loads(result.stdout)["players"]:
                assert set(player["inputs"]) <= set(INPUTS), (club, entry, rating, player["inputs"])
