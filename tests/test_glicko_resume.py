"""Games appended to a kept Glicko replay's last period: their players rated again over their games
of the period (engines/glickoresume.py), every other number the kept replay's. On random clubs
(unrated and forfeited games, adjustments, players new to the period or to the list, monthly,
weekly and daily periods), after each append every read through the cache equals a full read of
the journal, for Glicko and Glicko-2; the appends rated in place and those left to the replay are
both seen."""
import random
from datetime import date, timedelta

import pytest

from nardrating.journal.writer import append_block, entry_block
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache
from .test_cache_glicko import CONFIG as GLICKO_CONFIG, outputs

CONFIG = GLICKO_CONFIG + 'period = "{period}"\n'
PLAYERS = [f"p{k}" for k in range(10)]   # p8 and p9 play only in appended games: new to the list


def journal(rng: random.Random, games: int) -> tuple[str, date]:
    text = "".join(f'[[player]]\nid = "{p}"\n\n' for p in PLAYERS)
    day = date(2009, 1, 1)
    for k in range(games):
        day += timedelta(days=rng.choice([0, 0, 1, 2]))
        a, b = rng.sample(PLAYERS[:8], 2)
        extra = rng.choice(["", "", "", "", "", "", "", "", "rated = false\n", "forfeit = true\n"])
        outcome = rng.choice([f'winner = "{a}"', f'winner = "{b}"', 'result = "1/2-1/2"'])
        text += f'[[match]]\nid = "m{k}"\ndate = {day}\nplayers = ["{a}", "{b}"]\n{outcome}\n{extra}\n'
        if k == games // 3:
            text += f'[[adjust]]\ndate = {day}\nplayer = "{a}"\nset = 1620\nrd = 90\nreason = "commission"\n\n'
    return text, day


def kept_state(ledger) -> str:
    """Everything a Glicko replay keeps (what the cache stores and a resume goes on from), exactly."""
    kept = ledger.run("g", "chess").replayed
    index, a, b, fields = kept.records.columns
    return repr([kept.r, kept.phi, kept.sigma, kept.last, kept.games, kept.played, kept.order, kept.event_order,
                 [list(c) for c in (index, a, b, *fields)], kept.records.reasons, kept.side,
                 [list(c) for c in (kept.periods.phi_before, kept.periods.phi, kept.periods.volatility,
                                    kept.periods.last_row)], vars(kept.last_period)])


# One journal of each engine by default (a month of glicko's, a day of glicko2's); all eight in the slow run.
@pytest.mark.parametrize("engine, seed, period", [
    ("glicko", 1, "month"), ("glicko2", 3, "day"),
    *(pytest.param(engine, seed, period, marks=pytest.mark.slow) for engine, seed, period in [
        ("glicko", 2, "week"), ("glicko", 3, "day"), ("glicko", 4, "month"),
        ("glicko2", 1, "month"), ("glicko2", 2, "week"), ("glicko2", 4, "month")])])
def test_appended_games_read_through_the_cache_as_a_full_read(cli, tmp_path, monkeypatch, engine, seed, period):
    from nardrating.engines import glickoresume

    rng = random.Random(seed)
    text, day = journal(rng, 60)
    club = make_club(tmp_path / "club", text, CONFIG.format(engine=engine, period=period))
    assert cli("recalc", "--club", club).exit_code == 0
    in_place = []
    rerated = glickoresume.resumed_in_place
    monkeypatch.setattr(glickoresume, "resumed_in_place",
                        lambda *args: (lambda state: (in_place.append(state is not None), state)[1])(rerated(*args)))
    reads = [("leaderboard",), ("players",), *[("history", p) for p in ("p0", "p3", "p8")]]
    # Games on the last day (in its period, after every game), one of them of p8 and p9, who have
    # not played before; two at once, the second a day later (written to the file as an editor
    # would: one resume reads both); one a day later (the next period of daily ones); an unrated or
    # forfeited one, and another after it.
    plan = [(0, PLAYERS[:8], []), (0, PLAYERS[:8], []), (0, PLAYERS[8:], []), (0, PLAYERS[:8], ["two"]),
            (1, PLAYERS[:8], []), (0, PLAYERS[:8], rng.choice([["--unrated"], ["--forfeit"]])), (0, PLAYERS[:8], [])]
    for step, (later, who, flags) in enumerate(plan):
        day += timedelta(days=later)
        a, b = rng.sample(who, 2)
        args = ["--winner", a] if flags or rng.random() < 0.7 else ["--result", "1/2-1/2"]
        if flags == ["two"]:
            for k, (x, y) in enumerate([(a, b), tuple(rng.sample(who, 2))]):
                append_block(club / "journal.toml", entry_block("match", {
                    "id": f"two{k}", "date": day + timedelta(days=k), "players": [x, y], "winner": y}))
            day += timedelta(days=1)
        else:
            added = cli("add-match", a, b, *args, *flags, "--date", day.isoformat(), "--club", club)
            assert added.exit_code == 0, added.output
        resumed = outputs(cli, club, reads)
        with no_cache():
            assert outputs(cli, club, reads) == resumed, (step, a, b, args, day)
        # and the replay's state as the cache keeps it, number for number: a full replay's
        assert kept_state(load_club(club)) == kept_state(load_club(club, use_cache=False)), (step, a, b, args, day)
    assert True in in_place   # some appends rated in place (and the rest by the replay)


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_an_unrated_game_of_an_appended_player_in_the_period_is_left_to_the_replay(cli, tmp_path, monkeypatch, engine):
    # p0's unrated game of the 5th holds p0's rating after the rated game of the 3rd; with a game of
    # the 9th appended, the period's rated games of p0 change, and so does what the unrated one holds:
    # the replay writes it (no rating in place), and the reads equal a full read.
    from nardrating.engines import glickoresume

    text = "".join(f'[[player]]\nid = "{p}"\n\n' for p in PLAYERS[:3]) + \
        '[[match]]\nid = "m1"\ndate = 2009-01-03\nplayers = ["p0", "p1"]\nwinner = "p0"\n\n' \
        '[[match]]\nid = "m2"\ndate = 2009-01-05\nplayers = ["p0", "p2"]\nwinner = "p2"\nrated = false\n\n'
    club = make_club(tmp_path / "club", text, CONFIG.format(engine=engine, period="month"))
    assert cli("recalc", "--club", club).exit_code == 0
    in_place = []
    rerated = glickoresume.resumed_in_place
    monkeypatch.setattr(glickoresume, "resumed_in_place",
                        lambda *args: (lambda state: (in_place.append(state is not None), state)[1])(rerated(*args)))
    added = cli("add-match", "p0", "p2", "--winner", "p0", "--date", "2009-01-09", "--club", club)
    assert added.exit_code == 0, added.output
    reads = [("leaderboard",), *[("history", p) for p in PLAYERS[:3]]]
    resumed = outputs(cli, club, reads)
    with no_cache():
        assert outputs(cli, club, reads) == resumed
    assert in_place and not any(in_place)
