"""A TRF whose last round is paired and not yet played: `export trf` writes its boards without a
result (as pairing programs do), and `import` reads them back as the round's boards, no match."""
import shutil

from .conftest import SAMPLES, make_club
from .import_support import entries
from .test_import_files import refused, trf_player, write

SAMPLE = SAMPLES / "club-swiss"


def exported(cli, tmp_path):
    club = tmp_path / "club-swiss"
    shutil.copytree(SAMPLE, club)
    result = cli("export", "trf", "--tournament", "spring-open", "--club", club)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_export_of_a_round_waiting_for_results_imports_back(cli, tmp_path):
    text = exported(cli, tmp_path)
    club = make_club(tmp_path / "fresh")
    result = cli("import", write(tmp_path, "spring.trf", text), "--club", club)
    assert result.exit_code == 0, result.output
    # The sample's spring-open: rounds 1-3 played (5 + 4 + 4 boards: round 2 has kira's
    # pairing-allocated bye and gleb's half-point bye, round 3 ivan absent and lev's bye), round 4
    # paired on 5 boards and waiting for its results (docs/tournaments.md).
    assert "round 4 is paired, 5 boards without a result: `nardrating results vesennii-open-2025`" in result.stdout
    matches = entries(club, "match")
    assert len(matches) == 5 + 4 + 4 and {m["round"] for m in matches} == {1, 2, 3}
    rounds = entries(club, "round")
    assert [r["round"] for r in rounds] == [1, 2, 3, 4]
    # round-4.txt of the sample: anna-gleb, zoya-dina, boris-vera, kira-egor, ivan-lev (white first);
    # the import numbers the boards by the lower start number of each pair: anna 1, boris 2, dina 5,
    # egor 6, ivan 8.
    assert [(b["white"], b["black"]) for b in rounds[3]["boards"]] == [
        ("anna-petrova", "gleb-popov"), ("boris-smirnov", "vera-kuznetsova"), ("zoya-mikhailova", "dina-vasileva"),
        ("kira-fedorova", "egor-sokolov"), ("ivan-novikov", "lev-morozov")]
    assert "byes" not in rounds[3]
    # the same file again: nothing new
    before = (club / "journal.toml").read_bytes()
    again = cli("import", tmp_path / "spring.trf", "--club", club)
    assert again.exit_code == 0 and "nothing to add" in again.stdout, again.output
    assert (club / "journal.toml").read_bytes() == before
    # exported again, the round cells are the same, the waiting round's included
    back = cli("export", "trf", "--tournament", "vesennii-open-2025", "--club", club)
    assert [line for line in back.stdout.splitlines() if line.startswith("001")] == [
        line for line in text.splitlines() if line.startswith("001")]
    # and the round's results go in as on the club that paired it
    results = "\n".join(["anna-petrova gleb-popov 1/2-1/2", "zoya-mikhailova dina-vasileva 0-1",
                         "boris-smirnov vera-kuznetsova 1-0", "kira-fedorova egor-sokolov 1-0",
                         "ivan-novikov lev-morozov 1-0"]) + "\n"
    entered = cli("results", "vesennii-open-2025", write(tmp_path, "r4.txt", results), "--club", club)
    assert entered.exit_code == 0, entered.output
    assert len(entries(club, "match")) == 13 + 5


def head(*players):
    return "\n".join(["012 Cup", "042 2024/09/01", "052 2024/09/02", "132" + " " * 88 + "24/09/01  24/09/02",
                      *players, "XXR 3"]) + "\n"


def test_a_player_whose_only_board_waits_is_an_entrant(cli, tmp_path):
    # Five players: round 1 played 1-2 and 3-4, Dina (5) absent; round 2 pairs 1-5 and 2-3, Gleb (4)
    # has the bye, not yet played. Dina has no game yet: she is an entrant all the same.
    text = head(trf_player(1, "Anna", "1.0", ["   2 w 1", "   5 w  "]),
                trf_player(2, "Boris", "0.0", ["   1 b 0", "   3 w  "]),
                trf_player(3, "Vera", "0.5", ["   4 w =", "   2 b  "]),
                trf_player(4, "Gleb", "1.5", ["   3 b =", "0000 - U"]),
                trf_player(5, "Dina", "0.0", ["0000 - Z", "   1 b  "]))
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "cup.trf", text), "--club", club)
    assert result.exit_code == 0, result.output
    assert "round 2 is paired, 2 boards without a result" in result.stdout
    assert [p["id"] for p in entries(club, "player")] == ["anna", "boris", "vera", "gleb", "dina"]
    [t] = entries(club, "tournament")
    assert t["players"] == ["anna", "boris", "vera", "gleb", "dina"]
    first, second = entries(club, "round")
    assert first["byes"] == [{"player": "dina", "kind": "absent"}]
    assert [(b["white"], b["black"]) for b in second["boards"]] == [("anna", "dina"), ("boris", "vera")]
    assert second["byes"] == [{"player": "gleb", "kind": "pairing-allocated"}]
    assert len(entries(club, "match")) == 2


def test_a_cell_without_a_result_is_refused_where_no_game_can_wait(cli, tmp_path):
    club = make_club(tmp_path / "club")
    # round 1 without a result, round 2 played: only the last round can wait
    earlier = head(trf_player(1, "Anna", "1.0", ["   2 w  ", "   2 b 1"]),
                   trf_player(2, "Boris", "0.0", ["   1 b  ", "   1 w 0"]))
    message = refused(cli, club, write(tmp_path, "a.trf", earlier))
    assert ("a.trf:5: round 1: players 1 and 2 have no result ('2 w', '1 b'), but the file has later rounds; "
            "only the last round can be paired and not yet played") in message
    # one side without a result, the other with one
    one_sided = head(trf_player(1, "Anna", "1.0", ["   2 w 1", "   2 b  "]),
                     trf_player(2, "Boris", "0.0", ["   1 b 0", "   1 w 0"]))
    message = refused(cli, club, write(tmp_path, "b.trf", one_sided))
    assert "b.trf:5: round 2: player 1 has no result against 2, but player 2 has '1 w 0'" in message
    # paired without a result and without colours: no board to play
    no_colours = head(trf_player(1, "Anna", "1.0", ["   2 w 1", "   2 -  "]),
                      trf_player(2, "Boris", "0.0", ["   1 b 0", "   1 -  "]))
    message = refused(cli, club, write(tmp_path, "c.trf", no_colours))
    assert "c.trf:5: player 1, round 2: '2 -' is not a round cell" in message
    # the other way round: told on the line without the result
    other_side = head(trf_player(1, "Anna", "1.0", ["   2 w 1", "   2 b 1"]),
                      trf_player(2, "Boris", "0.0", ["   1 b 0", "   1 w  "]))
    message = refused(cli, club, write(tmp_path, "d.trf", other_side))
    assert "d.trf:6: round 2: player 2 has no result against 1, but player 1 has '2 b 1'" in message
    # both with white: no board
    same_colour = head(trf_player(1, "Anna", "1.0", ["   2 w 1", "   2 w  "]),
                       trf_player(2, "Boris", "0.0", ["   1 b 0", "   1 w  "]))
    message = refused(cli, club, write(tmp_path, "e.trf", same_colour))
    assert ("e.trf:5: round 2: players 1 and 2 are paired without a result ('2 w', '1 w'): a game not yet "
            "played needs its colours, w on one line and b on the other") in message


def test_the_note_in_russian(cli, tmp_path):
    text = exported(cli, tmp_path)
    club = make_club(tmp_path / "fresh")
    result = cli("import", write(tmp_path, "spring.trf", text), "--dry-run", "--club", club,
                 env={"LANGUAGE": "", "LC_ALL": "ru_RU.UTF-8"})
    assert result.exit_code == 0, result.output
    assert "пары тура 4 составлены, без результата 5 досок: `nardrating results vesennii-open-2025`" in result.stdout


def test_round_one_paired_and_nothing_played_yet(cli, tmp_path):
    # Three players, round 1 paired: Anna-Boris, Vera the pairing's bye; no result yet. The file holds
    # no game at all: it was "nothing to add" (the tournament and its round were dropped).
    text = "\n".join(["012 Cup", "042 2024/09/01", "052 2024/09/03", "132" + " " * 88 + "24/09/01",
                      trf_player(1, "Anna", "0.0", ["   2 w  "]),
                      trf_player(2, "Boris", "0.0", ["   1 b  "]),
                      trf_player(3, "Vera", "1.0", ["0000 - U"]), "XXR 3"]) + "\n"
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "cup.trf", text), "--club", club)
    assert result.exit_code == 0, result.output
    assert "round 1 is paired, 1 board without a result: `nardrating results cup-2024`" in result.stdout
    assert "players without a game" not in result.stdout   # all three are entrants
    assert [p["id"] for p in entries(club, "player")] == ["anna", "boris", "vera"]
    [t] = entries(club, "tournament")
    assert (t["id"], t["players"], t["rounds"], t["pairing"]) == ("cup-2024", ["anna", "boris", "vera"], 3, "dutch")
    [rnd] = entries(club, "round")
    assert rnd["boards"] == [{"board": 1, "white": "anna", "black": "boris"}]
    assert rnd["byes"] == [{"player": "vera", "kind": "pairing-allocated"}]
    assert entries(club, "match") == []
    assert cli("check", "--club", club).exit_code == 0
    # its result goes in as on the club that paired it
    assert cli("results", "cup-2024", write(tmp_path, "r1.txt", "anna boris 1-0\n"), "--club", club).exit_code == 0
    [match] = entries(club, "match")
    assert (match["players"], match["result"], match["round"]) == (["anna", "boris"], "1-0", 1)


def test_games_for_a_tournament_run_here_are_refused_once(cli, tmp_path):
    # spring-open is run here round by round; a sheet's game of it without a round (and a TRF of
    # another event put into it) was refused once a match, with add-match's advice.
    club = tmp_path / "club-swiss"
    shutil.copytree(SAMPLE, club)
    sheet = "date,player_a,player_b,result\n2025-03-02,anna,boris,1-0\n2025-03-02,vera,gleb,0-1\n"
    message = refused(cli, club, write(tmp_path, "s.csv", sheet), "--tournament", "spring-open")
    assert message.strip() == (
        f"{tmp_path / 's.csv'}:2: tournament 'spring-open' is run here round by round: its games go in with "
        "`nardrating results spring-open`, checked against its pairing; this file's games are not its rounds "
        "(another event or another start list), so import cannot add them to it")
