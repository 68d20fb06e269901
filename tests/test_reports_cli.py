"""Issue 10, items 5–7 and the column names: the commission's report (totals, --player, --details,
an empty period), history filters, --version, init, players' counts, one name per column."""
import csv
import io
import tomllib

import pytest

from .conftest import ROOT, SAMPLES, make_club

CHESS = SAMPLES / "chess-club"
FEDERATION = SAMPLES / "federation-2009"


# --- the commission's report -------------------------------------------------------------

def test_report_totals_in_json(cli_json):
    # Sums of the README's 2009-Q1 table (seed 000's period): games 9 × 12 + 2 + 1 + 1 = 112;
    # points 8 + 7.5 + 6.5 + 6.5 + 5 + 5 + 4 + 4 + 3 + 2 + 1.5 + 1 + 0 + 1 + 1 + 0 = 56;
    # expected 5.85 + 5.58 + … + 0.18 = 56.00 (rounded figures); change
    # 22 + 19 + 12 + 17 + 0 + 1 − 6 − 4 − 11 − 15 − 18 + 0 + 0 − 5 + 7 − 2 = +17.
    report = cli_json("report", "--club", FEDERATION, "--period", "2009-Q1")
    totals = report["totals"]
    assert (totals["games"], totals["points"], totals["change"]) == (112, 56, 17)
    assert totals["expected"] == pytest.approx(56.0, abs=0.08)  # 16 rows rounded to 0.005 each
    assert set(report) >= {"rating", "discipline", "period", "rows"}   # the documented shape stays
    assert all(row["player"] for row in report["rows"])                # no totals row among the rows


@pytest.mark.parametrize("fmt", ["table", "md", "csv"])
def test_report_totals_row_in_every_view(cli, fmt):
    # Seed 003's club over 2009: 4 players × 3 games = 12; the points of six games = 6; the
    # changes of an Elo with one K cancel out: 0.
    result = cli("report", "--club", CHESS, "--period", "2009", "-f", fmt)
    assert result.exit_code == 0, result.output
    total = [line for line in result.stdout.splitlines() if "Total" in line]
    assert len(total) == 1
    if fmt == "csv":
        row = next(r for r in csv.DictReader(io.StringIO(result.stdout)) if r["name"] == "Total")
        assert (row["games"], float(row["points"]), float(row["change"])) == ("12", 6.0, pytest.approx(0, abs=1e-9))
    else:
        assert "12" in total[0] and "+0.00" in total[0]


def test_report_unknown_player_says_did_you_mean(cli):
    result = cli("report", "--club", FEDERATION, "--period", "2009-Q1", "--player", "avakian")
    assert result.exit_code == 1
    assert 'unknown player \'avakian\' (did you mean "avakyan"?)' in result.output


def test_report_player_filter(cli_json):
    rows = cli_json("report", "--club", FEDERATION, "--period", "2009-Q1", "--player", "avakyan")["rows"]
    # Seed 000's worked example: 2337, 6.5 of 9, E = 4.77, +17 → 2354.
    assert [(r["player"], r["before"], r["games"], r["points"], r["change"], r["after"]) for r in rows] == [
        ("avakyan", 2337, 9, 6.5, 17, 2354)]


def test_report_details_per_game_for_elo(cli, cli_json):
    # Seed 003: Анна beats Борис (E 0.5, K 20: +10), loses to Вера (E ≈ 0.5144: −10.29), draws
    # with Глеб (1199.71 → 1199.42).
    rows = cli_json("report", "--club", CHESS, "--period", "2009", "--player", "anna", "--details")["rows"]
    games = rows[0]["events"]
    assert [(g["entry"], g["opponent"], g["k"], round(g["expected"], 4), round(g["change"], 2)) for g in games] == [
        ("m0001", "boris", 20, 0.5, 10.0), ("m0003", "vera", 20, 0.5144, -10.29), ("m0005", "gleb", 20, 0.5144, -0.29)]
    text = cli("report", "--club", CHESS, "--period", "2009", "--player", "anna", "--details").stdout
    assert "Анна (anna)" in text and "-10.29" in text and "1199.71" in text


def test_report_details_per_game_for_fibs(cli_json, tmp_path):
    # Seed 004: two new players (boost ×5), a 5-point match: 4·√5·(1 − ½) = 4.472 × 5 = 22.36.
    config = '[club]\ndefault_discipline = "backgammon"\n[rating.fibs]\nengine = "fibs"\n'
    journal = ('[[player]]\nid = "a"\n[[player]]\nid = "b"\n'
               '[[match]]\ndate = 2025-01-10\nplayers = ["a", "b"]\nwinner = "a"\nlength = 5\n')
    club = make_club(tmp_path / "club", journal, config)
    rows = cli_json("report", "--club", club, "--period", "2025-01", "--details")["rows"]
    event = next(r for r in rows if r["player"] == "a")["events"][0]
    assert (round(event["base"], 3), event["boost"], round(event["change"], 2)) == (4.472, 5, 22.36)


def test_report_details_for_chips_and_placement(cli):
    club = SAMPLES / "nardy-club"
    for rating in ("chips", "tournament"):
        result = cli("report", "--club", club, "--rating", rating, "--period", "2025-Q1", "--details",
                     "--player", "vagif")
        assert result.exit_code == 0, result.output
        # a table per player after the report, headed "Name (id)"
        assert "Вагиф Алиев (vagif)" in result.stdout


def test_report_empty_period_says_why(cli):
    result = cli("report", "--club", CHESS, "--period", "2012")
    assert result.exit_code == 0
    # seed 003's six games are played on 15, 22 and 29 January 2009
    assert "No rated games of chess in 2012-01-01..2012-12-31: the rated games run from 2009-01-15 to 2009-01-29" \
        in result.stdout
    result = cli("report", "--club", FEDERATION, "--period", "2005")
    # the first list with results is the imported 2008 list, of 2008-Q4 (dated 2008-12-31)
    text = " ".join(result.stdout.split())  # the caption wraps at the width
    assert "reports the lists dated in the period" in text and "the nearest: 2008-12-31 after it" in text


# --- history filters ------------------------------------------------------------------------

def test_history_summary_line(cli):
    # Seed 003: Анна 1 − 0 Борис, 0 − 1 Вера, ½ − ½ Глеб: 1 W, 1 D, 1 L, 1.5 points, 1200 → 1199.42.
    result = cli("history", "anna", "--club", CHESS)
    assert "3 games: 1 W, 1 D, 1 L; 1.5 points; net change -0.58" in result.stdout


def test_history_filters(cli, cli_json):
    assert [e["entry"] for e in cli_json("history", "anna", "--club", CHESS, "--opponent", "vera")] == ["m0003"]
    assert [e["entry"] for e in cli_json("history", "anna", "--club", CHESS, "--last", "2")] == ["m0003", "m0005"]
    assert [e["entry"] for e in cli_json("history", "anna", "--club", CHESS, "--from", "2009-01-20",
                                         "--to", "2009-01-25")] == ["m0003"]
    # Against Вера only: a loss from 1210.00 to 1199.71 (seed 003, game 3).
    text = cli("history", "anna", "--club", CHESS, "--opponent", "vera").stdout
    assert "1 game: 0 W, 0 D, 1 L; 0 points; net change -10.29" in text


def test_history_unknown_opponent(cli):
    result = cli("history", "anna", "--club", CHESS, "--opponent", "vara")
    assert result.exit_code == 1
    assert 'unknown player \'vara\' (did you mean "vera"?)' in result.output


@pytest.mark.parametrize("typed", ["Авакян", "авакян", "Авокян", "Ашот", "Ашот Авакян"])
def test_a_players_name_typed_for_their_id_is_answered_with_the_id(cli, typed):
    """The sample federation's avakyan is "Ашот Авакян" ([[player]] in its journal): a player who types
    their surname, any case, one letter off, their first name or the whole name, is shown their id."""
    result = cli("history", typed, "--club", FEDERATION)
    assert result.exit_code == 1
    assert f"unknown player {typed!r} (did you mean \"avakyan\" (Ашот Авакян)?)" in result.output


def test_an_id_near_the_one_typed_comes_before_any_name_and_nothing_near_gets_no_hint(cli):
    assert 'unknown player \'avakian\' (did you mean "avakyan"?)' in cli("history", "avakian", "--club", FEDERATION).output
    result = cli("history", "Зюзин", "--club", FEDERATION)
    assert result.exit_code == 1 and "unknown player 'Зюзин'\n" in result.output


def test_add_match_with_a_name_for_an_id_names_the_id(cli, tmp_path):
    club = make_club(tmp_path / "club", '[[player]]\nid = "anna"\nname = "Анна Петрова"\n\n'
                                         '[[player]]\nid = "boris"\nname = "Борис Зайцев"\n')
    before = (club / "journal.toml").read_bytes()
    result = cli("add-match", "Анна", "boris", "--winner", "boris", "--club", club)
    assert result.exit_code == 1
    assert "unknown player 'Анна' (did you mean \"anna\" (Анна Петрова)?)" in result.output
    assert (club / "journal.toml").read_bytes() == before


def test_history_unknown_player_does_not_blame_the_config(cli):
    result = cli("history", "avakian", "--club", FEDERATION)
    assert result.exit_code == 1
    assert 'did you mean "avakyan"' in result.output
    assert "nardrating.toml" not in result.output


def test_history_bad_dates_are_usage_errors(cli):
    result = cli("history", "anna", "--club", CHESS, "--from", "2009-13-01")
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.output


# --- small things ---------------------------------------------------------------------------

def test_version(cli):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"nardrating {version}"


@pytest.mark.parametrize("engine", ["elo", "fibs", "placement", "chips", "mfsnb", "fide"])
def test_init_writes_every_parameter(cli, tmp_path, engine):
    from nardrating.engines.registry import engine_class

    folder = tmp_path / "club"
    result = cli("init", folder, "--engine", engine)
    assert result.exit_code == 0, result.output
    assert "next steps" in result.stdout and "add-match" in result.stdout
    text = (folder / "nardrating.toml").read_text(encoding="utf-8")
    lines = text.splitlines()
    for key in engine_class(engine).Params.model_fields:
        line = next((x for x in lines if x.lstrip("# ").startswith(f"{key} =")), None)
        assert line is not None, key
        assert "#" in line.split("=", 1)[1], f"{key} has no comment"
    assert cli("check", "--club", folder).exit_code == 0   # the written config loads


def test_init_defaults_are_the_engines(tmp_path, cli):
    # docs/elo.md: elo start 1200, K 20, provisional 5, pair limit 2;
    # mfsnb's inactivity [[3, 25], [6, 50], [9, 75], [12, 100], [18, 150]].
    cli("init", tmp_path / "elo", "--engine", "elo")
    cli("init", tmp_path / "mfsnb", "--engine", "mfsnb")
    elo = tomllib.loads((tmp_path / "elo" / "nardrating.toml").read_text(encoding="utf-8"))["rating"]["club"]
    assert (elo["start"], elo["k"], elo["provisional_games"], elo["pair_limit_per_day"]) == (1200, 20, 5, 2)
    mfsnb = tomllib.loads((tmp_path / "mfsnb" / "nardrating.toml").read_text(encoding="utf-8"))["rating"]["club"]
    assert mfsnb["inactivity"] == [[3, 25], [6, 50], [9, 75], [12, 100], [18, 150]]
    assert mfsnb["start_by_qualification"]["KMS"] == 1900


def test_players_count_what_the_leaderboard_counts(cli_json, tmp_path):
    # anna–boris: three games on one evening (the third is over elo's pair limit of 2), one voided,
    # one forfeit, one unrated: the leaderboard counts 2 games each, and so must players.
    journal = '[[player]]\nid = "anna"\n[[player]]\nid = "boris"\n'
    for k, extra in enumerate(['', '', '', '', 'forfeit = true\n', 'rated = false\n']):
        day = "2009-01-15" if k < 3 else "2009-01-16"
        journal += f'[[match]]\nid = "m{k}"\ndate = {day}\nplayers = ["anna", "boris"]\nwinner = "anna"\n{extra}'
    journal = journal.replace('id = "m3"\ndate = 2009-01-16', 'id = "m3"\ndate = 2009-01-16', 1)
    journal += '[[void]]\nmatch = "m3"\ndate = 2009-01-20\nreason = "typo"\n'
    club = make_club(tmp_path / "club", journal)
    board = {r["player"]: r["games"] for r in cli_json("leaderboard", "--club", club)}
    assert board == {"anna": 2, "boris": 2}
    rows = {r["player"]: r["games"] for r in cli_json("players", "--club", club)}
    assert rows == {"anna": {"chess": 2}, "boris": {"chess": 2}}


# --- one name per column in every format ----------------------------------------------------------

COMMANDS = [
    ["leaderboard", "--club", SAMPLES / "fide-club", "--all"],
    ["leaderboard", "--club", SAMPLES / "nardy-club", "--all"],
    ["history", "vagif", "--club", SAMPLES / "nardy-club", "--rating", "chips"],
    ["history", "avakyan", "--club", FEDERATION],
    ["report", "--club", FEDERATION, "--period", "2009-Q1"],
    ["players", "--club", FEDERATION],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(str(a) for a in c[:1] + c[2:3]) for c in COMMANDS])
def test_columns_have_one_name_in_every_format(cli, command):
    from nardrating.reports import heading

    keys = next(csv.reader(io.StringIO(cli(*command, "-f", "csv").stdout)))
    md = cli(*command, "-f", "md").stdout.splitlines()
    headings = [h.strip() for h in md[2].strip("|").split("|")]
    assert headings == [("#" if key == "rank" else heading(key)) for key in keys]
    import json

    value = json.loads(cli(*command, "-f", "json").stdout)
    rows = value["rows"] if isinstance(value, dict) else value
    assert rows and all(set(keys) <= set(row) for row in rows)


def test_history_columns_keep_one_order_between_players(cli):
    # mfsnb: avakyan's history starts with the imported list (an adjust, then a list event with
    # `penalty`), tagiev's with a competition (`expected`): the same columns, in the same order.
    headers = set()
    for player in ("avakyan", "tagiev"):
        result = cli("history", player, "--club", FEDERATION, "--as-of", "2010-12-31", "-f", "csv")
        headers.add(tuple(next(csv.reader(io.StringIO(result.stdout)))))
    assert len(headers) == 1


def test_history_shows_a_games_expected_score_to_four_decimals_and_a_lists_hundredths_to_two(cli):
    # Seed 003 prints one game's E as 0.5144 (Анна − Вера); seed 000 gives a competition's E in
    # hundredths: Авакян's open-2009, E = 4.77 (not 4.7700); FIDE's table (b) P_D likewise (0.60 at
    # a difference of 70: Александров 2250 − Дмитриев 2180).
    def expected_cells(club, player, entry):
        text = cli("history", player, "--club", club).stdout
        line = next(line for line in text.splitlines() if f" {entry} " in line)
        return line.split()

    assert "0.5144" in expected_cells(CHESS, "anna", "m0003")
    cells = expected_cells(FEDERATION, "avakyan", "open-2009")
    assert "4.77" in cells and "4.7700" not in cells
    cells = expected_cells(SAMPLES / "fide-club", "aleksandrov", "m0017")
    assert "0.60" in cells and "0.6000" not in cells
