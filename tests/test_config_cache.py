"""The checked config kept in the cache (replay/configcache.py): leaderboard, history and players read
it instead of checking nardrating.toml again, and must show exactly what a full check shows; any
change of the config, a damaged file or parameters that are not plain fields mean a full check."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nardrating.config import load_config
from nardrating.replay import configcache
from nardrating.replay.cachedir import club_key, root

from .conftest import SAMPLES

# Every engine whose parameters are plain fields, with values of each kind: whole and fractional
# numbers, a ladder of tuples, a preset, a Literal, booleans, a disciplines list.
CONFIG = """[club]
name = "Cached config"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
preset = "nardy-site"
inactivity = [[2, 10], [4, 25.5]]
boost = false

[rating.club]
engine = "elo"
disciplines = ["long-nardy", "short-nardy"]
start = 1234.5
k = 32

[rating.chips]
engine = "chips"
daily_decay = 0.1

[rating.places]
engine = "placement"

[rating.glicko]
engine = "glicko"
period = "week"

[rating.glicko2]
engine = "glicko2"
tau = 0.3
"""
JOURNAL = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("anna", "boris", "vera", "gleb")) + "".join(f'[[match]]\nid = "m{n:04d}"\ndate = 2024-01-{day:02d}\nplayers = ["{a}", "{b}"]\nwinner = "{a}"\nlength = 3\n\n'
                  for n, (day, a, b) in enumerate(((1, "anna", "boris"), (2, "boris", "vera"), (9, "vera", "anna"),
                                                   (20, "anna", "gleb")), start=1))


def typed(value):
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [typed(v) for v in value]]
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    return type(value).__name__, repr(value)


def club(tmp_path: Path, config: str = CONFIG) -> Path:
    (tmp_path / "nardrating.toml").write_text(config, encoding="utf-8")
    (tmp_path / "journal.toml").write_text(JOURNAL, encoding="utf-8")
    return tmp_path


def cached_file(folder: Path) -> Path:
    return root() / club_key(load_config(folder / "nardrating.toml")) / "config.json"


def test_the_cached_config_has_every_value_of_the_checked_one_with_its_type(tmp_path):
    folder = club(tmp_path)
    checked = load_config(folder / "nardrating.toml")
    configcache.save(checked)
    cached = configcache.load(folder / "nardrating.toml")
    assert cached.club == checked.club and cached.text == checked.text
    assert list(cached.ratings) == list(checked.ratings)
    for name, rating in checked.ratings.items():
        again = cached.ratings[name]
        assert (again.engine, again.disciplines, again.line) == (rating.engine, rating.disciplines, rating.line)
        fields = type(rating.params).model_fields
        assert typed({k: getattr(again.params, k) for k in fields}) == typed({k: getattr(rating.params, k) for k in fields})
    assert cached.ratings["fibs"].params.inactivity == ((2, 10), (4, 25.5))   # tuples, as the model holds them
    assert cached.ratings["fibs"].params.factor == 10                         # the preset's
    with pytest.raises(AttributeError):
        cached.ratings["club"].params.k = 5                                   # frozen, as the model


@pytest.mark.parametrize("command", [("leaderboard", "--all"), ("leaderboard", "--rating", "glicko2"),
                                     ("history", "anna", "--rating", "club"), ("players",),
                                     ("leaderboard", "--rating", "chips", "--as-of", "2024-01-25"),
                                     *(("history", "anna", "--rating", name, "--details")
                                       for name in ("fibs", "club", "chips", "places", "glicko", "glicko2")),
                                     ("report", "--period", "2024-01", "--rating", "glicko"),
                                     ("report", "--period", "2024-01", "--rating", "fibs"),
                                     ("explain", "m0003", "--rating", "club"), ("explain", "m0004", "--rating", "fibs"),
                                     ("player", "anna", "--rating", "glicko2"), ("head-to-head", "anna", "vera")])
def test_read_only_commands_show_what_a_full_check_shows(tmp_path, cli, command):
    folder = club(tmp_path)
    full = cli(*command, "--club", folder, "--format", "json", env={"NARDRATING_NO_CACHE": "1"})
    first = cli(*command, "--club", folder, "--format", "json")    # checks the config, keeps it
    assert cached_file(folder).exists()
    second = cli(*command, "--club", folder, "--format", "json")   # reads it from the cache
    assert full.exit_code == first.exit_code == second.exit_code == 0, (full.output, second.output)
    assert full.stdout == first.stdout == second.stdout


def test_a_changed_config_is_checked_again(tmp_path, cli):
    folder = club(tmp_path)
    assert cli("leaderboard", "--club", folder).exit_code == 0
    config = folder / "nardrating.toml"
    config.write_text(CONFIG.replace("k = 32", "k = -1"), encoding="utf-8")   # refused by the model
    refused = cli("leaderboard", "--club", folder, "--rating", "club")
    assert refused.exit_code == 1 and "k" in refused.output and "greater than 0" in refused.output
    config.write_text(CONFIG.replace("k = 32", "k = 16"), encoding="utf-8")
    rows = json.loads(cli("leaderboard", "--club", folder, "--rating", "club", "--format", "json").stdout)
    # Seed 003: 1234.5 each, E = 0.5; with K 16 the winner of the first game gains 16·0.5 = 8.
    history = json.loads(cli("history", "boris", "--club", folder, "--rating", "club", "--format", "json").stdout)
    assert history[0]["change"] == -8.0 and {r["player"] for r in rows} >= {"anna", "boris"}


@pytest.mark.parametrize("damage", [lambda b: b[:-3], lambda b: b.replace(b'"k": 32', b'"k": 33'),
                                    lambda b: b"0" * 64 + b"\n{}", lambda b: b""])
def test_a_damaged_cached_config_is_not_used(tmp_path, cli, damage):
    folder = club(tmp_path)
    before = cli("leaderboard", "--club", folder, "--rating", "club", "--format", "json").stdout
    path = cached_file(folder)
    path.write_bytes(damage(path.read_bytes()))
    assert cli("leaderboard", "--club", folder, "--rating", "club", "--format", "json").stdout == before


FIDE_CONFIGS = {   # ruleset lines of a fide list, each with what FIDE's rules or seed 002 fix
    'ruleset = "seed"': (1000, 9, 20, None),        # seed 002: floor 1000, 9 games, K 20, no cap
    'ruleset = "seed"\nk = 15\nmin_rating = 1100\nfirst_rating_games = 7': (1100, 7, 15, None),
    'ruleset = "fide-2024"': (1400, 5, 20, 400),     # B.02 (2024): floor 1400, 5 games, §8.3.1's 400
    'ruleset = "fide-2025"\nlist_every = "quarter"': (1400, 5, 20, 400),
}


@pytest.mark.parametrize("ruleset", list(FIDE_CONFIGS))
def test_fide_parameters_come_back_with_their_rules(tmp_path, ruleset):
    """fide's engine reads more than the fields (the floor, K, games to publish, the §8.3.1 cap by
    ruleset): its cached values are FideValues, which answer as the checked model does."""
    from datetime import date

    from nardrating.engines.fide.values import FideRules, FideValues

    folder = club(tmp_path, CONFIG + f"\n[rating.fide]\nengine = \"fide\"\n{ruleset}\n")
    checked = load_config(folder / "nardrating.toml")
    configcache.save(checked)
    model, values = checked.ratings["fide"].params, configcache.load(folder / "nardrating.toml").ratings["fide"].params
    assert isinstance(values, FideValues) and isinstance(model, FideRules) and not isinstance(values, type(model))
    assert (values.floor, values.games_to_publish, values.fixed_k, values.difference_cap) == FIDE_CONFIGS[ruleset]
    for own, day in ((2649, date(2025, 10, 1)), (2650, date(2025, 9, 30)), (2650, date(2025, 10, 1))):
        assert values.cap_for(own, day) == model.cap_for(own, day)
    # fide-2025 from 1 October 2025: a player rated 2650 or more has no cap; anyone else keeps 400.
    assert values.cap_for(2650, date(2025, 10, 1)) == (None if "2025" in ruleset else FIDE_CONFIGS[ruleset][3])
    assert values.fide == model.fide == ("fide-" in ruleset)


def test_mfsnb_parameters_come_back_with_their_first_ratings(tmp_path):
    """Seed 000's first ratings by qualification (MS 2000, KMS 1900, 1st 1800, 2nd 1600, 3rd 1500),
    one of them changed in the config, the others filled from the seed's table; no qualification: start."""
    from nardrating.engines.mfsnb.values import MfsnbValues

    folder = club(tmp_path, CONFIG + '\n[rating.fed]\nengine = "mfsnb"\nstart = 1400\n'
                                     'start_by_qualification = { KMS = 1950 }\n')
    configcache.save(load_config(folder / "nardrating.toml"))
    values = configcache.load(folder / "nardrating.toml").ratings["fed"].params
    assert isinstance(values, MfsnbValues)
    assert [values.start_for(q) for q in ("MS", "KMS", "1", "2", "3", None, "")] == [2000, 1950, 1800, 1600, 1500,
                                                                                    1400, 1400]
    assert values.inactivity == ((3, 25), (6, 50), (9, 75), (12, 100), (18, 150))


@pytest.mark.parametrize("command", [("leaderboard", "--all"), ("players",), ("history", "{first}", "--details"),
                                     ("report", "--period", "{year}"), ("player", "{first}")])
@pytest.mark.parametrize("sample", ["federation-2009", "fide-club"])   # mfsnb, fide
def test_mfsnb_and_fide_clubs_read_their_cached_config_and_show_the_same(tmp_path, cli, sample, command):
    folder = tmp_path / sample
    shutil.copytree(SAMPLES / sample, folder)
    rows = json.loads(cli("leaderboard", "--club", folder, "--format", "json", env={"NARDRATING_NO_CACHE": "1"}).stdout)
    year = max(str(r["last_played"]) for r in rows if r.get("last_played"))[:4]
    command = tuple(word.format(first=rows[0]["player"], year=year) for word in command)
    full = cli(*command, "--club", folder, "--format", "json", env={"NARDRATING_NO_CACHE": "1"})
    first = cli(*command, "--club", folder, "--format", "json")
    assert cached_file(folder).exists()
    second = cli(*command, "--club", folder, "--format", "json")
    assert full.exit_code == first.exit_code == second.exit_code == 0, (full.output, second.output)
    assert full.stdout == first.stdout == second.stdout


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_an_mfsnb_club_from_the_cache_imports_no_pydantic_model(tmp_path):
    folder = tmp_path / "federation-2009"
    shutil.copytree(SAMPLES / "federation-2009", folder)
    env = {**os.environ, "NARDRATING_CLUB": ""}
    code = after_command("'pydantic.main' in sys.modules, 'nardrating.engines.mfsnb.params' in sys.modules")
    seen = [subprocess.run([sys.executable, "-c", code, "leaderboard", "--club", str(folder)], env=env,
                           capture_output=True, text=True, check=True).stderr.split()[-2:] for _ in range(2)]
    assert seen == [["True", "True"], ["False", "False"]]


class _Foreign:   # an engine's parameters written elsewhere, with a method the engine would read
    def rule(self) -> int:
        return 1


def test_parameters_with_methods_of_no_values_class_are_never_cached(tmp_path):
    """A model outside engines/params.py whose engine names no `param_values` (an engine written
    elsewhere), or a model that is not the one the engine's values share rules with: not kept."""
    from pydantic import BaseModel

    from nardrating.config import RatingList

    class ForeignParams(BaseModel, _Foreign):
        k: int = 20

    checked = load_config(club(tmp_path).joinpath("nardrating.toml"))
    for engine in ("elo", "fide", "mfsnb"):
        checked.ratings["club"] = RatingList("club", engine, ForeignParams(), None, 1)
        with pytest.raises(TypeError):
            configcache.save(checked)


def after_command(shown: str) -> str:
    """Python code that runs the command its arguments give, then prints `shown` to stderr."""
    return ("import sys; from nardrating.cli import main; sys.argv = ['nardrating', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print({shown}, file=sys.stderr)")


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_leaderboard_from_the_cache_imports_no_pydantic_model(tmp_path):
    """The point of it: a read-only command with the config and journal cached builds no pydantic
    model (nor imports pydantic's model machinery); nor, with no tournament run here, the records of
    one (journal/play.py)."""
    folder = club(tmp_path)
    env = {**os.environ, "NARDRATING_CLUB": ""}
    code = after_command("'pydantic.main' in sys.modules, 'nardrating.engines.params' in sys.modules, "
                         "'nardrating.journal.play' in sys.modules")
    seen = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code, "leaderboard", "--club", str(folder)], env=env,
                              capture_output=True, text=True, check=True)
        seen.append(done.stderr.split()[-3:])
    assert seen == [["True", "True", "True"], ["False", "False", "False"]]   # checked the first time, cached the second


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_recalc_of_a_csv_club_takes_the_cached_config_and_imports_no_pydantic(tmp_path):
    """recalc replays the journal with the config its last check left in the cache: on a club whose
    journal is CSV only, the second recalc imports no pydantic at all (the CSV reader checks cells by
    limits.py and textrules.py, not through the entry models), and gives the same numbers.

    Elo, K 20, everyone at 1500: anna beats boris (expected 0.5, ±10: 1510, 1490); then boris
    beats anna: boris expected 1 / (1 + 10^(20/400)) = 0.471249..., so +20 × 0.528750... = +10.5750:
    boris 1500.5750, anna 1499.4250."""
    (tmp_path / "nardrating.toml").write_text(
        '[club]\nname = "CSV club"\njournal = ["games.csv"]\ndefault_discipline = "chess"\n\n'
        '[rating.elo]\nengine = "elo"\nk = 20\nstart = 1500\npair_limit_per_day = 0\n', encoding="utf-8")
    (tmp_path / "games.csv").write_text("date,player_a,player_b,result\n2020-01-05,anna,boris,1-0\n"
                                        "2020-01-06,anna,boris,0-1\n", encoding="utf-8")
    env = {**os.environ, "NARDRATING_CLUB": "", "NARDRATING_PARALLEL": "0"}
    code = after_command("'pydantic' in sys.modules")
    seen, boards = [], []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code, "recalc", "--club", str(tmp_path)], env=env,
                              capture_output=True, text=True, check=True)
        seen.append(done.stderr.split()[-1])
        board = subprocess.run([sys.executable, "-m", "nardrating", "leaderboard", "--all", "-f", "json", "--club",
                                str(tmp_path)], env=env, capture_output=True, text=True, check=True)
        boards.append({row["player"]: round(row["rating"], 4) for row in json.loads(board.stdout)})
    assert seen == ["True", "False"]   # checked the first time, cached the second
    assert boards == [{"boris": 1500.5750, "anna": 1499.4250}] * 2


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_add_match_takes_the_cached_config_and_builds_no_parameter_model(tmp_path):
    """A writer takes the checked config as the last check left it in the cache, as recalc and the
    reads do (the same text, program and Python give the same verdict): the second add-match imports
    none of the engines' parameter models, nor pydantic at all (its [[match]] is taken without the
    entry model: journal/plainmatch.py; the first reads the [[player]] entries by theirs), and the
    numbers are the same as ever.

    Elo, K 20, everyone at 1500: anna beats boris (expected 0.5): +10, 1510 and 1490; then boris
    beats anna: boris's expected score 1 / (1 + 10^(20/400)) = 0.471249..., so +20 × 0.528750... =
    +10.5750: boris 1500.5750, anna 1499.4250."""
    (tmp_path / "nardrating.toml").write_text(
        '[club]\nname = "CSV club"\njournal = ["games.csv", "journal.toml"]\ndefault_discipline = "chess"\n\n'
        '[rating.elo]\nengine = "elo"\nk = 20\nstart = 1500\npair_limit_per_day = 0\n', encoding="utf-8")
    (tmp_path / "games.csv").write_text("date,player_a,player_b,result\n", encoding="utf-8")
    (tmp_path / "journal.toml").write_text('[[player]]\nid = "anna"\nname = "Anna"\n\n'
                                           '[[player]]\nid = "boris"\nname = "Boris"\n', encoding="utf-8")
    env = {**os.environ, "NARDRATING_CLUB": "", "NARDRATING_PARALLEL": "0"}
    code = after_command("'nardrating.engines.params' in sys.modules, 'pydantic' in sys.modules")
    seen = []
    for a, b, day in (("anna", "boris", "2020-01-05"), ("boris", "anna", "2020-01-06")):
        done = subprocess.run([sys.executable, "-c", code, "add-match", a, b, "--winner", a, "--date", day, "--yes",
                               "--club", str(tmp_path)], env=env, capture_output=True, text=True, check=True)
        assert done.stdout.startswith("added match"), done.stderr
        seen.append(done.stderr.split()[-2:])
    assert seen == [["True", "True"], ["False", "False"]]   # checked the first time, cached the second
    board = subprocess.run([sys.executable, "-m", "nardrating", "leaderboard", "--all", "-f", "json", "--club", str(tmp_path)],
                           env=env, capture_output=True, text=True, check=True)
    assert {row["player"]: round(row["rating"], 4) for row in json.loads(board.stdout)} == \
        {"boris": 1500.5750, "anna": 1499.4250}
