"""export trf: a TRF16 report of a journal's tournament; export → import gives the same entries."""
from collections import Counter

import pytest

from .conftest import make_club
from .import_support import REAL, entries, needs_real
from .test_import_files import TRF, write

JOURNAL = """\
[[player]]
id = "anna"
name = "Анна Петрова"
title = "WFM"

[[player]]
id = "boris"

[[player]]
id = "vera"

[[tournament]]
id = "cup"
name = "Кубок"
system = "round-robin"
start = 2024-02-01
end = 2024-02-03

[[match]]
date = 2024-02-01
players = ["anna", "boris"]
result = "1-0"
tournament = "cup"

[[match]]
date = 2024-02-02
players = ["vera", "anna"]
result = "1/2-1/2"
tournament = "cup"

[[match]]
date = 2024-02-03
players = ["boris", "vera"]
result = "0-1"
forfeit = true
tournament = "cup"
"""


def comparable(club):
    matches = Counter((m["date"], tuple(m["players"]), m["result"], m.get("forfeit", False), m.get("rated", True),
                       m.get("note"), m.get("tournament")) for m in entries(club, "match"))
    players = sorted((p["id"], p.get("name"), p.get("title")) for p in entries(club, "player"))
    tournaments = [{k: v for k, v in t.items()} for t in entries(club, "tournament")]
    return matches, players, tournaments


def test_export_of_a_hand_written_tournament(cli, tmp_path):
    club = make_club(tmp_path / "club", JOURNAL)
    result = cli("export", "trf", "--tournament", "cup", "--club", club)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:5] == ["012 Кубок", "042 2024/02/01", "052 2024/02/03", "062 3", "092 Individual: Round-Robin"]
    # No round notes: anna-boris is round 1, vera-anna round 2 (anna's second game), boris-vera round 3
    # (after vera's game of round 2); each round's date is its game's.
    assert lines[5] == "132" + " " * 88 + "24/02/01  24/02/02  24/02/03"
    anna, boris, vera = lines[6:9]
    # FIDE columns (1-based): rank 5-8, title 11-13, name 15-47, points 81-84, place 86-89, round cells
    # from 92 (opponent 92-95, colour 97, result 99), 10 apart.
    assert anna[4:8] == "   1" and anna[10:13] == " wf" and anna[14:47].rstrip() == "Анна Петрова"
    assert anna[80:84] == " 1.5" and anna[85:89] == "   1"  # 1 + ½, first
    assert anna[91:99] == "   2 w 1" and anna[101:109] == "   3 b =" and len(anna) == 109  # no game in round 3
    assert boris[91:99] == "   1 b 0" and boris[101:109] == " " * 8 and boris[111:119] == "   3 w -"  # forfeit
    assert vera[80:84] == " 1.5" and vera[85:89] == "   2"  # ½ + the forfeit win, placed after anna
    assert vera[91:99] == " " * 8 and vera[101:109] == "   1 w =" and vera[111:119] == "   2 b +"


def test_round_trip_of_a_small_file(cli, tmp_path):
    first, second = make_club(tmp_path / "a"), make_club(tmp_path / "b")
    assert cli("import", write(tmp_path, "cup.trf", TRF), "--club", first).exit_code == 0
    exported = cli("export", "trf", "--tournament", "osennii-kubok-2024", "--club", first)
    assert exported.exit_code == 0, exported.output
    again = cli("import", write(tmp_path, "again.trf", exported.stdout), "--club", second)
    assert again.exit_code == 0, again.output
    assert comparable(first) == comparable(second)


@needs_real
@pytest.mark.parametrize("name, tournament", [
    pytest.param("example1.trf", "9-karl-mala-gedenkturnier-2005", marks=pytest.mark.slow),  # 276 players
    ("2020_06.trf", "mai-5-plus-0-turnier-2020")])
def test_round_trip_of_the_real_files(cli, tmp_path, name, tournament):
    first, second = make_club(tmp_path / "a"), make_club(tmp_path / "b")
    assert cli("import", REAL / name, "--club", first).exit_code == 0
    exported = cli("export", "trf", "--tournament", tournament, "--club", first)
    assert exported.exit_code == 0, exported.output
    path = write(tmp_path, "out.trf", exported.stdout)
    assert cli("import", path, "--club", second).exit_code == 0
    assert comparable(first) == comparable(second)
    # and into the club it came from: every match is already there
    before = (first / "journal.toml").read_bytes()
    back = cli("import", path, "--club", first)
    assert back.exit_code == 0 and "nothing to add" in back.stdout
    assert (first / "journal.toml").read_bytes() == before


def test_unknown_tournament(cli, tmp_path):
    club = make_club(tmp_path / "club", JOURNAL)
    result = cli("export", "trf", "--tournament", "cpu", "--club", club)
    assert result.exit_code == 1 and "unknown tournament 'cpu' (did you mean \"cup\"?)" in result.stderr


def cells(text: str) -> dict[int, list[str]]:
    """Each 001 line's round cells (start number → cells), written the one way TRF-16 allows several:
    no opponent is 0000, a blank colour -, and a bye's code U (a lone + in older files), F, H or Z
    (- , 0 or blank: an absence); a forfeit's colour is nominal (FIDE's sample gives none, - ; the
    export writes white for the lower number), so it is left out."""
    found = {}
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        row = []
        body = line.rstrip()
        for start in range(91, len(body), 10):
            cell = body[start:start + 8].ljust(8)
            opponent, colour, code = cell[:4].strip(), cell[5], cell[7].upper()
            if not opponent.strip("0"):
                row.append("0000 - " + {"+": "U", "-": "Z", "0": "Z", " ": "Z"}.get(code, code))
            else:
                row.append(f"{int(opponent):>4} {'-' if code in '+-' else colour} {code}")
        found[int(line[4:8])] = row
    return found


@needs_real
@pytest.mark.parametrize("name, tournament", [
    pytest.param("example1.trf", "9-karl-mala-gedenkturnier-2005", marks=pytest.mark.slow),  # 276 players
    ("2020_06.trf", "mai-5-plus-0-turnier-2020")])
def test_import_then_export_gives_back_the_round_cells(cli, tmp_path, name, tournament):
    club = make_club(tmp_path / "club")
    assert cli("import", REAL / name, "--club", club).exit_code == 0
    exported = cli("export", "trf", "--tournament", tournament, "--club", club)
    assert exported.exit_code == 0, exported.output
    original, back = cells((REAL / name).read_text(encoding="utf-8")), cells(exported.stdout)
    rounds = max(map(len, original.values()))
    original = {k: row + ["0000 - Z"] * (rounds - len(row)) for k, row in original.items()}  # a short line: absent
    if name == "example1.trf":
        del original[284]  # the "spielfrei" dummy plays no game: no entrant
    assert back == original
    assert f"XXR {rounds}" in exported.stdout.splitlines()


def test_a_file_in_progress_keeps_its_planned_rounds(cli, tmp_path):
    in_progress = TRF + "XXR 5\n"
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "cup.trf", in_progress), "--club", club)
    assert result.exit_code == 0, result.output
    assert "in progress, 2 of 5 rounds: `nardrating pair osennii-kubok-2024` pairs round 3" in result.stdout
    [t] = entries(club, "tournament")
    assert t["rounds"] == 5 and entries(club, "withdraw") == []   # absences in a file in progress are no withdrawal
    exported = cli("export", "trf", "--tournament", "osennii-kubok-2024", "--club", club)
    assert "XXR 5" in exported.stdout.splitlines()


@pytest.mark.parametrize("tournament, matches", [("club-championship", 3 + 3), ("spring-open", 5 + 4 + 4)])
def test_export_of_a_tournament_run_here_imported_back_is_nothing_new(cli, tmp_path, tournament, matches):
    """The club's own export, imported into the club again: the tournament is the one of the same name
    and start, whatever its id (it was taken for a new one, whose id the rounds then named: refused)."""
    import shutil

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", club)
    exported = cli("export", "trf", "--tournament", tournament, "--club", club)
    before = (club / "journal.toml").read_bytes()
    back = cli("import", write(tmp_path, "own.trf", exported.stdout), "--club", club)
    assert back.exit_code == 0, back.output
    # club-championship: 6 players, rounds 1-2 played, 3 boards each; spring-open: 5 + 4 + 4 boards
    # played in rounds 1-3 (docs/tournaments.md)
    assert f"{matches} matches, 0 to add, {matches} already in the journal" in back.stdout
    assert "nothing to add" in back.stdout
    assert (club / "journal.toml").read_bytes() == before


def test_a_name_longer_than_the_trf_columns_is_found_again(cli, tmp_path):
    """TRF gives a name 33 columns (15-47): a longer one is cut there, and importing the club's own
    export finds the player whose name begins with the cut one (it made a new player and added the
    games again)."""
    long_name = "Анна Петрова-Константинопольская-Водопьянова"   # 44 characters
    club = make_club(tmp_path / "club", JOURNAL.replace('name = "Анна Петрова"', f'name = "{long_name}"'))
    exported = cli("export", "trf", "--tournament", "cup", "--club", club)
    [anna] = [line for line in exported.stdout.splitlines() if line.startswith("001    1")]
    assert anna[14:47] == long_name[:33]
    before = (club / "journal.toml").read_bytes()
    back = cli("import", write(tmp_path, "cup.trf", exported.stdout), "--club", club)
    assert back.exit_code == 0, back.output
    assert "3 matches, 0 to add, 3 already in the journal" in back.stdout and "nothing to add" in back.stdout
    assert (club / "journal.toml").read_bytes() == before
    # two players whose names begin so: the cut name is nobody's, a new player (as before)
    other = JOURNAL.replace('name = "Анна Петрова"', f'name = "{long_name}"').replace(
        '[[player]]\nid = "boris"', f'[[player]]\nid = "anna2"\nname = "{long_name[:33]}-Оглы"\n\n[[player]]\nid = "boris"')
    club2 = make_club(tmp_path / "club2", other)
    again = cli("import", write(tmp_path, "cup2.trf", exported.stdout), "--club", club2, "--dry-run")
    assert again.exit_code == 0, again.output
    assert "2 to add" in again.stdout  # anna's two games, with a new player of the cut name


def test_a_hand_entered_tournament_over_several_days_imports_back_with_its_dates(cli, tmp_path):
    """A round of the export is one day's (the 132 line dates a round): a tournament entered match by
    match over several days comes back with every game's date, and into the club it came from as
    nothing new (a game put in a round of an earlier day took that day, and was added again)."""
    import shutil

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "fide-club", club)
    mine = sorted(m["date"] for m in entries(club, "match") if m.get("tournament") == "championship")
    # the sample's round-robin: 6 players, 15 games on 2024-06-01, 06-02, 06-08 and 06-09
    assert len(mine) == 15 and len(set(mine)) == 4
    exported = cli("export", "trf", "--tournament", "championship", "--club", club)
    assert exported.exit_code == 0, exported.output
    path = write(tmp_path, "champ.trf", exported.stdout)
    fresh = make_club(tmp_path / "fresh")
    assert cli("import", path, "--club", fresh).exit_code == 0
    assert sorted(m["date"] for m in entries(fresh, "match")) == mine
    before = (club / "journal.toml").read_bytes()
    back = cli("import", path, "--club", club)
    assert back.exit_code == 0 and "15 matches, 0 to add, 15 already in the journal" in back.stdout, back.output
    assert (club / "journal.toml").read_bytes() == before


def test_a_nardy_tournament_imports_back_into_its_club_as_nothing_new(cli, tmp_path):
    """TRF has no match lengths: its game is the journal's match of the same day, players and result,
    whatever its length (the nardy club's 3-point matches were added again as 1-point ones)."""
    import shutil

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "nardy-club", club)
    mine = [m for m in entries(club, "match") if m.get("tournament") == "spring-open"]
    assert mine and all(m.get("length", 1) > 1 for m in mine)
    exported = cli("export", "trf", "--tournament", "spring-open", "--club", club)
    before = (club / "journal.toml").read_bytes()
    back = cli("import", write(tmp_path, "spring.trf", exported.stdout), "--club", club)
    assert back.exit_code == 0, back.output
    assert f"{len(mine)} matches, 0 to add, {len(mine)} already in the journal" in back.stdout
    assert (club / "journal.toml").read_bytes() == before


@pytest.mark.parametrize("system, line", [("round-robin", "092 Individual: Round-Robin"),
                                          ("knockout", "092 Individual: Knockout"),
                                          ("swiss", "092 Individual: Swiss-System")])
def test_the_system_comes_back_from_the_092_line(cli, tmp_path, system, line):
    """export trf writes the system on the 092 line; importing reads it back (every TRF tournament
    was a Swiss: a round-robin came back ranked by Buchholz instead of Sonneborn-Berger)."""
    club = make_club(tmp_path / "club", JOURNAL.replace('system = "round-robin"', f'system = "{system}"'))
    exported = cli("export", "trf", "--tournament", "cup", "--club", club)
    assert line in exported.stdout.splitlines()
    fresh = make_club(tmp_path / "fresh")
    assert cli("import", write(tmp_path, "cup.trf", exported.stdout), "--club", fresh).exit_code == 0
    [t] = entries(fresh, "tournament")
    assert t["system"] == system


def test_a_tournament_with_a_start_list_and_no_round_yet(cli, tmp_path):
    """Before round 1 the export is the start list and XXR, for a pairing program to pair round 1
    (it wrote no player line at all, 062 0)."""
    club = make_club(tmp_path / "club", JOURNAL)
    added = cli("add-tournament", "open", "--name", "Open", "--system", "swiss", "--start", "2024-03-01", "--end",
                "2024-03-02", "--pairing", "dutch", "--rounds", "3", "--players", "anna,boris,vera", "--club", club)
    assert added.exit_code == 0, added.output
    exported = cli("export", "trf", "--tournament", "open", "--club", club)
    assert exported.exit_code == 0, exported.output
    lines = exported.stdout.splitlines()
    assert "062 3" in lines and "XXR 3" in lines
    # the start list as the [[tournament]] holds it, by pairing number, no points, no round cell yet
    [start_list] = [t["players"] for t in entries(club, "tournament") if t["id"] == "open"]
    names = {"anna": "Анна Петрова", "boris": "boris", "vera": "vera"}
    players = [line for line in lines if line.startswith("001")]
    assert [(p[4:8], p[14:47].rstrip(), p[80:84], len(p.rstrip()) <= 89) for p in players] == [
        (f"{n:>4}", names[pid], " 0.0", True) for n, pid in enumerate(start_list, start=1)]


def test_a_tournament_with_nothing_in_it_is_refused(cli, tmp_path):
    club = make_club(tmp_path / "club", JOURNAL)
    assert cli("add-tournament", "empty", "--name", "Empty", "--system", "swiss", "--start", "2024-03-01",
               "--end", "2024-03-02", "--club", club).exit_code == 0
    result = cli("export", "trf", "--tournament", "empty", "--club", club)
    assert result.exit_code == 1 and result.stdout == ""
    assert ("tournament 'empty' has no games and no start list yet: a TRF of it would have no player line; "
            "add its matches first (add-match A B --tournament empty)") in result.stderr


def test_a_round_robin_in_progress_says_its_table_s_rounds(cli, tmp_path):
    """XXR of a round-robin run here is its Berger table's rounds, not the rounds played so far (it
    wrote XXR 2 for the sample's six-player championship, two rounds played: a finished event)."""
    import shutil

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", club)
    exported = cli("export", "trf", "--tournament", "club-championship", "--club", club)
    # six players: a round-robin of 6 - 1 = 5 rounds (FIDE's Berger table for 5-6 players)
    assert "XXR 5" in exported.stdout.splitlines()
    fresh = make_club(tmp_path / "fresh")
    assert cli("import", write(tmp_path, "cc.trf", exported.stdout), "--club", fresh).exit_code == 0
    [t] = entries(fresh, "tournament")
    assert (t["system"], t["rounds"], len(entries(fresh, "round"))) == ("round-robin", 5, 2)


def test_an_imported_round_robin_in_progress_is_not_said_to_be_paired_by_pair(cli, tmp_path):
    """A TRF's round-robin comes in without a pairing system (its table is not known here): the note
    says the rounds to come, not that `pair` pairs the next (which refuses it)."""
    import shutil

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", club)
    exported = cli("export", "trf", "--tournament", "club-championship", "--club", club)
    fresh = make_club(tmp_path / "fresh")
    result = cli("import", write(tmp_path, "cc.trf", exported.stdout), "--club", fresh)
    assert result.exit_code == 0, result.output
    assert "in progress, 2 of 5 rounds (no pairing system: `pair` cannot pair it)" in result.stdout
    assert "`nardrating pair" not in result.stdout
