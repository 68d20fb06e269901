"""The manual's "Writing an engine" (docs/writing-an-engine.md): the example is this repository's tests/fixed_k_elo.py, and one
registry line makes it a full engine (config check, init, leaderboard, history)."""
import re

import pytest

from nardrating.engines import registry

from .conftest import ROOT


@pytest.fixture
def fixed_k():
    registry.register("fixed-k", "tests.fixed_k_elo:FixedKElo")
    yield
    registry.unregister("fixed-k")


def test_the_readme_shows_the_example_as_it_is():
    readme = (ROOT / "docs" / "writing-an-engine.md").read_text(encoding="utf-8")
    section = readme
    shown = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert shown == (ROOT / "tests" / "fixed_k_elo.py").read_text(encoding="utf-8")


def test_one_registry_line_gives_init_and_every_command(tmp_path, cli, cli_json, fixed_k):
    club = tmp_path / "club"
    assert cli("init", club, "--engine", "fixed-k").exit_code == 0
    config = (club / "nardrating.toml").read_text(encoding="utf-8")
    assert 'engine = "fixed-k"' in config and "Elo with one K" in config
    assert "start = 1000" in config and "k = 32" in config  # the parameter model's defaults
    for args in (("add-player", "anna"), ("add-player", "boris"),
                 ("add-match", "anna", "boris", "--winner", "anna", "--date", "2025-01-01"),
                 ("add-match", "anna", "boris", "--winner", "boris", "--date", "2025-01-02", "--unrated")):
        assert cli(*args, "--club", club).exit_code == 0
    # 1000 each, E = 0.5, K 32: anna +16 → 1016, boris −16 → 984; the unrated match changes nothing.
    board = cli_json("leaderboard", "--club", club)
    assert [(row["player"], row["rating"], row["games"]) for row in board] == [("anna", 1016, 1), ("boris", 984, 1)]
    history = cli_json("history", "boris", "--club", club)
    assert "unrated" in str(history)


def test_an_unknown_key_is_refused_by_the_parameter_model(tmp_path, cli, fixed_k):
    club = tmp_path / "club"
    cli("init", club, "--engine", "fixed-k")
    with open(club / "nardrating.toml", "a", encoding="utf-8") as f:
        f.write("kk = 10\n")
    result = cli("leaderboard", "--club", club)
    assert result.exit_code == 1 and "allowed keys: start, k" in result.output
