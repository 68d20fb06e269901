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
JOURNAL = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("anna", "boris", "vera", "gleb")) + "".join(f'[[match]]\ndate = 2024-01-{day:02d}\nplayers = ["{a}", "{b}"]\nwinner = "{a}"\nlength = 3\n\n'
                  for day, a, b in ((1, "anna", "boris"), (2, "boris", "vera"), (9, "vera", "anna"), (20, "anna", "gleb")))


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
                                     ("leaderboard", "--rating", "chips", "--as-of", "2024-01-25")])
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


def test_configs_whose_parameters_have_methods_are_never_cached(tmp_path, cli):
    for sample in ("federation-2009", "fide-club"):   # mfsnb, fide
        folder = tmp_path / sample
        shutil.copytree(SAMPLES / sample, folder)
        assert cli("leaderboard", "--club", folder).exit_code == 0
        assert not cached_file(folder).exists()


def after_command(shown: str) -> str:
    """Python code that runs the command its arguments give, then prints `shown` to stderr."""
    return ("import sys; from nardrating.cli import main; sys.argv = ['nardrating', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print({shown}, file=sys.stderr)")


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


def test_add_match_takes_the_cached_config_and_builds_no_parameter_model(tmp_path):
    """A writer takes the checked config as the last check left it in the cache, as recalc and the
    reads do (the same text, program and Python give the same verdict): the second add-match imports
    none of the engines' parameter models, and the numbers are the same as ever.

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
    code = after_command("'nardrating.engines.params' in sys.modules")
    seen = []
    for a, b, day in (("anna", "boris", "2020-01-05"), ("boris", "anna", "2020-01-06")):
        done = subprocess.run([sys.executable, "-c", code, "add-match", a, b, "--winner", a, "--date", day, "--yes",
                               "--club", str(tmp_path)], env=env, capture_output=True, text=True, check=True)
        assert done.stdout.startswith("added match"), done.stderr
        seen.append(done.stderr.split()[-1])
    assert seen == ["True", "False"]   # checked the first time, cached the second
    board = subprocess.run([sys.executable, "-m", "nardrating", "leaderboard", "--all", "-f", "json", "--club", str(tmp_path)],
                           env=env, capture_output=True, text=True, check=True)
    assert {row["player"]: round(row["rating"], 4) for row in json.loads(board.stdout)} == \
        {"boris": 1500.5750, "anna": 1499.4250}
