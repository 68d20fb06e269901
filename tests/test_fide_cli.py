"""The fide-club sample through the command line, and config errors."""
import json

from typer.testing import CliRunner

from nardrating.cli import app
from tests.conftest import SAMPLES, make_club

CLUB = str(SAMPLES / "fide-club")
ENV = {"COLUMNS": "100"}


def cli(*args):
    return CliRunner().invoke(app, [*args, "--club", CLUB], env=ENV)


def leaderboard(as_of):
    result = cli("leaderboard", "--as-of", as_of, "--format", "json")
    assert result.exit_code == 0, result.output
    return {row["player"]: row for row in json.loads(result.output)}


def test_sample_checks():
    result = cli("check")
    assert result.exit_code == 0, result.output
    assert "15 players" in result.output


def test_sample_seed_example_8_3_4():
    # novik plays the seed's 8.3.4 against opponents who have only played him (so they keep their
    # imported ratings). On 1 April 2024: 4 of 8 against (3·2220 + 5·2150)/8 = 2176.25, 8 games < 9.
    rows = leaderboard("2024-04-01")
    novik = rows["novik"]
    assert (novik["rating"], novik["status"], novik["pool_games"], novik["pool_rating"]) == \
        (None, "provisional", 8, 2176)
    # On 1 May 2024: 6½ of 12 against 2184.17 → 2184.17 + 15 → 2199.
    novik = leaderboard("2024-05-01")["novik"]
    assert (novik["rating"], novik["status"], novik["games"]) == (2199, "rated", 12)


def test_sample_inactive_and_provisional_and_titled():
    rows = leaderboard("2025-04-01")
    # lebedev: open-feb only: 0 vs belov (2240, D −340 → .12) and ½ vs korolev (1650, D +250 → .81):
    # Σ = −.12 − .31 = −.43; 20·−.43 = −8.6 → −9 → 1891. Last game 4 Feb 2024; the list of
    # 1 March 2025 looks back to 1 March 2024: inactive.
    assert (rows["lebedev"]["rating"], rows["lebedev"]["status"]) == (1891, "inactive")
    # ustinov: the round-robin only. Its rated players on the list of 1 June: ivanov 2101, zaitsev 2124,
    # egorov 2176, korolev 1656 (each moved once by a draw in February/March); their scores against
    # everyone 3½/5 (+149), 3½/5 (+149), 4½/5 (+366), 0/5 (−800): Rar = 8057/4 = 2014.25,
    # dpa = −136/4 = −34, n = 5: Ra = 2014.25 + 34·5/6 = 2042.58. ustinov 1 of 5 = .20 → −240;
    # round-robin below 50%: 2042.58 − 240·5/6 = 1842.58 → 1843. Five games: provisional.
    assert (rows["ustinov"]["status"], rows["ustinov"]["pool_games"], rows["ustinov"]["pool_rating"]) == \
        ("provisional", 5, 1843)
    assert rows["petrov"]["status"] == "titled-unrated"


def test_sample_report_of_october_2024():
    result = cli("report", "--period", "2024-10", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = {row["player"]: row for row in json.loads(result.output)["rows"]}
    # usova: 2½ of 5 in the round-robin at Ra 2042.58, then 2 of 4 against zhukov 2150, dmitriev 2182,
    # grigoriev 2199, belov 2242: 4½ of 9 = 50% → Rc = (5·2042.58 + 8773)/9 = 2109.55 → 2110.
    usova = rows["usova"]
    assert (usova["before"], usova["after"], usova["status"], usova["games"]) == (None, 2110, "rated", 4)
    assert (usova["pool"]["games"], usova["pool"]["points"], usova["pool"]["gives"]) == (9, 4.5, 2110)
    # petrov has 2 games against rated players in open-sep: ignored.
    assert rows["petrov"]["ignored"] == ["open-sep: 2 games against rated opponents; 3 needed (8.2)"]
    for key in ("performance", "pool", "ignored", "tournaments", "expected", "change"):
        assert key in usova


FIDE_2024_WITH_K = """\
[club]
name = "T"
journal = ["journal.toml"]

[rating.fide]
engine = "fide"
ruleset = "fide-2024"
k = 20
"""


def test_k_with_fide_2024_is_refused(tmp_path):
    club = make_club(tmp_path, "", FIDE_2024_WITH_K)
    result = CliRunner().invoke(app, ["check", "--club", str(club)], env=ENV)
    assert result.exit_code == 1
    assert "leave k out" in result.output


def test_unknown_list_period_is_refused(tmp_path):
    club = make_club(tmp_path, "", FIDE_2024_WITH_K.replace("k = 20", 'list_every = "week"'))
    result = CliRunner().invoke(app, ["check", "--club", str(club)], env=ENV)
    assert result.exit_code == 1
    assert "list_every" in result.output


def test_fractional_adjustment_is_refused(tmp_path):
    journal = '[[player]]\nid = "a"\n\n[[adjust]]\ndate = 2024-01-01\nplayer = "a"\nset = 2000.5\n'
    club = make_club(tmp_path, journal, FIDE_2024_WITH_K.replace("k = 20\n", ""))
    result = CliRunner().invoke(app, ["check", "--club", str(club)], env=ENV)
    assert result.exit_code == 1
    assert "keeps whole numbers; write 2000 instead of 2000.5" in result.output


def test_a_first_ratings_pool_note_is_in_russian_words_and_numbers():
    # Устинов's first rating (seed 002 8.2.5, below 50% in a round-robin) as the note under the report:
    # in English the pool's JSON keys; in Russian explain's words for them, the rule in words, and
    # every number as in English with a decimal comma.
    import re

    def note(env):
        out = CliRunner().invoke(app, ["report", "--period", "2024", "--details", "--club", CLUB], env=env).stdout
        return " ".join(next(line for line in out.split("\n[") if line.startswith("17] ustinov")).split())

    english, russian = note({"COLUMNS": "300"}), note({"COLUMNS": "300", "LANG": "ru_RU.UTF-8"})
    assert english.startswith("17] ustinov: pool: games 5, points 1.0, opponents_mean ")
    assert "rule below 50%, round-robin: Ra + dp·n/(n+1) (8.2.5)" in english
    assert russian.startswith("17] ustinov: пул: партий 5, очки 1,0, средний рейтинг соперников ")
    assert ", итог " in russian and "правило меньше 50 % в круговом турнире: Ra + dp·n/(n+1) (8.2.5)" in russian
    numbers = re.compile(r"\d+(?:[.,]\d+)?")
    figures = english.split(" rule ")[0], russian.split(" правило ")[0]   # (the rule's § numbers stay as written)
    assert [n.replace(".", ",") for n in numbers.findall(figures[0])] == numbers.findall(figures[1])
