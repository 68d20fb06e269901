"""`import --ratings` on the real files, and an import in the other .mat mode seen as already there."""
from datetime import date

from .conftest import make_club
from .import_support import REAL, entries, expected, needs_real

pytestmark = needs_real

FIDE_CONFIG = """\
[club]
name = "Test"
journal = ["journal.toml"]

[rating.club]
engine = "fide"
"""
MAT = "charlot1-charlot2_7p_2025-11-08-2305.mat"


def trf_ratings(name):
    """Name → rating of every 001 line with one, read from the fixed columns FIDE's TRF16 description
    gives (name 15-47, rating 49-52), independently of the importer."""
    found = {}
    for line in (REAL / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("001 ") and line[48:52].strip().isdigit() and int(line[48:52]) > 0:
            found[line[14:47].strip()] = int(line[48:52])
    return found


def test_trf_ratings_become_adjusts_the_day_before(cli, tmp_path):
    facts = expected("example1.trf")
    club = make_club(tmp_path / "club", config=FIDE_CONFIG)
    result = cli("import", REAL / "example1.trf", "--ratings", "--club", club)
    assert result.exit_code == 0, result.output
    adjusts = entries(club, "adjust")
    names = {p["id"]: p.get("name", p["id"]) for p in entries(club, "player")}
    rated = trf_ratings("example1.trf")
    # 28. 07. 2005 is the start (042): every rating is set on the 27th, on the one list, as the file has it
    assert {a["date"] for a in adjusts} == {date(2005, 7, 27)}
    assert {a["rating"] for a in adjusts} == {"club"} and {a["discipline"] for a in adjusts} == {"chess"}
    assert {names[a["player"]]: a["set"] for a in adjusts} == {n: r for n, r in rated.items() if n in names.values()}
    assert all(isinstance(a["set"], int) for a in adjusts)  # written 2558, not 2558.0
    first = {f["name"]: f["rating"] for f in facts["first_three_by_starting_rank"]}
    assert {names[a["player"]]: a["set"] for a in adjusts if names[a["player"]] in first} == first
    # 138 of the 284 lines have no rating (the dummy 'spielfrei' among them): none of those get one
    assert len(rated) == 284 - 138
    assert f"{len(adjusts)} ratings set on list club, dated 2005-07-27" in result.stdout
    assert f"{len(adjusts)} ratings" in result.stdout.splitlines()[-1]
    # The fide list rates them from then on: Vasquez starts the event at 2558
    board = cli("leaderboard", "--club", club, "--as-of", "2005-07-28", "-f", "json")
    vasquez = next(r for r in __import__("json").loads(board.stdout) if r["name"] == "Vasquez,Rodrigo")
    assert vasquez["rating"] == first["Vasquez,Rodrigo"] and vasquez["status"] == "rated"
    assert cli("check", "--club", club).exit_code == 0
    # Again: the list rates them now, so nothing is added
    again = cli("import", REAL / "example1.trf", "--ratings", "--club", club)
    assert again.exit_code == 0 and "nothing to add" in again.stdout
    assert f"it rates the file's {len(rated)} rated players already" in again.stdout
    assert len(entries(club, "adjust")) == len(adjusts)


def test_ratings_added_to_an_import_made_without_them(cli, tmp_path):
    club = make_club(tmp_path / "club", config=FIDE_CONFIG)
    first = cli("import", REAL / "wch08ak.pgn", "--club", club)
    # Without --ratings the summary says the file's ratings were not used, and how to use them
    assert "the file's ratings of 2 players were not used; --ratings sets them" in first.stdout
    assert entries(club, "adjust") == []
    second = cli("import", REAL / "wch08ak.pgn", "--ratings", "--club", club)
    assert second.exit_code == 0, second.output
    # the games are there already; the ratings are new: WhiteElo/BlackElo of the first game, the day before
    # the match's start (2008-10-14)
    assert {(a["player"], a["set"], a["date"]) for a in entries(club, "adjust")} == {
        ("kramnik-v", 2772, date(2008, 10, 13)), ("anand-v", 2783, date(2008, 10, 13))}
    assert len(entries(club, "match")) == 11


def test_a_list_keeps_the_ratings_it_has(cli, tmp_path):
    """An elo club: a player it rates already keeps the club's rating; a new one gets the file's."""
    club = make_club(tmp_path / "club", '[[player]]\nid = "kramnik-v"\nname = "Kramnik,V"\n\n[[player]]\nid = "bob"\n\n'
                     '[[match]]\ndate = 2008-01-01\nplayers = ["kramnik-v", "bob"]\nresult = "0-1"\n')
    result = cli("import", REAL / "wch08ak.pgn", "--ratings", "--club", club)
    assert result.exit_code == 0, result.output
    assert [(a["player"], a["set"]) for a in entries(club, "adjust")] == [("anand-v", 2783)]
    assert "1 rating set on list club, dated 2008-10-13 (the day before the event); " \
           "1 player it rates already keeps the list's rating" in result.stdout


def test_no_rating_for_lists_off_the_elo_scale(cli, tmp_path):
    club = make_club(tmp_path / "club", config=FIDE_CONFIG.replace('"fide"', '"placement"'))
    plain = cli("import", REAL / "2020_06.trf", "--club", club)
    assert "ratings" not in plain.stdout  # lichess's TRF has no rating column filled
    result = cli("import", REAL / "wch08ak.pgn", "--ratings", "--club", club)
    assert result.exit_code == 0, result.output
    assert "no rating list of the club rates chess on the Elo scale" in result.stdout
    assert entries(club, "adjust") == []
    none = cli("import", REAL / MAT, "--ratings", "--club", club)
    assert "--ratings: the file gives no player a rating" in none.stdout


def test_mat_whole_then_per_game_and_back(cli, tmp_path):
    facts = expected(MAT)
    for first, then in (((), ("--per-game",)), (("--per-game",), ())):
        club = make_club(tmp_path / f"club{len(first)}")
        assert cli("import", REAL / MAT, *first, "--club", club).exit_code == 0
        before = (club / "journal.toml").read_bytes()
        again = cli("import", REAL / MAT, *then, "--club", club)
        assert again.exit_code == 0, again.output
        assert (club / "journal.toml").read_bytes() == before
        read = facts["number_of_games"] if then else 1
        assert f"{read} match{'es' if read > 1 else ''}, 0 to add, {read} already in the journal" in again.stdout
        assert "nothing to add" in again.stdout


def test_per_game_of_another_match_is_not_taken_for_it(cli, tmp_path):
    """Whole match in the journal, but with another result: its games are not already there."""
    club = make_club(tmp_path / "club", '[[player]]\nid = "charlot1"\n\n[[player]]\nid = "charlot2"\n\n'
                     '[[match]]\ndate = 2025-11-08\nplayers = ["charlot1", "charlot2"]\n'
                     'result = "0-1"\nlength = 7\n', config=FIDE_CONFIG.replace('"fide"', '"fibs"'))
    result = cli("import", REAL / MAT, "--per-game", "--club", club)
    assert result.exit_code == 0, result.output
    assert "4 matches, 4 to add, 0 already in the journal" in result.stdout
