"""The import rules every format shares: players matched or created, duplicates skipped and
counted, one atomic append checked as a full read would check it, --dry-run writes nothing."""
from datetime import date

import pytest

from nardrating.exchange.importers.records import derive_id

from .conftest import make_club
from .import_support import entries
from .test_import_files import refused, write

FIBS_CONFIG = """\
[club]
name = "Nardy"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.fibs]
engine = "fibs"
"""


def game(white, black, result, day="2023.04.09", event="?", round_="?"):
    return (f'[Event "{event}"]\n[Date "{day}"]\n[Round "{round_}"]\n[White "{white}"]\n'
            f'[Black "{black}"]\n[Result "{result}"]\n\n{result}\n\n')


def test_ids_derived_from_names():
    assert derive_id("Liren, Ding") == "liren-ding"
    assert derive_id("Carlsen, Magnus") == "carlsen-magnus"
    assert derive_id("Kramnik,V") == "kramnik-v"
    assert derive_id("Пётр Щукин") == "petr-shchukin"
    assert derive_id("Müller, Jürgen") == "muller-jurgen"
    assert derive_id("李 昊") == "李-昊"  # letters of other alphabets are kept
    assert derive_id("?!") == "player"
    assert derive_id("Ян²  — Smith") == "yan2-smith"  # ² is 2 once decomposed


def test_derived_ids_follow_the_journal_id_rule():
    from nardrating.journal.entries import valid_id

    for name in ("Ивано́в", "O'Brien, Seán", "٣ player", "x\u00b2\u2075", "a\u200bb", "__--__", "Łódź-Wrocław",
                 "東京 太郎", "नमस्ते", "😀 smile", "A" * 300):
        assert valid_id(derive_id(name)), (name, derive_id(name))


def test_players_matched_by_id_name_or_alias_folded(cli, tmp_path):
    club = make_club(tmp_path / "club", '[[player]]\nid = "petrov"\nname = "Пётр Петров"\nalias = "Петя"\n\n'
                                        '[[player]]\nid = "anna"\nname = "Анна"\n')
    pgn = (game("ПЕТР ПЕТРОВ", "ANNA", "1-0") + game("петя", "Анна", "0-1", "2023.04.10")
           + game("Petrov", "Вера", "1/2-1/2", "2023.04.11"))
    result = cli("import", write(tmp_path, "g.pgn", pgn), "--club", club)
    assert result.exit_code == 0, result.output
    assert [g["players"] for g in entries(club, "match")] == [["petrov", "anna"], ["petrov", "anna"], ["petrov", "vera"]]
    assert [p["id"] for p in entries(club, "player")] == ["petrov", "anna", "vera"]  # only Вера is new
    assert "new" in result.stdout and "existing (name)" in result.stdout and "existing (id)" in result.stdout


def test_new_id_taken_gets_a_suffix_and_a_near_duplicate_warning(cli, tmp_path):
    club = make_club(tmp_path / "club", '[[player]]\nid = "liren-ding"\nname = "Liren Ding"\n')
    result = cli("import", write(tmp_path, "g.pgn", game("Liren, Ding", "Carlsen, Magnus", "1-0")), "--club", club)
    assert result.exit_code == 0, result.output
    assert entries(club, "match")[0]["players"] == ["liren-ding-2", "carlsen-magnus"]
    assert "warning: new player 'liren-ding-2' (Liren, Ding) and existing 'liren-ding' (Liren Ding)" in result.stdout


def test_a_name_of_two_players_is_refused(cli, tmp_path):
    club = make_club(tmp_path / "club", '[[player]]\nid = "a1"\nname = "Иван"\n\n[[player]]\nid = "a2"\nname = "Иван"\n')
    result = cli("import", write(tmp_path, "g.pgn", game("Иван", "Пётр", "1-0")), "--club", club)
    assert result.exit_code == 1
    assert "g.pgn:1: 'Иван' is the name of several players (a1, a2)" in result.stderr


def test_duplicates_skipped_and_counted(cli, tmp_path):
    club = make_club(tmp_path / "club")
    first = game("Anna", "Boris", "1-0") + game("Anna", "Boris", "1-0")  # two real games, the same facts
    assert cli("import", write(tmp_path, "a.pgn", first), "--club", club).exit_code == 0
    more = first + game("Anna", "Boris", "1-0") + game("Boris", "Anna", "1-0")
    result = cli("import", write(tmp_path, "b.pgn", more), "--club", club)
    assert result.exit_code == 0, result.output
    # the journal holds two such games: two of the three are already in, the third is new; so is the
    # game with the colours the other way round
    assert "4 matches, 2 to add, 2 already in the journal" in result.stdout
    assert len(entries(club, "match")) == 4


def test_the_same_file_twice_in_one_command(cli, tmp_path):
    club = make_club(tmp_path / "club")
    path = write(tmp_path, "a.pgn", game("Anna", "Boris", "1-0"))
    copy = write(tmp_path, "copy.pgn", game("Anna", "Boris", "1-0"))
    result = cli("import", path, copy, "--club", club)
    assert result.exit_code == 0, result.output
    assert "left out: 1 × the same file as" in result.stdout
    assert len(entries(club, "match")) == 1


def test_dry_run_writes_nothing(cli, tmp_path):
    club = make_club(tmp_path / "club")
    before = (club / "journal.toml").read_bytes()
    result = cli("import", write(tmp_path, "a.pgn", game("Anna", "Boris", "1-0")), "--dry-run", "--club", club)
    assert result.exit_code == 0
    assert "would add 2 players, 0 tournaments, 1 match" in result.stdout
    assert (club / "journal.toml").read_bytes() == before


def test_one_append_of_everything(cli, tmp_path, monkeypatch):
    import nardrating.journal.writer as writer

    calls = []
    real = writer.append_block
    monkeypatch.setattr(writer, "append_block", lambda path, block: (calls.append(block), real(path, block)))
    club = make_club(tmp_path / "club")
    pgn = game("Anna", "Boris", "1-0", event="Cup", round_="1") + game("Boris", "Anna", "0-1", "2023.04.10", "Cup", "2")
    assert cli("import", write(tmp_path, "a.pgn", pgn), "--club", club).exit_code == 0
    assert len(calls) == 1
    assert calls[0].count("[[player]]") == 2 and calls[0].count("[[tournament]]") == 1
    assert calls[0].count("[[match]]") == 2
    assert cli("check", "--club", club).exit_code == 0


def test_the_journal_after_the_import_is_checked_first(cli, tmp_path):
    # A fibs list rates chess here and allows no draws: the check of the journal as it would be
    # refuses the draw, told at the PGN's line, and nothing is written.
    club = make_club(tmp_path / "club", config=FIBS_CONFIG)
    before = (club / "journal.toml").read_bytes()
    pgn = game("Anna", "Boris", "1-0") + game("Anna", "Boris", "1/2-1/2", "2023.04.10")
    result = cli("import", write(tmp_path, "a.pgn", pgn), "--club", club)
    assert result.exit_code == 1
    assert "a.pgn:10: m0002: a draw" in result.stderr and "draw" in result.stderr
    assert (club / "journal.toml").read_bytes() == before


def test_a_tournament_that_does_not_cover_the_games(cli, tmp_path):
    club = make_club(tmp_path / "club", '[[tournament]]\nid = "cup"\nname = "Cup"\nsystem = "swiss"\n'
                                        'start = 2023-01-01\nend = 2023-01-02\n')
    err = refused(cli, club, write(tmp_path, "a.pgn", game("Anna", "Boris", "1-0")), "--tournament", "cup")
    assert "a.pgn:1: m0001: the match is dated 2023-04-09, outside its tournament 'cup'" in err


def test_tournament_option_creates_or_joins(cli, tmp_path):
    club = make_club(tmp_path / "club")
    pgn = game("Anna", "Boris", "1-0") + game("Vera", "Anna", "1-0", "2023.04.12")
    assert cli("import", write(tmp_path, "a.pgn", pgn), "--tournament", "spring", "--club", club).exit_code == 0
    [t] = entries(club, "tournament")
    assert (t["id"], t["system"], t["start"], t["end"]) == ("spring", "swiss", date(2023, 4, 9), date(2023, 4, 12))
    assert {g["tournament"] for g in entries(club, "match")} == {"spring"}


def test_unknown_format_and_missing_file(cli, tmp_path):
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "a.doc", "x"), tmp_path / "none.pgn", "--club", club)
    assert result.exit_code == 1
    assert "a.doc: cannot tell the format from the name 'a.doc'; give --format mat|pgn|trf|csv" in result.stderr
    assert "none.pgn: no such file" in result.stderr


def test_discipline_option(cli, tmp_path):
    club = make_club(tmp_path / "club")
    assert cli("import", write(tmp_path, "a.pgn", game("Anna", "Boris", "1-0")), "--discipline", "blitz",
               "--club", club).exit_code == 0
    assert entries(club, "match")[0]["discipline"] == "blitz"


def test_an_entry_the_model_refuses_is_told_at_the_line_of_the_file(cli, tmp_path):
    # Entries are built through the journal's own models: a name longer than the journal's
    # 200 characters is refused at the line of the file that named the player.
    club = make_club(tmp_path / "club")
    before = (club / "journal.toml").read_bytes()
    pgn = game("Anna", "Boris", "1-0") + game("Anna", "Maximilian" * 21, "1-0", "2023.04.10")
    result = cli("import", write(tmp_path, "a.pgn", pgn), "--club", club)
    assert result.exit_code == 1
    assert "a.pgn:10: [[player]] name: it is 210 characters long, more than 200" in result.stderr
    assert (club / "journal.toml").read_bytes() == before


@pytest.mark.slow
def test_concurrent_imports_of_one_file_add_it_once(tmp_path):
    # Each import plans again under the club lock on the journal as it is then: of eight processes
    # importing the same games at once, one adds them and the others find them already there.
    import subprocess
    import sys

    club = make_club(tmp_path / "club")
    pgn = "".join(game("Anna", "Boris", "1-0", f"2023.04.{day:02d}") for day in range(1, 21))
    path = write(tmp_path, "a.pgn", pgn)
    procs = [subprocess.Popen([sys.executable, "-m", "nardrating", "import", str(path), "--club", str(club)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(8)]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), outputs
    assert sum("added 2 players, 0 tournaments, 20 matches" in out for out, _ in outputs) == 1
    assert sum("nothing to add" in out for out, _ in outputs) == 7
    assert len(entries(club, "match")) == 20 and len(entries(club, "player")) == 2


def test_names_are_data_in_the_preview(cli, tmp_path):
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "a.pgn", game("Anna", "[bold]Boris[/]", "1-0", event="[red]Cup", round_="1")),
                 "--dry-run", "--club", club)
    assert result.exit_code == 0, result.output
    assert "new tournament red-cup-2023: [red]Cup (match" in result.stdout and "[bold]Boris[/]" in result.stdout


def test_a_control_character_is_refused_at_its_line(cli, tmp_path):
    club = make_club(tmp_path / "club")
    err = refused(cli, club, write(tmp_path, "a.pgn", game("Anna", "Boris", "1-0", event="Cup\x1b[31m", round_="1")))
    assert "a.pgn:1: [[tournament]] name: character 4 is a control character, '\\x1b'" in err


def test_a_pipe_is_refused_without_waiting(cli, tmp_path):
    import os

    club = make_club(tmp_path / "club")
    os.mkfifo(tmp_path / "games.pgn")
    result = cli("import", tmp_path / "games.pgn", "--club", club)
    assert result.exit_code == 1 and "games.pgn: not a regular file" in result.stderr
