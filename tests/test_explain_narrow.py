"""explain and history --details in a narrow terminal: every step's rule, formula and value stay,
wrapped within the width (the long text columns wrap before any column is left out)."""
import json
from datetime import date

import pytest

from nardrating.render import table_lines
from nardrating.reports import Column, Table

from .conftest import SAMPLES

NARDY = SAMPLES / "nardy-club"


def _words_in_order(text: str, words: list[str]) -> bool:
    at = 0
    for word in words:
        at = text.find(word, at)
        if at < 0:
            return False
        at += len(word)
    return True


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("entry, rating", [("m037", "fibs"), ("m037", "elo"), ("m0003", None)])
def test_explain_keeps_every_step_within_the_width(cli, cli_json, entry, rating, width):
    club = SAMPLES / ("chess-club" if entry == "m0003" else "nardy-club")
    chosen = ["--rating", rating] if rating else []
    steps = [s for p in cli_json("explain", entry, "--club", club, *chosen)["players"] for s in p["steps"]]
    shown = cli("explain", entry, "--club", club, *chosen, env={"COLUMNS": str(width)})
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert [line for line in lines if len(line) > width] == []
    assert "not shown" not in shown.stdout
    for step in steps:  # each one's words, in order, with its value to 4 decimals
        assert _words_in_order(shown.stdout, step["rule"].split()), step["rule"]
        assert _words_in_order(shown.stdout, step["formula"].split()), step["formula"]
        assert _to_four(step["value"]) in shown.stdout
    assert shown.stdout.count("inputs: ") == len(cli_json("explain", entry, "--club", club, *chosen)["players"])


@pytest.mark.parametrize("width", [80, 60])
def test_history_details_steps_within_the_width(cli, width):
    rows = json.loads(cli("history", "davit", "--details", "--club", NARDY, "--format", "json").stdout)
    rows = rows if isinstance(rows, list) else rows["rows"]
    shown = cli("history", "davit", "--details", "--club", NARDY, env={"COLUMNS": str(width)})
    assert shown.exit_code == 0, shown.output
    assert [line for line in shown.stdout.splitlines() if len(line) > width] == []
    # the history table may leave out engine columns; the steps tables never their Rule, Formula or Value
    for notice in (line for line in shown.stdout.splitlines() if line.startswith("not shown")):
        assert not {"Rule", "Formula", "Value"} & set(notice.replace(",", " ").replace(";", " ").split())
    for step in (s for row in rows for s in row["steps"] or ()):
        assert _words_in_order(shown.stdout, step["formula"].split()), step["formula"]
        assert _to_four(step["value"]) in shown.stdout


def _to_four(value: float) -> str:
    """A step's value as the Value column writes it: to 4 decimals, the zeros after the last digit
    that counts dropped (4.9000 is 4.9, 5.0000 is 5)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def test_wrap_column_laid_out_by_hand():
    table = Table("T", [Column("rule", "Rule", wrap=True), Column("value", "Value", "probability")],
                  [{"rule": "the winner gains base times own boost", "value": 0.5}],
                  caption="inputs: rating 1500, opponent_rating 1400")
    # Natural width 37 + 2 + 6 = 45 > 24. Value keeps its 6 (right-aligned); Rule gets 24 − 2 − 6 = 16
    # cells and wraps ("the winner gains" is exactly 16), its further lines indented by two spaces;
    # the caption wraps at 24 the same way ("inputs: rating 1500, opponent_rating" would be 36).
    assert [line for line, _ in table_lines(table, 24)] == [
        "T",
        "Rule" + " " * 12 + "  " + " Value",
        "─" * 24,
        "the winner gains  0.5000",
        "  base times own",
        "  boost",
        "inputs: rating 1500,",
        "  opponent_rating 1400",
    ]
    # no width (a pipe): one line a row, as before
    assert [line for line, _ in table_lines(table, None)][3] == "the winner gains base times own boost  0.5000"


def test_published_lists_are_a_declared_capability():
    from nardrating.engines.base import RatingResult
    from nardrating.engines.fide.report import FideResult
    from nardrating.engines.mfsnb.result import MfsnbResult
    from nardrating.replay.loader import load_club
    from nardrating.reports.period import list_dates

    assert (RatingResult.list_kind, MfsnbResult.list_kind, FideResult.list_kind) == ("none", "periods", "records")
    ledger = load_club(SAMPLES / "chess-club")  # elo: no published lists
    (rating,) = ledger.config.ratings
    assert list_dates(ledger.run(ledger.rating(rating), "chess", date(2009, 12, 31))) == []
