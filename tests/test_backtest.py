"""nardrating backtest: the metrics worked by hand on a three-game journal, the established-only
restriction, a parameter grid, the JSON keys and the refusals."""
import math

import pytest

from nardrating.analysis import backtest as bt
from nardrating.replay.loader import load_club

from .conftest import SAMPLES, make_club

CONFIG = ('[club]\njournal = ["journal.toml"]\ndefault_discipline = "chess"\n\n'
          '[rating.club]\nengine = "elo"\nstart = 1200\nk = 20\nprovisional_games = 1\npair_limit_per_day = 0\n')

# anna is set to 1600; boris, vera and gleb start at 1200 (Elo, K = 20).
#   game 1  anna–boris 1-0: p = 1/(1 + 10^((1200 − 1600)/400)) = 1/(1 + 10^−1) = 10/11; s = 1
#   game 2  vera–gleb  0-1: p = ½ (both 1200);                                         s = 0
#           then vera 1200 + 20·(0 − ½) = 1190, gleb 1210
#   game 3  vera–gleb  draw: p = 1/(1 + 10^((1210 − 1190)/400)) = 1/(1 + 10^0.05);     s = ½
JOURNAL = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("anna", "boris", "vera", "gleb")) + """\
[[adjust]]
date = 2024-01-01
player = "anna"
set = 1600
reason = "imported"

[[match]]
id = "g1"
date = 2024-01-02
players = ["anna", "boris"]
result = "1-0"

[[match]]
id = "g2"
date = 2024-01-02
players = ["vera", "gleb"]
result = "0-1"

[[match]]
id = "g3"
date = 2024-01-03
players = ["vera", "gleb"]
result = "1/2-1/2"
"""
P1, P2, P3 = 10 / 11, 0.5, 1 / (1 + 10 ** 0.05)            # P3 = 0.47125
L1 = -math.log(10 / 11)                                    # = ln 1.1 = 0.09531
L2 = -math.log(0.5)                                        # = ln 2 = 0.69315
L3 = -(0.5 * math.log(P3) + 0.5 * math.log(1 - P3))        # a draw: both terms halved, 0.69480


@pytest.fixture
def club(tmp_path):
    return make_club(tmp_path / "club", JOURNAL, CONFIG)


def test_metrics_by_hand(club, cli_json):
    [c] = cli_json("backtest", "--club", str(club))["candidates"]
    assert set(c) >= {"rating", "engine", "params", "games", "log_loss", "brier", "accuracy", "calibration",
                      "established"}
    assert (c["rating"], c["engine"], c["games"]) == ("club", "elo", 3)
    assert c["params"]["k"] == 20
    assert c["log_loss"] == pytest.approx((L1 + L2 + L3) / 3, abs=1e-12)
    # Brier: (1/11)² + ¼ + (P3 − ½)², over 3
    assert c["brier"] == pytest.approx(((1 / 11) ** 2 + 0.25 + (P3 - 0.5) ** 2) / 3, abs=1e-12)
    # Decisive games 1 and 2: the winner anna had p = 10/11 > ½ (1); game 2 had p = ½ (a half): 1.5/2
    assert c["accuracy"] == 0.75
    # Deciles: P3 = 0.471 in 0.4–0.5 observed ½; P2 = 0.5 in 0.5–0.6 observed 0; P1 = 0.909 in 0.9–1 observed 1
    assert [(b["from"], b["games"], b["observed"]) for b in c["calibration"]] == [(0.4, 1, 0.5), (0.5, 1, 0.0),
                                                                                (0.9, 1, 1.0)]
    assert c["calibration"][2]["predicted"] == pytest.approx(10 / 11)


def test_established_only(club, cli_json):
    # provisional_games = 1: games 1 and 2 are every player's first; only game 3 (vera and gleb,
    # one rated game each before it) is between established players. It is a draw: no accuracy.
    [c] = cli_json("backtest", "--club", str(club))["candidates"]
    assert c["established"] == {"games": 1, "log_loss": pytest.approx(L3, abs=1e-12),
                                "brier": pytest.approx((P3 - 0.5) ** 2, abs=1e-12), "accuracy": None}


def test_from_to(club, cli_json):
    # Only game 3 is dated 2024-01-03, but it is predicted from the ratings games 1–2 left.
    [c] = cli_json("backtest", "--club", str(club), "--from", "2024-01-03")["candidates"]
    assert c["games"] == 1 and c["log_loss"] == pytest.approx(L3, abs=1e-12)
    [c] = cli_json("backtest", "--club", str(club), "--to", "2024-01-02")["candidates"]
    assert c["games"] == 2 and c["log_loss"] == pytest.approx((L1 + L2) / 2, abs=1e-12)


def test_grid(club, cli_json):
    # K = 10: after game 2 vera 1195, gleb 1205: P3 = 1/(1 + 10^(10/400)); games 1 and 2 as before.
    # K = 40: vera 1180, gleb 1220: P3 = 1/(1 + 10^(40/400)).
    found = cli_json("backtest", "--club", str(club), "--param", "k=10,40")["candidates"]
    by_k = {c["params"]["k"]: c for c in found}
    assert set(by_k) == {10, 40}
    for k, p3 in ((10, 1 / (1 + 10 ** 0.025)), (40, 1 / (1 + 10 ** 0.1))):
        l3 = -(0.5 * math.log(p3) + 0.5 * math.log(1 - p3))
        assert by_k[k]["log_loss"] == pytest.approx((L1 + L2 + l3) / 3, abs=1e-12)
    # Ranked: the draw between nearly equal players is predicted better with the smaller K.
    assert [c["params"]["k"] for c in found] == [10, 40]


def test_grid_parallel_matches_serial(club):
    ledger = load_club(club)
    found = bt.candidates(ledger, [], ["k=10,20,40"])
    serial = bt.run(ledger, found, workers=1)
    bt.PARALLEL_AFTER, saved = 0, bt.PARALLEL_AFTER
    try:
        parallel = bt.run(ledger, found, workers=2)
    finally:
        bt.PARALLEL_AFTER = saved
    assert parallel == serial


@pytest.mark.parametrize("args, message", [
    (["--param", "k=-5"], "--param k=-5"),
    (["--param", "kk=5"], "no parameter 'kk'"),
    (["--param", "k"], "NAME=VALUE"),
    (["--rating", "nope"], "no rating list 'nope'"),
    (["--plot", "calibration.gif"], ".png or .svg"),
])
def test_refusals(club, cli, args, message):
    before = (club / "journal.toml").read_bytes()
    result = cli("backtest", "--club", str(club), *args)
    assert result.exit_code == 1 and message in result.output
    assert (club / "journal.toml").read_bytes() == before


def test_lists_without_predictions_are_left_out(cli_json):
    # nardy-club: fibs and elo (fibs preset) predict; tournament (placement) and chips do not.
    found = cli_json("backtest", "--club", str(SAMPLES / "nardy-club"))["candidates"]
    assert sorted(c["rating"] for c in found) == ["elo", "fibs"]


def test_table_and_text_calibration(club, cli):
    result = cli("backtest", "--club", str(club))
    assert result.exit_code == 0, result.output
    assert "Calibration · club" in result.output and "0.9–1.0" in result.output


def test_plot_svg(club, cli, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "calibration.svg"
    result = cli("backtest", "--club", str(club), "--plot", str(out), "-f", "json")
    assert result.exit_code == 0, result.output
    assert out.read_text().lstrip().startswith("<?xml") and "<svg" in out.read_text()
    assert result.stderr.strip() == f"wrote {out}"
    import json

    assert json.loads(result.stdout)["candidates"]  # stdout: the JSON alone


def test_fibs_predictions_from_records_equal_those_from_history(monkeypatch):
    # The fast path (FibsEngine.predictions, from the replay's records) and the history events give
    # the same p and the same "established" for every rated game of the sample nardy club, cached or not.
    from nardrating.engines.fibs import FibsEngine

    ledger = load_club(SAMPLES / "nardy-club")
    for name in ("fibs", "elo"):
        rating = ledger.rating(name)
        for discipline in ledger.disciplines(rating):
            result = ledger.run(rating, discipline)
            fast = bt._from_result(ledger.journal, rating, result)
            with monkeypatch.context() as patched:
                patched.setattr(FibsEngine, "predictions", lambda self, params, result: None)
                slow = bt._from_result(ledger.journal, rating, result)
            key = lambda g: (g.day, g.p, g.s, g.established)  # noqa: E731
            assert len(fast) > 40 and sorted(fast, key=key) == sorted(slow, key=key)
            assert {g.established for g in fast} == {True, False}
