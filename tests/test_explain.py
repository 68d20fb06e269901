"""nardrating explain and history --details: the steps end in the change the history shows."""
import pytest

from nardrating.explain import explain, supported
from nardrating.ledger import load_club

from .conftest import SAMPLES, make_club

SAMPLE_CLUBS = sorted(p.name for p in SAMPLES.iterdir() if (p / "nardrating.toml").exists())
# Engines whose steps explain does not build yet (report --details shows their arithmetic).
NOT_YET = {"mfsnb", "fide", "placement", "chips"}


def check_every_match(ledger) -> int:
    checked = 0
    for rating in ledger.config.ratings.values():
        if not supported(rating.engine):
            assert rating.engine in NOT_YET
            continue
        for discipline in ledger.disciplines(rating):
            result = ledger.run(rating, discipline)
            for player in result.standings:
                for e in result.history(player):
                    if e.kind != "match" or e.entry is None:
                        continue
                    [table] = [t for t in explain(ledger, e.entry, rating.name, discipline)
                               if t.json_value is not None]
                    mine = next(p for p in table.json_value["players"] if p["player"] == player)
                    assert mine["change"] == e.change
                    assert mine["steps"][-1]["value"] == pytest.approx(e.change, abs=1e-9), (rating.name, e.entry)
                    checked += 1
    return checked


@pytest.mark.parametrize("club", SAMPLE_CLUBS)
def test_steps_end_in_the_change_on_every_sample(club):
    check_every_match(load_club(SAMPLES / club))


def test_glicko_steps_end_in_the_change(tmp_path):
    # Two monthly periods, three players, a draw: each game's share of the period's change.
    players = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("a", "b", "c"))
    games = [("2024-01-03", "a", "b", "1-0"), ("2024-01-09", "a", "c", "1/2-1/2"), ("2024-01-20", "b", "c", "0-1"),
             ("2024-02-02", "c", "a", "1-0"), ("2024-02-05", "b", "a", "0-1")]
    journal = players + "".join(f'[[match]]\nid = "g{k}"\ndate = {d}\nplayers = ["{x}", "{y}"]\nresult = "{r}"\n\n'
                                for k, (d, x, y, r) in enumerate(games))
    for engine in ("glicko", "glicko2"):
        config = f'[club]\njournal = ["journal.toml"]\n\n[rating.r]\nengine = "{engine}"\n'
        club = make_club(tmp_path / engine, journal, config)
        assert check_every_match(load_club(club)) == 10


def test_elo_steps_by_hand(cli_json):
    # Seed 003, game m0003: anna 1210 loses to vera 1200. E(anna) = 1/(1 + 10^(−10/400)) = 0.51439,
    # change = 20·(0 − 0.51439) = −10.2877.
    found = cli_json("explain", "m0003", "--club", str(SAMPLES / "chess-club"))
    assert set(found) == {"entry", "rating", "engine", "players"}
    anna = found["players"][0]
    assert set(anna) == {"player", "before", "change", "after", "inputs", "steps"}
    assert anna["player"] == "anna" and anna["inputs"]["opponent_rating"] == 1200.0
    assert [set(s) for s in anna["steps"]] == [{"rule", "formula", "value"}] * 2
    assert anna["steps"][0]["value"] == pytest.approx(0.51439, abs=1e-5)
    assert anna["steps"][-1]["value"] == pytest.approx(-10.2877, abs=1e-4)


def test_history_details(cli, cli_json):
    rows = cli_json("history", "anna", "--details", "--club", str(SAMPLES / "chess-club"))
    assert [round(r["steps"][-1]["value"], 6) for r in rows if r["steps"]] == [round(r["change"], 6) for r in rows
                                                                           if r["steps"]]
    result = cli("history", "anna", "--details", "--club", str(SAMPLES / "chess-club"))
    assert result.exit_code == 0 and "seed 003: expected score" in result.output


@pytest.mark.parametrize("args, message", [
    (["explain", "m9999", "--club", str(SAMPLES / "chess-club")], "no match 'm9999'"),
    (["explain", "m001", "--club", str(SAMPLES / "nardy-club"), "--rating", "chips"], "chips engine"),
])
def test_refusals(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 1 and message in result.output
