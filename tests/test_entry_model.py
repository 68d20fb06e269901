"""One entry model: the id rule and the limits, the same through TOML, CSV and every writer."""
import tomllib
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from nardrating.journal.entries import ENTRY_MODELS, entry_errors, id_problem, valid_id

from .conftest import ELO_CONFIG, make_club

PLAYERS = '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n'


# --- The id rule ---------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "anna", "anna-1_b", "Пётр", "m0001", "1", "-", "_x",
    "e\u0301tienne",          # e + COMBINING ACUTE ACCENT: a mark on a letter
    "a\u0301\u0323",          # two marks on one letter
    "x" * 100,                # the longest
    "李明", "Ἀθῆναι",
])
def test_ids_the_rule_accepts(text):
    assert id_problem(text) is None and valid_id(text)


@pytest.mark.parametrize("text, why", [
    ("x²", "character 2, '²' (U+00B2)"),          # \w takes it; not a letter or an ASCII digit
    ("x\n", "character 2, '\\n' (U+000A)"),       # re's $ matches before a final newline
    ("x" * 101, "101 characters long, more than 100"),
    ("", "empty"),
    ("a b", "character 2, ' '"),
    ("Liren, Ding", "character 6, ','"),
    ("\u0301x", "character 1"),                   # a mark on nothing
    ("1\u0301", "character 2"),                   # a mark on a digit
    ("٣", "character 1"),                         # an Arabic-Indic digit: digits are 0-9 only
    ("a\x1b[31m", "character 2, '\\x1b'"),
    ("a.b", "character 2, '.'"),
    ("a\u00a0b", "character 2"),                  # no-break space
])
def test_ids_the_rule_refuses_and_says_which_character(text, why):
    assert not valid_id(text)
    assert why in id_problem(text)


ID_TEXTS = st.one_of(st.text(alphabet="aZ09_-.\n é́²李", max_size=102), st.text(max_size=6))


@settings(max_examples=100, derandomize=True)
@given(ID_TEXTS)
def test_valid_id_decides_as_the_rule_does(text):
    """valid_id decides an ASCII id in C before the rule's loop: the same answer every time."""
    assert valid_id(text) == (id_problem(text) is None)


@pytest.mark.slow
@settings(max_examples=500, derandomize=True)
@given(ID_TEXTS)
def test_valid_id_decides_as_the_rule_does_for_many_texts(text):
    assert valid_id(text) == (id_problem(text) is None)


def errors(kind, **fields):
    with pytest.raises(ValidationError) as caught:
        ENTRY_MODELS[kind](**fields)
    return {".".join(map(str, loc)): message for loc, message in entry_errors(caught.value, kind)}


def test_every_player_reference_follows_the_id_rule():
    day = date(2009, 1, 15)
    assert set(errors("match", date=day, players=["x²", "boris"], winner="boris", discipline="a b",
                      tournament="t\n", id="m 1")) == {"players.0", "discipline", "tournament", "id"}
    assert set(errors("match", date=day, players=["anna", "boris"], winner="x²")) == {"winner"}
    assert set(errors("tournament", id="t", system="swiss", start=day, end=day,
                      standings=[{"player": "x²", "place": 1}])) == {"standings.0.player"}
    assert set(errors("adjust", date=day, player="x²", set=1500)) == {"player"}
    assert set(errors("void", match="x²", date=day, reason="r")) == {"match"}
    assert set(errors("player", id="x" * 101)) == {"id"}


def test_spaces_around_an_id_are_forgiven_but_not_control_characters():
    assert ENTRY_MODELS["player"](id=" anna ").id == "anna"
    assert "U+000A" in errors("player", id="anna\n")["id"]


# --- Text and number limits, in plain words -------------------------------------------

def test_text_fields_refuse_control_characters_and_notes_may_hold_newlines_and_tabs():
    day = date(2009, 1, 15)
    for field in ("name", "alias", "title"):
        assert "control character, '\\x1b' (U+001B)" in errors("player", id="a", **{field: "A\x1b[2J"})[field]
        assert "control character, '\\x9b' (U+009B)" in errors("player", id="a", **{field: "A\x9b"})[field]  # C1
        assert "control character, '\\x7f'" in errors("player", id="a", **{field: "A\x7f"})[field]  # DEL
        assert "'\\t'" in errors("player", id="a", **{field: "A\tB"})[field]
        assert "201 characters long, more than 200" in errors("player", id="a", **{field: "n" * 201})[field]
    match = dict(date=day, players=["anna", "boris"], winner="anna")
    assert ENTRY_MODELS["match"](**match, note="line 1\n\tline 2").note == "line 1\n\tline 2"
    assert "a note may hold newlines and tabs, no other" in errors("match", **match, note="a\rb")["note"]
    assert "2001 characters long" in errors("match", **match, note="n" * 2001)["note"]
    assert "'\\x00'" in errors("void", match="m1", date=day, reason="a\x00")["reason"]
    assert "'\\x1b'" in errors("tournament", id="t", name="\x1b", system="swiss", start=day, end=day)["name"]
    assert "U+DCFF" in errors("player", id="a", name="bad\udcff")["name"]  # a command line's non-UTF-8 byte


@pytest.mark.parametrize("fields, key, message", [
    ({"length": 5000}, "length", "5000 is not a match length; write a whole number of points from 1 to 1000"),
    ({"length": 10 ** 20}, "length", "100000000000000000000 is not a match length"),
    ({"length": 0}, "length", "0 is not a match length"),
    ({"length": True}, "length", "True is not a match length"),
    ({"length": "five"}, "length", "'five' is not a match length"),
    ({"chips": float("nan")}, "chips", "nan is not a number of chips; write a number from 0 to 1000000"),
    ({"chips": float("inf")}, "chips", "inf is not a number of chips"),
    ({"chips": -5.0}, "chips", "-5.0 is not a number of chips"),
    ({"chips": 1_000_000.5}, "chips", "1000000.5 is not a number of chips"),
    ({"chips": 10 ** 400}, "chips", "is not a number of chips"),
    ({"score": [10001, 3]}, "score.0", "10001 is not a score; write two whole numbers from 0 to 10000"),
    ({"score": [1, -1]}, "score.1", "-1 is not a score"),
    ({"date": date(1899, 12, 31)}, "date", "1899-12-31 is not a date from 1900-01-01 to 2999-12-31"),
    ({"date": date(3000, 1, 1)}, "date", "3000-01-01 is not a date from 1900-01-01 to 2999-12-31"),
])
def test_match_numbers_and_dates_out_of_range_say_what_is_right(fields, key, message):
    entry = {"date": date(2009, 1, 15), "players": ["anna", "boris"], "winner": "anna", **fields}
    found = errors("match", **entry)
    assert message in found[key]
    assert "Input should" not in found[key]


def test_adjust_values_are_bounded():
    day = date(2009, 1, 1)
    assert "1e+300 is not a rating; write a number from -100000 to 100000" in errors(
        "adjust", date=day, player="anna", set=1e300)["set"]
    assert "-100001.0 is not a rating change" in errors("adjust", date=day, player="anna", delta=-100001.0)["delta"]
    assert ENTRY_MODELS["adjust"](date=day, player="anna", set=-100000).set == -100000


def test_the_edges_are_accepted():
    entry = ENTRY_MODELS["match"](date=date(2999, 12, 31), players=["a", "b"], winner="a", length=1000,
                                  chips=1_000_000, score=[10000, 0], note="n" * 2000)
    assert entry.length == 1000 and entry.chips == 1_000_000
    assert ENTRY_MODELS["player"](id="x" * 100, name="n" * 200, joined=date(1900, 1, 1)).id == "x" * 100


# --- The same rules through a TOML journal and a CSV journal --------------------------

def check_lines(cli, club):
    import os

    os.chdir(club)  # messages name files relative to the current folder (conftest restores it)
    result = cli("check", "--club", club)
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr.splitlines()


def test_toml_player_x_squared_is_refused_at_its_line(cli, tmp_path):
    club = make_club(tmp_path, PLAYERS + '\n[[player]]\nid = "x²"\n')
    code, lines = check_lines(cli, club)
    assert code == 1
    # PLAYERS takes lines 1-5; a blank line; the third [[player]] header is line 7.
    assert lines == ["journal.toml:7: 'x²': id: 'x²' is not an id: character 2, '²' (U+00B2), is not allowed; "
                     "an id is 1 to 100 characters: letters of any alphabet (with their accents), digits 0-9, _ and -"]


def test_toml_fibs_adjust_set_1e300_is_refused_at_its_line(cli, tmp_path):
    config = '[club]\njournal = ["journal.toml"]\ndefault_discipline = "long-nardy"\n[rating.fibs]\nengine = "fibs"\n'
    club = make_club(tmp_path, PLAYERS + '\n[[adjust]]\ndate = 2009-01-01\nplayer = "anna"\nset = 1e300\n', config)
    code, lines = check_lines(cli, club)
    assert code == 1 and len(lines) == 1
    assert lines[0].startswith("journal.toml:7: set: 1e+300 is not a rating; write a number from -100000 to 100000")


def test_toml_text_with_an_escape_sequence_is_refused_at_its_line(cli, tmp_path):
    club = make_club(tmp_path, PLAYERS + '\n[[player]]\nid = "vera"\nname = "\\u001b[31mВера"\n')
    code, lines = check_lines(cli, club)
    assert code == 1
    assert lines[0].startswith("journal.toml:7: vera: name: character 1 is a control character, '\\x1b' (U+001B), "
                             "which names and other text may not hold")


CSV_CONFIG = ELO_CONFIG.replace('journal = ["journal.toml"]', 'journal = ["games.csv", "journal.toml"]')


def csv_club(tmp_path, rows: str, journal: str = ""):
    club = make_club(tmp_path, journal, CSV_CONFIG)
    (club / "games.csv").write_text("id,date,player_a,player_b,result,discipline,tournament,chips,note\n" + rows,
                                    encoding="utf-8")
    return club


def test_csv_player_that_is_not_an_id_is_refused_with_file_line_column_and_what_to_do(cli, tmp_path):
    club = csv_club(tmp_path, "g1,2009-01-01,anna,boris,1-0,,,,\n"
                              'g2,2009-01-02,"Liren, Ding",anna,1-0,,,,\n'
                              'g3,2009-01-03,anna,"Liren, Ding",0-1,,,,\n')
    code, lines = check_lines(cli, club)
    assert code == 1
    assert len(lines) == 1  # said once, at its first row
    assert lines[0].startswith("games.csv:3: g2: player_a: 'Liren, Ding' is not an id: character 6, ',' (U+002C)")
    assert '[[player]] id = "liren-ding", name = "Liren, Ding"' in lines[0]
    assert "write the id in this column" in lines[0]


def test_csv_declared_player_named_by_id_is_fine_and_csv_named_ids_follow_the_rule(cli, tmp_path):
    journal = '[[player]]\nid = "liren-ding"\nname = "Liren, Ding"\n'
    club = csv_club(tmp_path, "g1,2009-01-01,liren-ding,Пётр,1-0,,,,\n", journal)
    assert cli("check", "--club", club).exit_code == 0
    club = csv_club(tmp_path / "2", "g1,2009-01-01,x²,anna,1-0,,,,\n")
    code, lines = check_lines(cli, club)
    assert code == 1 and lines[0].startswith("games.csv:2: g1: player_a: 'x²' is not an id")


@pytest.mark.parametrize("row, message", [
    ("g 1,2009-01-01,anna,boris,1-0,,,,", "games.csv:2: id: 'g 1' is not an id: character 2"),
    ("g1,2009-01-01,anna,boris,1-0,long nardy,,,", "games.csv:2: g1: discipline: 'long nardy' is not an id"),
    ("g1,2009-01-01,anna,boris,1-0,,cup²,,", "games.csv:2: g1: tournament: 'cup²' is not an id"),
    ("g1,3000-01-01,anna,boris,1-0,,,,", "games.csv:2: g1: date '3000-01-01' is not a date from 1900-01-01 to 2999-12-31"),
    ("g1,2009-01-01,anna,boris,1-0,,,nan,", "games.csv:2: g1: chips: 'nan' is not a number of chips"),
    ("g1,2009-01-01,anna,boris,1-0,,,inf,", "games.csv:2: g1: chips: 'inf' is not a number of chips"),
    ("g1,2009-01-01,anna,boris,1-0,,,1000001,", "games.csv:2: g1: chips: '1000001' is not a number of chips"),
    ('g1,2009-01-01,anna,boris,1-0,,,,"a\x1bb"', "games.csv:2: g1: note: character 2 is a control character"),
])
def test_csv_applies_the_entry_models_limits_on_both_paths(cli, tmp_path, row, message):
    # Without quotes the bulk path reads the file; a quoted cell sends it to the careful path.
    for k, text in enumerate((row, row.replace("g1,", '"g1",', 1))):
        club = csv_club(tmp_path / str(k), text + "\n" + "g9,2009-01-02,anna,boris,1-0,,,,\n")
        code, lines = check_lines(cli, club)
        assert code == 1 and lines and lines[0].startswith(message), (text, lines)


def test_csv_rows_without_ids_and_ids_at_the_length_limit(cli, tmp_path):
    club = csv_club(tmp_path, "  ,2009-01-01,anna,boris,1-0,,,,\n,2009-01-02,anna,boris,1-0,,,,\n")
    assert cli("check", "--club", club).exit_code == 0  # ids games-1, games-2, derived as for TOML
    club = csv_club(tmp_path / "2", f"{'g' * 100},2009-01-01,anna,boris,1-0,,,,\n"
                                    f"{'h' * 101},2009-01-02,anna,boris,1-0,,,,\n")
    code, lines = check_lines(cli, club)
    shortened = "h" * 37 + "..." + "h" * 38  # a long value is quoted shortened
    assert code == 1 and lines == [f"games.csv:3: id: '{shortened}' is not an id: it is 101 characters long, "
                                   "more than 100; an id is 1 to 100 characters: letters of any alphabet "
                                   "(with their accents), digits 0-9, _ and -"]


def test_a_player_named_in_a_csv_can_be_declared_later(cli, tmp_path):
    # A full read creates CSV-named players last, so a [[player]] appended later declares it.
    club = csv_club(tmp_path, "g1,2009-01-01,anna,vera,1-0,,,,\n", PLAYERS)
    result = cli("add-player", "vera", "--name", "Вера", "--club", club)
    assert result.exit_code == 0, result.output
    from nardrating.replay.loader import load_club

    player = load_club(club, use_cache=False).journal.players["vera"]
    assert player.name == "Вера" and player.declared
    assert tomllib.loads((club / "journal.toml").read_text())["player"][-1] == {"id": "vera", "name": "Вера"}
