"""`matches`: the journal's matches with their ids, to find the one to amend."""
import json
import shutil

import pytest

from .conftest import SAMPLES

KEYS = ["id", "date", "players", "result", "length", "discipline", "tournament", "rated", "voided"]


@pytest.fixture
def chess(tmp_path):
    club = tmp_path / "chess-club"
    shutil.copytree(SAMPLES / "chess-club", club)
    return club


def rows(cli, club, *args):
    result = cli("matches", "--club", club, *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_every_match_with_exactly_the_documented_keys(cli, chess):
    # Seed 003's journal as written: six games on three evenings.
    found = rows(cli, chess)
    assert [list(row) for row in found] == [KEYS] * 6
    assert found[2] == {"id": "m0003", "date": "2009-01-22", "players": ["anna", "vera"], "result": "0-1",
                        "length": 1, "discipline": "chess", "tournament": None, "rated": True, "voided": False}
    assert [row["result"] for row in found] == ["1-0", "1/2-1/2", "0-1", "1-0", "1/2-1/2", "0-1"]


def test_filters(cli, chess):
    assert [r["id"] for r in rows(cli, chess, "--date", "2009-01-22")] == ["m0003", "m0004"]
    assert [r["id"] for r in rows(cli, chess, "--from", "2009-01-22")] == ["m0003", "m0004", "m0005", "m0006"]
    assert [r["id"] for r in rows(cli, chess, "--to", "2009-01-22")] == ["m0001", "m0002", "m0003", "m0004"]
    assert [r["id"] for r in rows(cli, chess, "--player", "gleb")] == ["m0002", "m0004", "m0005"]
    assert [r["id"] for r in rows(cli, chess, "--player", "gleb", "--from", "2009-01-22", "--to", "2009-01-22")] == \
        ["m0004"]


def test_voided_amended_tournament_and_unrated(cli, chess):
    assert cli("amend", "m0003", "--result", "1-0", "--club", chess).exit_code == 0
    # the correction stands where the wrong match stood; the voided one only with --voided
    assert [r["id"] for r in rows(cli, chess, "--date", "2009-01-22")] == ["m0007", "m0004"]
    shown = rows(cli, chess, "--date", "2009-01-22", "--voided")
    assert [(r["id"], r["voided"]) for r in shown] == [("m0003", True), ("m0007", False), ("m0004", False)]
    assert cli("add-tournament", "cup", "--name", "Кубок", "--system", "swiss", "--start", "2009-02-01",
               "--end", "2009-02-02", "--club", chess).exit_code == 0
    assert cli("add-match", "anna", "boris", "--winner", "boris", "--date", "2009-02-01", "--tournament", "cup",
               "--club", chess).exit_code == 0
    assert cli("add-match", "vera", "gleb", "--winner", "vera", "--date", "2009-02-03", "--forfeit",
               "--club", chess).exit_code == 0
    cup = rows(cli, chess, "--tournament", "cup")
    assert [(r["id"], r["players"], r["result"], r["tournament"]) for r in cup] == [("m0008", ["anna", "boris"], "0-1", "cup")]
    assert rows(cli, chess, "--date", "2009-02-03")[0]["rated"] is False  # a forfeit: rated by no list


def test_every_format(cli, chess):
    table = cli("matches", "--club", chess, "--date", "2009-01-15")
    assert table.exit_code == 0
    lines = table.stdout.splitlines()
    assert lines[0] == "Matches · 2009-01-15" and lines[-1] == "2 matches"
    assert "m0001  2009-01-15  anna; boris  1-0" in table.stdout
    csv = cli("matches", "--club", chess, "--date", "2009-01-15", "--format", "csv").stdout.splitlines()
    assert csv[0] == ",".join(KEYS) and csv[1] == "m0001,2009-01-15,anna; boris,1-0,1,chess,,yes,no"
    md = cli("matches", "--club", chess, "--date", "2009-01-15", "--format", "md").stdout
    assert "| m0002 | 2009-01-15 | vera; gleb | 1/2-1/2 | 1 | chess |  | yes | no |" in md
    one = cli("matches", "--club", chess, "--date", "2009-01-29", "--player", "anna")
    assert one.stdout.splitlines()[-1] == "1 match"


@pytest.mark.parametrize("args, message", [
    (["--player", "ana"], "--player: unknown player 'ana' (did you mean \"anna\"?)"),
    (["--tournament", "cup"], "--tournament: unknown tournament 'cup'"),
])
def test_unknown_names_are_refused(cli, chess, args, message):
    result = cli("matches", "--club", chess, *args)
    assert result.exit_code == 1 and message in result.stderr


def test_a_malformed_date_is_a_usage_error(cli, chess):
    result = cli("matches", "--club", chess, "--date", "2009-13-01")
    assert result.exit_code == 2 and "--date" in result.output
