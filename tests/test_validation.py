"""`nardrating check`: every problem at once, as FILE:LINE: message, exit 1."""
import pytest

from .conftest import ELO_CONFIG, make_club

PLAYERS = """\
[[player]]
id = "anna"

[[player]]
id = "boris"
"""


def check(cli, club):
    import os

    os.chdir(club)  # messages name files relative to the current folder
    result = cli("check", "--club", club)
    return result.exit_code, result.stderr.splitlines()


def test_valid_club_passes_with_summary(cli, tmp_path):
    club = make_club(tmp_path, PLAYERS + '[[match]]\ndate = 2009-01-15\nplayers = ["anna", "boris"]\nresult = "1-0"\n')
    result = cli("check", "--club", club)
    assert result.exit_code == 0
    assert "2 players, 1 match," in result.stdout


def test_every_problem_is_reported_with_file_and_line(cli, tmp_path):
    journal = PLAYERS + """
[[match]]
id = "m1"
date = 2009-01-15
players = ["anna", "borsi"]
result = "1-0"

[[match]]
id = "m1"
date = 2009-01-16
players = ["anna", "boris"]
result = "1-0"

[[match]]
id = "m3"
date = 2009-01-16
players = ["anna", "anna"]
result = "1-0"

[[match]]
id = "m4"
date = 2009-01-16
players = ["anna", "boris"]
result = "2-0"

[[match]]
id = "m5"
date = 2009-01-16
players = ["anna", "boris"]
result = "1-0"
length = 0

[[match]]
id = "m6"
date = 2009-01-16
players = ["anna", "boris"]
result = "1-0"
tournament = "cup"

[[tournament]]
id = "cup-1"
system = "swiss"
start = 2009-02-01
end = 2009-02-03

[[match]]
id = "m7"
date = 2009-01-16
players = ["anna", "boris"]
result = "1-0"
tournament = "cup-1"

[[void]]
match = "m99"
date = 2009-01-20
reason = "typo"

[[adjust]]
date = 2009-01-01
player = "anna"
rating = "national"
set = 1350
"""
    code, lines = check(cli, make_club(tmp_path, journal))
    assert code == 1
    # Line numbers are those of each entry's [[...]] header in journal.toml: the players take
    # lines 1-5 and a blank line, so the first [[match]] is on line 7, then one every 6 lines
    # (13, 19, 25, 31); m5 has one more key, so m6 is on 38; the tournament 45, m7 51, …
    expected = [
        "journal.toml:7: m1: unknown player 'borsi' (did you mean \"boris\"?)",
        "journal.toml:13: m1: match id 'm1' is already used at journal.toml:7",
        "journal.toml:19: m3: a match needs two different players",
        "journal.toml:25: m4: result '2-0' is not a result",
        "journal.toml:31: m5: length: 0 is not a match length; write a whole number of points from 1 to 1000",
        "journal.toml:38: m6: unknown tournament 'cup' (did you mean \"cup-1\"?)",
        "journal.toml:51: m7: the match is dated 2009-01-16, outside its tournament 'cup-1' (2009-02-01 to 2009-02-03)",
        "journal.toml:58: void of an unknown match 'm99'",
        "journal.toml:63: adjustment of an unknown rating list 'national'",
    ]
    for want in expected:
        assert any(line.startswith(want) for line in lines), (want, lines)
    assert "Traceback" not in "\n".join(lines)


def test_toml_syntax_error_has_line(cli, tmp_path):
    code, lines = check(cli, make_club(tmp_path, PLAYERS + "\n[[match]\ndate = 2009-01-15\n"))
    assert code == 1
    assert lines[0].startswith("journal.toml:7: TOML syntax error")


@pytest.mark.parametrize(("written", "said"), [
    # tomllib said "Expected newline or end of document after a statement" for each of these
    ("07.12.2026", "date = 07.12.2026 is not a date TOML reads: write it YYYY-MM-DD, 2026-12-07"),   # day.month.year
    ("2026-1-5", "date = 2026-1-5 is not a date TOML reads: write it YYYY-MM-DD, 2026-01-05"),
    ("2026/12/07", "date = 2026/12/07 is not a date TOML reads: write it YYYY-MM-DD, 2026-12-07"),
    # no 13th month, no 30 February; 12/07/2026 is the 7th of December or the 12th of July: no guess
    ("2026-13-07", "date = 2026-13-07 is not a date: write it YYYY-MM-DD (year, month, day), a day the calendar has"),
    ("2026-02-30", "date = 2026-02-30 is not a date: write it YYYY-MM-DD (year, month, day), a day the calendar has"),
    ("12/07/2026", "date = 12/07/2026 is not a date: write it YYYY-MM-DD (year, month, day), a day the calendar has"),
])
def test_a_date_written_another_way_is_named_at_its_line(cli, tmp_path, written, said):
    journal = PLAYERS + f'\n[[match]]\nid = "m1"\ndate = {written}\nplayers = ["anna", "boris"]\nresult = "1-0"\n'
    code, lines = check(cli, make_club(tmp_path, journal))
    assert code == 1
    line = PLAYERS.count("\n") + 4   # the blank line, [[match]], id, date
    assert lines[0].startswith(f"journal.toml:{line}: {said}"), lines


def test_config_errors_name_file_table_and_key(cli, tmp_path):
    config = ELO_CONFIG.replace("k = 20", "k = \"twenty\"\nkk = 3") + '\n[rating.other]\nengine = "trueskill"\n'
    code, lines = check(cli, make_club(tmp_path, PLAYERS, config))
    assert code == 1
    text = "\n".join(lines)
    assert "nardrating.toml:9: [rating.club] k: " in text           # k = "twenty" is on line 9
    assert "nardrating.toml:10: [rating.club] has an unknown key 'kk'" in text
    assert "allowed keys: inactivity, inactive_after_months, exclude_after_months, start, k, provisional_games, pair_limit_per_day" in text
    assert "nardrating.toml:15: [rating.other] engine 'trueskill' is unknown; allowed: elo, fibs" in text


def test_other_commands_refuse_an_invalid_journal(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    club = make_club(tmp_path, PLAYERS + '[[match]]\ndate = 2009-01-15\nplayers = ["anna", "zoe"]\nresult = "1-0"\n')
    for args in (["leaderboard"], ["history", "anna"], ["report", "--period", "2009"], ["recalc"]):
        result = cli(*args, "--club", club)
        assert result.exit_code == 1
        assert "journal.toml:6: " in result.stderr and "unknown player 'zoe'" in result.stderr


def test_missing_club_is_a_plain_error(cli, tmp_path):
    result = cli("leaderboard", "--club", tmp_path / "nowhere")
    assert result.exit_code == 1
    assert "no club config here" in result.stderr


def test_usage_error_exit_2(cli):
    result = cli("report", "--period", "2009-Q1", "--format", "xml", "--club", ".")
    assert result.exit_code == 2


def test_engine_fields_of_an_adjust_only_for_the_engines_that_take_them(cli, tmp_path):
    # k and games are fide's, rd and volatility glicko's: an elo list takes none of them.
    club = make_club(tmp_path, PLAYERS + '\n[[adjust]]\ndate = 2009-01-01\nplayer = "anna"\nset = 1300\nk = 40\n'
                     'reason = "imported"\n')
    code, lines = check(cli, club)
    assert code == 1
    assert lines == ["journal.toml:7: k is not used by rating list 'club' (elo); leave it out"]


def test_adjust_k_must_be_one_of_fides_values(cli, tmp_path):
    club = make_club(tmp_path, PLAYERS + '\n[[adjust]]\ndate = 2009-01-01\nplayer = "anna"\nset = 1300\nk = 30\n')
    code, lines = check(cli, club)
    assert code == 1 and lines[0].startswith("journal.toml:7: k:")


def test_a_tournament_match_in_another_discipline_or_outside_its_dates_is_reported(cli, tmp_path):
    """The tournament 'cup' is long nardy, 2009-02-01 to 2009-02-03. In journal.toml the header of m1
    (chess, within the dates) is line 14, after the five lines of players, a blank and the seven of
    the tournament; in games.csv, line 2 is right, line 3 is short nardy, line 4 is dated after the
    cup, line 5 names a tournament nobody declared."""
    journal = PLAYERS + """
[[tournament]]
id = "cup"
system = "swiss"
start = 2009-02-01
end = 2009-02-03
discipline = "long-nardy"

[[match]]
id = "m1"
date = 2009-02-02
players = ["anna", "boris"]
result = "1-0"
tournament = "cup"
discipline = "chess"
"""
    club = make_club(tmp_path, journal, ELO_CONFIG.replace('journal = ["journal.toml"]',
                                                           'journal = ["journal.toml", "games.csv"]'))
    (club / "games.csv").write_text("date,player_a,player_b,result,tournament,discipline\n"
                                    "2009-02-02,anna,boris,1-0,cup,long-nardy\n"
                                    "2009-02-02,boris,anna,1-0,cup,short-nardy\n"
                                    "2009-02-05,anna,boris,1-0,cup,long-nardy\n"
                                    "2009-02-02,anna,boris,1-0,cap,long-nardy\n", encoding="utf-8")
    code, lines = check(cli, club)
    assert code == 1
    problems = [line.split(": ", 1)[0] + ": " + line.split(": ", 2)[-1] for line in lines if line.startswith(("journal", "games"))]
    assert problems == [
        "journal.toml:14: the match's discipline 'chess' differs from its tournament's 'long-nardy'",
        "games.csv:3: the match's discipline 'short-nardy' differs from its tournament's 'long-nardy'",
        "games.csv:4: the match is dated 2009-02-05, outside its tournament 'cup' (2009-02-01 to 2009-02-03)",
        "games.csv:5: unknown tournament 'cap' (did you mean \"cup\"?); add it with a [[tournament]] entry or "
        "`nardrating add-tournament`",
    ], lines


@pytest.mark.parametrize(("written", "said"), [
    # tomllib: "Invalid value" or "Expected newline or end of document after a statement" for each
    ('winner = anna', 'winner = anna: text goes in double quotes: winner = "anna"'),
    ('result = 1-0', 'result = 1-0: text goes in double quotes: result = "1-0"'),
    ('note = «Кубок» города', 'note = «Кубок» города: text goes in double quotes: note = "«Кубок» города"'),
    ('note = he said "draw"', 'note = he said "draw": text goes in double quotes: note = "he said \\"draw\\""'),
    ('note = “round 3”', 'note: TOML quotes text with straight double quotes ("), not “ ”: note = "round 3"'),
    ('rated = yes', "rated = yes: TOML's yes and no are true and false, in lower case: rated = true"),
    ('forfeit = нет', "forfeit = нет: TOML's yes and no are true and false, in lower case: forfeit = false"),
])
def test_a_value_written_by_hand_without_quotes_is_named_with_the_line_to_write(cli, tmp_path, written, said):
    journal = PLAYERS + f'\n[[match]]\nid = "m1"\ndate = 2009-01-15\nplayers = ["anna", "boris"]\n{written}\n'
    code, lines = check(cli, make_club(tmp_path, journal))
    assert code == 1
    assert lines[0] == f"journal.toml:{PLAYERS.count(chr(10)) + 6}: {said}", lines


@pytest.mark.parametrize(("written", "fixed"), [
    ('players = [anna, boris]', 'players = ["anna", "boris"]'),
    ('players = ["anna" "boris"]', 'players = ["anna", "boris"]'),       # a comma left out
    ('players = [“anna”, “boris”]', 'players = ["anna", "boris"]'),
])
def test_an_array_written_by_hand_is_named_with_the_line_to_write(cli, tmp_path, written, fixed):
    journal = PLAYERS + f'\n[[match]]\nid = "m1"\ndate = 2009-01-15\n{written}\nwinner = "anna"\n'
    code, lines = check(cli, make_club(tmp_path, journal))
    assert code == 1 and lines[0].startswith(f"journal.toml:{PLAYERS.count(chr(10)) + 5}: players")
    assert lines[0].endswith(f": {fixed}"), lines


def test_a_journal_saved_with_crlf_gets_the_same_words(cli, tmp_path):
    # Notepad ends lines with CRLF: the line's "\r" is not part of the value to quote
    journal = (PLAYERS + '\n[[match]]\nid = "m1"\ndate = 2009-01-15\nplayers = ["anna", "boris"]\nwinner = anna\n'
               ).replace("\n", "\r\n")
    code, lines = check(cli, make_club(tmp_path, journal))
    assert code == 1 and lines[0].endswith(': winner = anna: text goes in double quotes: winner = "anna"'), lines


def test_a_line_toml_reads_alone_keeps_tomls_words(cli, tmp_path):
    # a key given twice: tomllib stops at the second line, which is a good date; no hint about dates
    journal = PLAYERS + '\n[[match]]\nid = "m1"\ndate = 2009-01-15\ndate = 2009-01-16\nplayers = ["anna", "boris"]\n'
    code, lines = check(cli, make_club(tmp_path, journal))
    assert code == 1 and lines[0].startswith(f"journal.toml:{PLAYERS.count(chr(10)) + 5}: TOML syntax error"), lines


def test_other_lines_keep_tomls_words():
    from nardrating.journal.tomlhints import hand_written_problem

    # a number with a letter in it is not text to quote; a header is not a key; 12/07/2026 is not guessed
    assert hand_written_problem("k = 2O") is None
    assert hand_written_problem("[[match]") is None
    assert hand_written_problem("length = 7 points") is None
    assert "2009-01-15" in hand_written_problem("date = 12/07/2026")


def test_the_line_to_write_is_toml_that_reads():
    """On any `key = value` line TOML cannot read, a hint never fails, and the line it gives to write
    (its message ends with it) is one TOML reads."""
    import tomllib

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from nardrating.journal.tomlhints import hand_written_problem

    values = st.text(alphabet="ab я«»“”„\"'[],.-/:#½10 7", min_size=1, max_size=20)

    @settings(max_examples=60)
    @given(values)
    def check_line(value):
        line = f"note = {value}"
        try:
            tomllib.loads(line)
            return
        except tomllib.TOMLDecodeError:
            pass
        said = hand_written_problem(line)
        if said is not None and "note = " in said.split(": ", 1)[1]:
            written = said[said.rindex("note = "):]
            tomllib.loads(written)

    check_line()
