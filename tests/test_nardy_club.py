"""The nardy-club sample ledger: four rating lists at once (fibs, nardy-site Elo, tournament, chips)."""
import shutil
from datetime import date

from nardrating.replay.loader import load_club

from .conftest import SAMPLES

CLUB = SAMPLES / "nardy-club"


def test_sample_passes_check(cli):
    result = cli("check", "--club", CLUB)
    assert result.exit_code == 0, result.output
    assert "rating lists: fibs, elo, tournament, chips" in result.stdout


def test_sample_has_what_the_issue_asks_for():
    ledger = load_club(CLUB)
    j, m = ledger.journal, ledger.journal.matches
    assert len(j.players) >= 12
    assert len({(d.year, d.month) for d in map(date.fromordinal, m.dates)}) >= 3
    assert {1, 3, 5, 7} <= set(m.length)
    assert set(j.disciplines()) == {"long-nardy", "short-nardy"}
    assert sorted(t.standings is not None for t in j.tournaments.values()) == [False, True]
    # The correction: a voided match and its re-entry between the same players on the same day.
    (void,) = j.voids
    wrong = j.match_by_id(void.match)
    fixed = j.match_by_id(void.match + "-fixed")
    assert (fixed.date, set(fixed.players)) == (wrong.date, set(wrong.players))
    assert fixed.winner() != wrong.winner()
    engines = {r.name: (r.engine, getattr(r.params, "preset", None)) for r in ledger.config.ratings.values()}
    assert engines == {"fibs": ("fibs", None), "elo": ("fibs", "nardy-site"),
                       "tournament": ("placement", None), "chips": ("chips", None)}


def test_winter_cup_from_its_standings(cli_json):
    # Winter cup (long nardy, ends 16 Feb): N = 6, log2 6 = 2.5849625; Vagif 1st: 25.849625,
    # Gayane and Kamal share 3-4 (3.5): 7.385607. Halved once, on 1 March: 12.9248 and 3.6928.
    rows = cli_json("leaderboard", "--club", CLUB, "-r", "tournament", "-d", "long-nardy", "--as-of", "2025-03-31")
    got = {r["player"]: round(r["rating"], 4) for r in rows}
    assert (got["vagif"], got["gayane"], got["kamal"]) == (12.9248, 3.6928, 3.6928)


def test_spring_open_places_from_its_matches(cli_json):
    # Spring open (short nardy, 3 Swiss rounds, no standings), results in the journal:
    # Davit 3 wins; Bella, Kamal, Lusine 2 each (places 2-4 → 3); Aslan, Elena, Zaur 1 each
    # (5-7 → 6); Nina 0 (8th). N = 8, log2 8 = 3: 30, 10, 5 and 30/8 = 3.75; no halving by 31 March.
    rows = cli_json("leaderboard", "--club", CLUB, "-r", "tournament", "-d", "short-nardy", "--as-of", "2025-03-31")
    assert {r["player"]: r["rating"] for r in rows} == {
        "davit": 30.0, "bella": 10.0, "kamal": 10.0, "lusine": 10.0,
        "aslan": 5.0, "elena": 5.0, "zaur": 5.0, "nina": 3.75}


def test_add_match_shows_the_change_in_every_list(tmp_path, cli):
    club = tmp_path / "club"
    shutil.copytree(CLUB, club)
    result = cli("add-match", "aslan", "bella", "--winner", "aslan", "--length", "5",
                 "--date", "2025-04-03", "--discipline", "long-nardy", "--club", club)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for rating in ("fibs", "elo", "tournament", "chips"):
        assert any(line.strip().startswith(f"{rating} (long-nardy): aslan") for line in lines), result.stdout
    # Chips: no chips, no score, so the length moves: Aslan +5, Bella −0.8·5 = −4.
    chips = {line.split(":")[1].split()[0]: line for line in lines if line.strip().startswith("chips")}
    assert "+5.00" in chips["aslan"] and "-4.00" in chips["bella"]
    fibs = [line for line in lines if line.strip().startswith("fibs (long-nardy): aslan")][0]
    assert " +" in fibs  # the winner gains
    assert "not rated now: not a tournament match" in [
        line for line in lines if line.strip().startswith("tournament (long-nardy): aslan")][0]
    # The match was written to the journal.
    assert lines[0].startswith("added match ")
    match_id = lines[0].split()[2]
    assert f'id = "{match_id}"' in (club / "journal.toml").read_text(encoding="utf-8")


def test_correction_replays_the_fixed_result(cli_json):
    history = cli_json("history", "vagif", "--club", CLUB, "-r", "fibs")
    first = [(e["entry"], e["rated"], e["reason"]) for e in history[:2]]
    assert first == [("m010", False, "voided"), ("m010-fixed", True, None)]
    assert history[1]["result"] == 1.0 and history[1]["change"] > 0
