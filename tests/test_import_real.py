"""Importing the five real public files: the facts counted by hand in expected.json."""
from collections import Counter


from .conftest import make_club
from .import_support import REAL, entries, expected, needs_real

pytestmark = needs_real


def imported(cli, tmp_path, name, *options):
    """A fresh club with the real file imported; the club and what the command printed."""
    club = make_club(tmp_path / "club")
    result = cli("import", REAL / name, *options, "--club", club)
    assert result.exit_code == 0, result.output
    return club, result.stdout


def test_mat_gnubg_match(cli, tmp_path):
    name = "charlot1-charlot2_7p_2025-11-08-2305.mat"
    facts = expected(name)
    club, output = imported(cli, tmp_path, name)
    [match] = entries(club, "match")
    assert match["players"] == facts["players"]
    assert match["length"] == facts["match_length"]
    # The last game's gammon carries charlot1 past 7: the raw final score is kept.
    assert match["score"] == [facts["final_score_raw"]["charlot1"], facts["final_score_raw"]["charlot2"]]
    assert match["result"] == "1-0" and facts["winner"] == "charlot1"
    assert match["date"].isoformat().replace("-", ".") == facts["date"]
    assert [p["id"] for p in entries(club, "player")] == facts["players"]


def test_mat_per_game(cli, tmp_path):
    name = "charlot1-charlot2_7p_2025-11-08-2305.mat"
    facts = expected(name)
    club, _ = imported(cli, tmp_path, name, "--per-game")
    games = entries(club, "match")
    assert len(games) == facts["number_of_games"]
    for game, fact in zip(games, facts["games"]):
        winner_first = fact["winner"] == "charlot1"
        assert game["result"] == ("1-0" if winner_first else "0-1")
        assert max(game["score"]) == fact["points_won"]


def test_pgn_world_championship(cli, tmp_path):
    facts = expected("wch08ak.pgn")
    club, output = imported(cli, tmp_path, "wch08ak.pgn")
    games = entries(club, "match")
    assert len(games) == facts["number_of_games"]
    results = Counter(g["result"] for g in games)
    assert results["1/2-1/2"] == facts["draws"]
    assert results["1-0"] == facts["white_wins"] and results["0-1"] == facts["black_wins"]
    players = {p["name"]: p["id"] for p in entries(club, "player")}
    assert players == {"Kramnik,V": "kramnik-v", "Anand,V": "anand-v"}  # "Surname,Given" → surname-given
    for game, fact in zip(games, facts["games"]):
        assert game["players"] == [players[fact["White"]], players[fact["Black"]]]
        assert game["date"].strftime("%Y.%m.%d") == fact["Date"]
        assert game["note"].startswith(f"round {fact['Round']};")
    [tournament] = entries(club, "tournament")
    assert tournament["name"] == "WCh" and tournament["system"] == "match"
    assert tournament["start"].isoformat() == "2008-10-14" and tournament["end"].isoformat() == "2008-10-29"
    # Anand 6.5, Kramnik 4.5, as the file's notes say
    anand = sum(1.0 if (g["result"] == "1-0") == (g["players"][0] == "anand-v") else 0.0
                for g in games if g["result"] != "1/2-1/2") + 0.5 * results["1/2-1/2"]
    assert anand == facts["match_score"]["Anand,V"]


def test_pgn_lichess_utcdate_only(cli, tmp_path):
    facts = expected("10-games.pgn")
    club, output = imported(cli, tmp_path, "10-games.pgn")
    games = entries(club, "match")
    assert len(games) == facts["number_of_games"]
    assert {g["date"].strftime("%Y.%m.%d") for g in games} == {"2012.12.31"}  # from UTCDate
    assert len(entries(club, "player")) == facts["distinct_players"]
    assert Counter(g["result"] for g in games) == {"1-0": facts["white_wins"], "0-1": facts["black_wins"],
                                                   "1/2-1/2": facts["draws"]}
    assert entries(club, "tournament") == []  # Round "-": online games, the event goes to the note
    events = Counter(g["note"].split(";")[0] for g in games)
    assert events == facts["games_per_Event_tag"]


def test_trf_fide_example(cli, tmp_path):
    facts = expected("example1.trf")
    club, output = imported(cli, tmp_path, "example1.trf")
    games = entries(club, "match")
    played = [g for g in games if not g.get("forfeit")]
    assert len(played) == facts["played_games"]
    assert sum(g["result"] == "1/2-1/2" for g in played) == facts["played_games_drawn"]
    forfeits = [g for g in games if g.get("forfeit")]
    assert len(forfeits) == facts["forfeit_pairings_excluded"]
    assert Counter(int(g["note"].split()[1]) for g in forfeits) == Counter(f["round"] for f in facts["forfeit_pairings"])
    # 284 lines less the "spielfrei" dummy, who has only a bye
    assert len(entries(club, "player")) == facts["number_of_player_lines_001"] - 1
    assert "spielfrei" not in {p.get("name") for p in entries(club, "player")}
    [tournament] = entries(club, "tournament")
    assert tournament["name"] == facts["tournament_name"]
    assert tournament["start"].strftime("%d. %m. %Y") == facts["start_date"]
    assert tournament["end"].strftime("%d. %m. %Y") == facts["end_date"]
    assert "left out: 1 × players without a game (byes, withdrawals, 'spielfrei')" in output
    # The bye of round 5 ("0000 - +" of 282, Schirrmacher,Nils) is the round's pairing-allocated bye.
    fifth = entries(club, "round")[4]
    assert {"player": "schirrmacher-nils", "kind": "pairing-allocated"} in fifth["byes"]
    vasquez = next(p for p in entries(club, "player") if p["name"] == "Vasquez,Rodrigo")
    assert vasquez == {"id": "vasquez-rodrigo", "name": "Vasquez,Rodrigo", "title": "GM"}
    # Points per player: wins + draws/2 + forfeit wins; the first three by start rank
    points = Counter()
    for g in games:
        a, b = g["players"]
        points[a] += {"1-0": 1, "0-1": 0}.get(g["result"], 0.5)
        points[b] += {"1-0": 0, "0-1": 1}.get(g["result"], 0.5)
    ids = {p["name"]: p["id"] for p in entries(club, "player")}
    for first in facts["first_three_by_starting_rank"]:
        assert points[ids[first["name"]]] == first["points"]
    assert sum(points.values()) == facts["sum_of_points_column"] - 1  # less the one bye
    from nardrating.replay.loader import load_club
    from nardrating.tournaments.fromjournal import tournament_state

    state = tournament_state(load_club(club, use_cache=False).journal, tournament["id"])
    assert sum(state.points(e.player) for e in state.entrants) == facts["sum_of_points_column"]  # the bye's point too


def test_trf_lichess_non_standard(cli, tmp_path):
    facts = expected("2020_06.trf")
    club, output = imported(cli, tmp_path, "2020_06.trf")
    games = entries(club, "match")
    assert len(games) == facts["played_games"]
    assert sum(g["result"] == "1/2-1/2" for g in games) == facts["played_games_drawn"]
    assert {g["date"].isoformat() for g in games} == {"2020-05-29"}  # "May 29, 2020"
    byes = {key[0]: n for key, n in facts["byes_and_other_non_games_excluded"].items()}
    kinds = Counter(b["kind"] for r in entries(club, "round") for b in r.get("byes", []))
    # H, U and the absences ('-'; player 13's from round 4 to the end of the finished file a withdrawal)
    assert (kinds["half-point"], kinds["pairing-allocated"]) == (byes["H"], byes["U"])
    assert kinds["absent"] + kinds["withdrawn"] == byes["-"] and kinds["withdrawn"] == 7
    assert [(w["player"], w["round"]) for w in entries(club, "withdraw")] == [("johnnydiggson", 4)]
    assert len(entries(club, "player")) == facts["number_of_player_lines_001"]
    assert max(int(g["note"].split()[1]) for g in games) == facts["number_of_rounds"]


def test_all_five_at_once_then_again(cli, tmp_path):
    club = make_club(tmp_path / "club")
    names = ["charlot1-charlot2_7p_2025-11-08-2305.mat", "wch08ak.pgn", "10-games.pgn", "example1.trf", "2020_06.trf"]
    first = cli("import", *(REAL / n for n in names), "--club", club)
    assert first.exit_code == 0, first.output
    before = (club / "journal.toml").read_bytes()
    assert cli("check", "--club", club).exit_code == 0
    again = cli("import", *(REAL / n for n in names), "--club", club)
    assert again.exit_code == 0, again.output
    assert "nothing to add" in again.stdout
    # 1 + 11 + 32 + 980 + 56 matches, every one found again
    assert sum(int(line.split(", ")[2].split()[0]) for line in again.stdout.splitlines()
               if "already in the journal" in line) == 1 + 11 + 32 + 980 + 56
    assert (club / "journal.toml").read_bytes() == before
