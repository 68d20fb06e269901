"""nardrating explain and history --details: the steps end in the change the history shows."""
import json

import pytest

from nardrating.engines.registry import engine_class
from nardrating.analysis.explain import explain, explain_event
from nardrating.replay.loader import load_club
from nardrating.reports import as_of

from .conftest import SAMPLES, make_club

SAMPLE_CLUBS = sorted(p.name for p in SAMPLES.iterdir() if (p / "nardrating.toml").exists())
SAMPLE_LISTS = [(club, name) for club in SAMPLE_CLUBS for name in load_club(SAMPLES / club).config.ratings]
KEYS = {"entry", "rating", "engine", "players"}
PLAYER_KEYS = {"player", "before", "change", "after", "inputs", "steps"}


def every_event(ledger, rating_list):
    """(result, player, event) of every history event of the list, as history shows them."""
    day = as_of(ledger, None).day
    for discipline in ledger.disciplines(rating_list):
        result = ledger.run(rating_list, discipline, day)
        for player, events in result.events.items():
            for event in events:
                yield result, player, event


def check_every_event(ledger, rating_list) -> int:
    checked = 0
    for result, player, event in every_event(ledger, rating_list):
        shown = explain_event(ledger, result, player, event)
        assert set(shown) == PLAYER_KEYS
        assert shown["change"] == event.change
        assert shown["steps"][-1]["value"] == event.change, (rating_list.name, player, event)
        assert all(set(s) == {"rule", "formula", "value"} for s in shown["steps"])
        checked += 1
    return checked


def entry_of(player, event) -> str:
    return event.entry if event.kind == "match" else f"{player}@{event.date}"


@pytest.mark.parametrize("club, rating", SAMPLE_LISTS)
def test_every_event_of_every_sample_is_explained(cli, club, rating):
    ledger = load_club(SAMPLES / club)
    rating_list = ledger.rating(rating)
    if not engine_class(rating_list.engine).explains:
        pytest.skip("engine does not declare explain yet")
    assert check_every_event(ledger, rating_list) > 0
    # The CLI's JSON, for one entry of each kind this list has.
    firsts = {}
    for result, player, event in every_event(ledger, rating_list):
        firsts.setdefault(event.kind, (result.discipline, entry_of(player, event)))
    for discipline, entry in firsts.values():
        shown = cli("explain", entry, "--club", SAMPLES / club, "--rating", rating, "--discipline", discipline,
                    "--format", "json")
        assert shown.exit_code == 0, shown.output
        found = json.loads(shown.stdout)
        assert set(found) == KEYS and found["entry"] == entry and found["rating"] == rating
        assert found["players"] and all(set(p) == PLAYER_KEYS for p in found["players"])


GLICKO_GAMES = [("2024-01-03", "a", "b", "1-0"), ("2024-01-09", "a", "c", "1/2-1/2"), ("2024-01-20", "b", "c", "0-1"),
                ("2024-02-02", "c", "a", "1-0"), ("2024-02-05", "b", "a", "0-1"), ("2024-06-05", "b", "c", "1-0")]


def journal_of(games, players=("a", "b", "c"), extra=""):
    return ("".join(f'[[player]]\nid = "{p}"\n\n' for p in players)
            + "".join(f'[[match]]\nid = "g{k}"\ndate = {d}\nplayers = ["{x}", "{y}"]\nresult = "{r}"\n\n'
                      for k, (d, x, y, r) in enumerate(games)) + extra)


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_glicko_steps_end_in_the_change(tmp_path, engine):
    # Three monthly periods, three players, a draw, an idle stretch (b and c in June) and an adjustment.
    adjust = '[[adjust]]\nplayer = "a"\ndate = 2024-03-01\ndelta = 10\nrd = 80\nreason = "commission"\n'
    config = f'[club]\njournal = ["journal.toml"]\n\n[rating.r]\nengine = "{engine}"\n'
    ledger = load_club(make_club(tmp_path, journal_of(GLICKO_GAMES, extra=adjust), config))
    assert check_every_event(ledger, ledger.rating("r")) == 13
    # b's June game: its deviation grew over the idle months since February (period of b's last game).
    # Glicko: RD = min(√(RD² + c²·t), 350), t = 4 months (Feb → Jun), c = 34.6.
    # Glicko-2: φ = √(φ² + 3·σ²) over the 3 months without games (Mar, Apr, May), σ = b's volatility.
    [table, *_] = explain(ledger, "g5", "r")
    b = table.json_value["players"][0]
    feb = [e for e in ledger.run("r").history("b") if e.date.month == 2][-1].extra
    if engine == "glicko":
        grown = min((feb["rd"] ** 2 + 34.6 ** 2 * 4) ** 0.5, 350)
    else:
        phi = feb["rd"] / 173.7178
        grown = (phi ** 2 + 3 * feb["volatility"] ** 2) ** 0.5 * 173.7178
    assert "grow" in b["steps"][0]["rule"]
    assert b["inputs"]["rd_before"] == pytest.approx(grown, rel=1e-12)


def test_elo_steps_by_hand(cli_json):
    # Seed 003, game m0003: anna 1210 loses to vera 1200. E(anna) = 1/(1 + 10^(−10/400)) = 0.51439,
    # K·(S − E) = 20·(0 − 0.51439) = −10.2877; new = 1210 − 10.2877 = 1199.7123 (1199.71 in the seed's table).
    found = cli_json("explain", "m0003", "--club", str(SAMPLES / "chess-club"))
    assert set(found) == KEYS
    anna, vera = found["players"]
    assert set(anna) == PLAYER_KEYS
    assert anna["player"] == "anna" and anna["inputs"]["opponent_rating"] == 1200.0
    assert [s["value"] for s in anna["steps"]] == pytest.approx([0.51439, -10.2877, 1199.7123, -10.2877], abs=1e-4)
    # Vera: E = 1 − 0.51439 = 0.48561, 20·(1 − 0.48561) = +10.2877, 1200 → 1210.29 (the seed's table).
    assert [s["value"] for s in vera["steps"]] == pytest.approx([0.48561, 10.2877, 1210.2877, 10.2877], abs=1e-4)



def test_csv_holds_every_players_steps(cli):
    """CSV holds one table: each step led by its player and event kind, both players of m0003 (the
    steps of test_elo_steps_by_hand: anna's four ending in −10.2877, vera's four in +10.2877), and
    every one of the twelve players of the federation's open-2009 (a competition each)."""
    import csv
    import io

    result = cli("explain", "m0003", "-f", "csv", "--club", str(SAMPLES / "chess-club"))
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert list(rows[0]) == ["player", "kind", "rule", "formula", "value"]
    assert [(r["player"], r["kind"]) for r in rows] == [("anna", "match")] * 4 + [("vera", "match")] * 4
    assert (float(rows[3]["value"]), float(rows[7]["value"])) == pytest.approx((-10.2877, 10.2877), abs=1e-4)
    result = cli("explain", "open-2009", "-f", "csv", "--club", str(SAMPLES / "federation-2009"))
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert len({r["player"] for r in rows}) == 12 and {r["kind"] for r in rows} == {"competition"}
    # Авакян's is seed 000's worked example: R = 10·(6.5 − 4.77) = 17.3 → +17, his last step.
    assert [r["value"] for r in rows if r["player"] == "avakyan"][-1] == "17"


CHIPS = """[club]
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.chips]
engine = "chips"
"""


def test_chips_match_and_decay_by_hand(tmp_path, cli_json):
    # Seed 001's game rating (win +chips, loss −80 % of chips, −5 % a day):
    # 1 Jan: a beats b, 6 chips: a +6, b −0.8·6 = −4.8.
    # 4 Jan: b beats a, score 5-3 (no chips): 5 chips. a first decays 3 days: 6·0.95³ = 6·0.857375 = 5.14425,
    #        a change of −0.85575; then a loses 0.8·5 = 4.
    journal = journal_of([("2025-01-01", "a", "b", "1-0"), ("2025-01-04", "b", "a", "1-0")], ("a", "b"))
    journal = journal.replace('result = "1-0"\n\n[[match]]', 'result = "1-0"\nchips = 6\n\n[[match]]', 1)
    journal = journal.rstrip() + "\nscore = [5, 3]\n"
    club = make_club(tmp_path, journal.replace("[[match]]", '[[match]]\ndiscipline = "long-nardy"'), CHIPS)
    first = cli_json("explain", "g0", "--club", club)
    a, b = first["players"]
    assert [s["value"] for s in a["steps"]] == [6.0, 6.0]
    assert [s["value"] for s in b["steps"]] == [6.0, pytest.approx(-4.8)]
    assert b["change"] == b["steps"][-1]["value"]
    decay = cli_json("explain", "a@2025-01-04", "--club", club)
    [a] = decay["players"]
    assert a["inputs"]["kind"] == "decay" and a["inputs"]["days"] == 3
    assert [s["value"] for s in a["steps"]] == pytest.approx([0.95, 0.857375, 5.14425, -0.85575], abs=1e-12)
    second = cli_json("explain", "g1", "--club", club)
    assert [s["value"] for s in second["players"][1]["steps"]] == [5.0, -4.0]
    assert "score 5-3" in second["players"][1]["steps"][0]["formula"]


PENALTY_CONFIGS = {
    "elo": 'engine = "elo"\nstart = 1200\nk = 20\n',
    "fibs": 'engine = "fibs"\n',
    "chips": 'engine = "chips"\n',
}


@pytest.mark.parametrize("engine", PENALTY_CONFIGS)
def test_inactivity_penalty_by_hand(tmp_path, cli_json, engine):
    # inactivity = [[3, 25], [6, 50]]: a plays on 10 Jan 2025, then c and d play on 1 Aug.
    # More than 3 months: 25 on 11 Apr (10 Jan + 3 months = 10 Apr, the day after);
    # more than 6 months: 50 in all on 11 Jul, less the 25 already charged = 25.
    config = (f'[club]\njournal = ["journal.toml"]\ndefault_discipline = "chess"\n\n[rating.r]\n'
              f'{PENALTY_CONFIGS[engine]}inactivity = [[3, 25], [6, 50]]\n')
    club = make_club(tmp_path, journal_of([("2025-01-10", "a", "b", "1-0"), ("2025-08-01", "c", "d", "1-0")],
                                          ("a", "b", "c", "d")), config)
    def penalty(day):
        shown = cli_json("explain", f"a@{day}", "--club", club)["players"]
        # chips decays the rating to the day first (its own event, before the penalty).
        assert [p["inputs"]["kind"] for p in shown] == (["decay"] if engine == "chips" else []) + ["penalty"]
        return shown[-1]

    assert [s["value"] for s in penalty("2025-04-11")["steps"]] == [25, 25, -25]
    july = penalty("2025-07-11")
    assert [s["value"] for s in july["steps"]] == [50, 25, -25]
    assert july["inputs"]["last_rated_game"] == "2025-01-10" and july["inputs"]["months"] == 6
    assert july["change"] == -25


def test_history_details(cli, cli_json):
    rows = cli_json("history", "anna", "--details", "--club", str(SAMPLES / "chess-club"))
    assert all(r["steps"][-1]["value"] == r["change"] for r in rows)
    result = cli("history", "anna", "--details", "--club", str(SAMPLES / "chess-club"), env={"COLUMNS": ""})
    assert result.exit_code == 0 and "«Как рассчитывается новый рейтинг»: expected score E(A)" in result.output


def test_history_details_of_decays(cli, cli_json):
    club = str(SAMPLES / "nardy-club")
    rows = cli_json("history", "zaur", "--details", "--rating", "chips", "--club", club)
    decays = [r for r in rows if r["kind"] == "decay"]
    assert decays and all(r["steps"][-1]["value"] == r["change"] for r in rows)
    shown = cli("history", "zaur", "--details", "--rating", "chips", "--club", club)
    assert shown.exit_code == 0 and "−5% a day" in shown.output


@pytest.mark.parametrize("args, message", [
    (["explain", "m9999", "--club", str(SAMPLES / "chess-club")], "no match or tournament 'm9999'"),
    (["explain", "m9999", "--club", str(SAMPLES / "chess-club")], "PLAYER@DATE"),
    (["explain", "anna@2009-13-01", "--club", str(SAMPLES / "chess-club")], "not a date"),
    (["explain", "anna@2009-01-01", "--club", str(SAMPLES / "chess-club")], "no adjust, penalty, decay or list event"),
    (["explain", "nobody@2009-01-01", "--club", str(SAMPLES / "chess-club")], "unknown player 'nobody'"),
    # a player's id typed for their change: what to give instead, not "no match"
    (["explain", "anna", "--club", str(SAMPLES / "chess-club")],
     "'anna' is a player: explain one of their matches (history anna lists them with their ids), or anna@DATE"),
    (["explain", "winter-cup", "--club", str(SAMPLES / "nardy-club")], "no event of tournament 'winter-cup'"),
    (["explain", "m0003", "--discipline", "backgammon", "--club", str(SAMPLES / "chess-club")],
     "m0003 is in 'chess', not 'backgammon'"),
])
def test_refusals(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 1 and message in result.output, result.output


def test_an_engine_without_explain_refuses_cleanly(tmp_path, cli, cli_json):
    # The manual's fixed-K Elo (docs/writing-an-engine.md) declares no `explains`: a rated match is refused with a message and
    # exit 1, never a traceback; its unrated match is still explained by the base (change 0).
    from nardrating.engines import registry

    registry.register("fixed-k", "tests.fixed_k_elo:FixedKElo")
    try:
        club = tmp_path / "club"
        assert cli("init", club, "--engine", "fixed-k").exit_code == 0
        for args in (("add-player", "anna"), ("add-player", "boris"),
                     ("add-match", "anna", "boris", "--winner", "anna", "--date", "2025-01-01"),
                     ("add-match", "anna", "boris", "--winner", "boris", "--date", "2025-01-02", "--unrated")):
            assert cli(*args, "--club", club).exit_code == 0
        g1, g2 = (row["entry"] for row in cli_json("history", "anna", "--club", club))
        result = cli("explain", g1, "--club", club)
        assert result.exit_code == 1 and "does not explain match events" in result.output, result.output
        assert "Traceback" not in result.output
        result = cli("explain", g2, "--club", club)
        assert result.exit_code == 0 and "not rated" in result.output, result.output
    finally:
        registry.unregister("fixed-k")


def test_a_day_with_events_in_two_disciplines_asks_which(cli, cli_json):
    # Every chip rating decays up to the journal's last entry (30 March) in both disciplines.
    club = str(SAMPLES / "nardy-club")
    result = cli("explain", "aslan@2025-03-30", "--rating", "chips", "--club", club)
    assert result.exit_code == 1
    assert "--discipline long-nardy or --discipline short-nardy" in result.output
    found = cli_json("explain", "aslan@2025-03-30", "--rating", "chips", "--discipline", "short-nardy", "--club", club)
    assert [p["inputs"]["kind"] for p in found["players"]] == ["decay"]


def test_history_details_of_an_engine_without_explain_keeps_every_row(cli, cli_json):
    # An engine that does not explain a kind yet: its rows have steps null, the command still succeeds.
    club = str(SAMPLES / "federation-2009")
    rows = cli_json("history", "avakyan", "--details", "--club", club)
    assert rows and all("steps" in r for r in rows)
    assert all(r["steps"] is None or r["change"] is None or r["steps"][-1]["value"] == r["change"] for r in rows)
    shown = cli("history", "avakyan", "--details", "--club", club)
    assert shown.exit_code == 0
