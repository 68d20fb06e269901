"""The placement engine of seed 001: 10·log2(N)/M per tournament, halved on every month's first day."""
import pytest

from nardrating.config import load_config
from nardrating.errors import LedgerError
from nardrating.replay.loader import load_club

from .conftest import make_club

CONFIG = """\
[club]
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.tournament]
engine = "placement"
"""

PLAYERS = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("a", "b", "c", "d", "e"))


def tournament(tid, start, end, standings=None):
    text = f'[[tournament]]\nid = "{tid}"\nsystem = "round-robin"\nstart = {start}\nend = {end}\n'
    if standings:
        text += "standings = [" + ", ".join(f'{{ player = "{p}", place = {place!r} }}'.replace("'", '"')
                                              for p, place in standings) + "]\n"
    return text + "\n"


def match(mid, day, a, b, result, tid=None, **extra):
    text = f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nresult = "{result}"\n'
    if tid:
        text += f'tournament = "{tid}"\n'
    text += "".join(f"{k} = {v}\n" for k, v in extra.items())
    return text + "\n"


def run(tmp_path, journal, as_of=None):
    return load_club(make_club(tmp_path, PLAYERS + journal, CONFIG)).run(as_of=as_of)


FOUR = tournament("cup", "2025-01-18", "2025-01-20", [("a", 1), ("b", 2), ("c", "3-4"), ("d", "3-4")])


def ratings(result):
    return {p: round(s.rating, 4) for p, s in result.standings.items()}


def test_places_from_standings_with_a_shared_place(tmp_path):
    # N = 4, log2(4) = 2: place 1 → 10·2/1 = 20, place 2 → 10, shared "3-4" → 20/3.5 = 5.7143.
    from datetime import date

    result = run(tmp_path, FOUR, as_of=date(2025, 1, 31))
    assert ratings(result) == {"a": 20.0, "b": 10.0, "c": 5.7143, "d": 5.7143}
    event = result.history("c")[0]
    assert (event.kind, event.entry, event.extra["place"], event.extra["participants"]) == ("tournament", "cup", 3.5, 4)


def test_a_tournaments_places_are_one_item_for_all_its_players(tmp_path):
    # One kept item stands for the cup in all four histories (not an object per player and place);
    # each player's line is their own: a 0 → 20, b 0 → 10, c and d 0 → 20/3.5 (as above). A second
    # cup in February, after the halving of 1 February, of two players: a and b play it from 10 and 5.
    from datetime import date

    second = tournament("cup2", "2025-02-10", "2025-02-12", [("a", 1), ("b", 2)])
    result = run(tmp_path, FOUR + second, as_of=date(2025, 2, 28))
    kept = result.events._kept   # (HistoryOnRead: what the replay kept, before any line is made)
    assert len({id(kept[p][0]) for p in "abcd"}) == 1
    lines = {p: result.history(p)[0] for p in "abcd"}
    assert [(e.before, e.change, e.after) for e in lines.values()] == [
        (0.0, 20.0, 20.0), (0.0, 10.0, 10.0), (0.0, 20 / 3.5, 20 / 3.5), (0.0, 20 / 3.5, 20 / 3.5)]
    # N = 2: log2(2) = 1, place 1 → 10; a: 20 halved → 10, then 10 + 10 = 20; b: 5 + 5 = 10.
    a_cup2 = [e for e in result.history("a") if e.entry == "cup2"][0]
    b_cup2 = [e for e in result.history("b") if e.entry == "cup2"][0]
    assert (a_cup2.before, a_cup2.change, a_cup2.after) == (10.0, 10.0, 20.0)
    assert (b_cup2.before, b_cup2.change, b_cup2.after) == (5.0, 5.0, 10.0)


@pytest.mark.parametrize("as_of, winner", [
    ("2025-01-20", 20.0),   # the tournament's last day
    ("2025-01-31", 20.0),   # no month boundary yet
    ("2025-02-01", 10.0),   # halved on 1 February
    ("2025-03-15", 5.0),    # and on 1 March
])
def test_monthly_halving_up_to_as_of(tmp_path, as_of, winner):
    from datetime import date

    result = run(tmp_path, FOUR, as_of=date.fromisoformat(as_of))
    assert result.standings["a"].rating == winner


def test_halving_comes_before_a_tournament_ending_on_the_first(tmp_path):
    # a: 20 from the January cup; halved on 1 Feb (10) and 1 Mar (5), then the March cup
    # (ends 1 March, N = 2; a second: 10·log2(2)/2 = 5) → 10.
    # b: 10 → 5 (1 Feb) → 2.5 (1 Mar), then first in March: + 10·1/1 = 12.5.
    from datetime import date

    journal = FOUR + tournament("march", "2025-02-28", "2025-03-01", [("b", 1), ("a", 2)])
    result = run(tmp_path, journal, as_of=date(2025, 3, 1))
    assert ratings(result)["a"] == 10.0 and ratings(result)["b"] == 12.5
    kinds = [(e.kind, e.date.isoformat(), e.after) for e in result.history("a")]
    assert kinds == [("tournament", "2025-01-20", 20.0), ("decay", "2025-02-01", 10.0),
                     ("decay", "2025-03-01", 5.0), ("tournament", "2025-03-01", 10.0)]


def test_places_from_matches_when_no_standings(tmp_path):
    # Round robin of four, no standings: a beats b, c, d (3 points); b–c drawn; b and c beat d
    # (1.5 each); d 0. Places: a 1, b and c share 2-3 (2.5), d 4. N = 4, log2 4 = 2:
    # a 20, b and c 20/2.5 = 8, d 20/4 = 5. A voided match and an unrated one do not count:
    # the voided "d beats a" would otherwise lift d level with b and c.
    t = "rr"
    journal = (tournament(t, "2025-01-10", "2025-01-11")
               + match("m1", "2025-01-10", "a", "b", "1-0", t) + match("m2", "2025-01-10", "a", "c", "1-0", t)
               + match("m3", "2025-01-10", "a", "d", "1-0", t) + match("m4", "2025-01-11", "b", "c", "1/2-1/2", t)
               + match("m5", "2025-01-11", "b", "d", "1-0", t) + match("m6", "2025-01-11", "c", "d", "1-0", t)
               + match("m7", "2025-01-11", "d", "a", "1-0", t)
               + match("m8", "2025-01-11", "d", "b", "1-0", t, rated="false")
               + '[[void]]\nmatch = "m7"\ndate = 2025-01-12\nreason = "entered twice"\n\n')
    result = run(tmp_path, journal)
    assert ratings(result) == {"a": 20.0, "b": 8.0, "c": 8.0, "d": 5.0}
    assert result.history("b")[-1].extra["places_from"] == "matches"


def test_a_tournament_whose_every_match_is_voided_places_nobody(tmp_path):
    # No standings and no match that counts: N = 0 and no place, so nothing is awarded (log2(0) is
    # no number); the voided match is still in both histories, moving nothing; the cup of the
    # same month places a (20) as ever.
    t = "empty"
    journal = (FOUR + tournament(t, "2025-01-10", "2025-01-11") + match("m1", "2025-01-10", "a", "e", "1-0", t)
               + '[[void]]\nmatch = "m1"\ndate = 2025-01-12\nreason = "entered twice"\n\n')
    result = run(tmp_path, journal)
    assert ratings(result) == {"a": 20.0, "e": 0.0, "b": 10.0, "c": 5.7143, "d": 5.7143}
    assert (result.standings["e"].games, result.standings["e"].status) == (0, "no tournament")
    assert [(e.kind, e.entry, e.reason) for e in result.history("e")] == [("match", "m1", "voided")]


def test_a_forfeit_counts_for_places_and_a_game_marked_unrated_does_not(tmp_path):
    # Three players, no standings: a beats b; b wins against c by forfeit (a result of the
    # tournament: it counts); c's forfeit win against a is marked unrated (it does not).
    # Points a 1, b 1, c 0: a and b share 1-2 (1.5), c 3rd. N = 3, log2 3 = 1.5849625:
    # a, b 15.849625/1.5 = 10.5664; c 15.849625/3 = 5.2832. (Were the forfeit left out: a 15.8496,
    # b and c 6.3399; were the unrated one counted: all level, 7.9248 each.)
    t = "three"
    journal = (tournament(t, "2025-01-10", "2025-01-11")
               + match("m1", "2025-01-10", "a", "b", "1-0", t)
               + match("m2", "2025-01-10", "b", "c", "1-0", t, forfeit="true")
               + match("m3", "2025-01-11", "c", "a", "1-0", t, forfeit="true", rated="false"))
    result = run(tmp_path, journal)
    assert ratings(result) == {"a": 10.5664, "b": 10.5664, "c": 5.2832}
    assert [e.reason for e in result.history("c") if e.kind == "match"] == ["forfeit", "forfeit"]


def test_every_line_of_a_history_with_matches_between_tournaments_and_halvings(tmp_path):
    # a plays e on 10 January (rating 0, moves nothing), wins the cup (ends 20 January: N = 4,
    # 10·2/1 = 20), plays e again on 25 January (20, moves nothing); halved on 1 February
    # (20 → 10, change −10) and 1 March (10 → 5, change −5); plays e on 3 March (5, nothing).
    journal = (FOUR + match("x1", "2025-01-10", "a", "e", "1-0") + match("x2", "2025-01-25", "e", "a", "0-1")
               + match("x3", "2025-03-03", "a", "e", "1/2-1/2"))
    lines = [(e.date.isoformat(), e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after)
             for e in run(tmp_path, journal).history("a")]
    assert lines == [
        ("2025-01-10", "x1", "match", "e", 1.0, 0.0, 0.0, 0.0),
        ("2025-01-20", "cup", "tournament", None, None, 0.0, 20.0, 20.0),
        ("2025-01-25", "x2", "match", "e", 1.0, 20.0, 0.0, 20.0),
        ("2025-02-01", None, "decay", None, None, 20.0, -10.0, 10.0),
        ("2025-03-01", None, "decay", None, None, 10.0, -5.0, 5.0),
        ("2025-03-03", "x3", "match", "e", 0.5, 5.0, 0.0, 5.0)]


def test_every_line_with_an_adjustment_and_a_rating_of_zero_that_no_halving_touches(tmp_path):
    # e plays a on 10 January (0, moves nothing); no halving on 1 February (e's rating is 0); on
    # 15 February [[adjust]] delta 8: 0 → 8; halved on 1 March (8 → 4, −4) and 1 April (4 → 2, −2),
    # the last month the as-of date (10 April) reaches.
    # b: the cup, 0 → 10 (place 2 of 4: 10·2/2); halved on 1 February (10 → 5, −5); on 20 February
    # [[adjust]] set 0: 5 → 0 (−5); a rating of 0 is not halved: no line on 1 March or 1 April.
    from datetime import date

    adjusts = ('[[adjust]]\ndate = 2025-02-15\nplayer = "e"\nrating = "tournament"\ndelta = 8\nreason = "late entry"\n\n'
               '[[adjust]]\ndate = 2025-02-20\nplayer = "b"\nrating = "tournament"\nset = 0\n\n')
    result = run(tmp_path, FOUR + match("x1", "2025-01-10", "e", "a", "0-1") + adjusts, as_of=date(2025, 4, 10))

    def lines(player):
        return [(e.date.isoformat(), e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after, e.reason)
                for e in result.history(player)]

    halving = "monthly halving"
    assert lines("e") == [
        ("2025-01-10", "x1", "match", "a", 0.0, 0.0, 0.0, 0.0, "not a tournament match: only tournament places count"),
        ("2025-02-15", None, "adjust", None, None, 0.0, 8.0, 8.0, "late entry"),
        ("2025-03-01", None, "decay", None, None, 8.0, -4.0, 4.0, halving),
        ("2025-04-01", None, "decay", None, None, 4.0, -2.0, 2.0, halving)]
    assert lines("b") == [
        ("2025-01-20", "cup", "tournament", None, None, 0.0, 10.0, 10.0, None),
        ("2025-02-01", None, "decay", None, None, 10.0, -5.0, 5.0, halving),
        ("2025-02-20", None, "adjust", None, None, 5.0, -5.0, 0.0, "")]
    # a: the match (0), the cup (0 → 20), then halved three times: 10, 5, 2.5.
    assert [(e.kind, e.after) for e in result.history("a")] == [
        ("match", 0.0), ("tournament", 20.0), ("decay", 10.0), ("decay", 5.0), ("decay", 2.5)]
    assert (result.standings["e"].rating, result.standings["b"].rating, result.standings["a"].rating) == (2.0, 0, 2.5)
    # The standings list the players in the order of their first line: e and a (10 January),
    # then b, c and d (the cup's places, in its standings' order).
    assert list(result.standings) == ["e", "a", "b", "c", "d"]


def test_halving_up_to_the_last_entry_without_as_of(tmp_path):
    # history runs without --as-of: the halvings go up to the last entry (e's match on 3 March).
    journal = FOUR + match("x", "2025-03-03", "a", "e", "1-0")
    result = run(tmp_path, journal)
    assert result.standings["a"].rating == 5.0          # 20 → 10 (1 Feb) → 5 (1 Mar)
    assert result.standings["e"].status == "no tournament"
    assert result.hidden_statuses == frozenset({"no tournament"})
    # The match is in a's history, moving nothing, with the reason.
    event = result.history("a")[-1]
    assert (event.entry, event.rated, event.before, event.change) == ("x", False, 5.0, 0.0)
    assert "only tournament places count" in event.reason


def test_leaderboard_json_keys_and_hidden_players(tmp_path, cli_json):
    club = make_club(tmp_path, PLAYERS + FOUR + match("x", "2025-01-05", "a", "e", "1-0"), CONFIG)
    rows = cli_json("leaderboard", "--club", club, "--as-of", "2025-02-10")
    assert [(r["player"], r["rating"]) for r in rows][:2] == [("a", 10.0), ("b", 5.0)]
    assert set(rows[0]) == {"rank", "player", "name", "rating", "games", "status", "last_played"}
    assert "e" not in [r["player"] for r in rows]
    assert "e" in [r["player"] for r in cli_json("leaderboard", "--club", club, "--as-of", "2025-02-10", "--all")]
    history = cli_json("history", "a", "--club", club, "-r", "tournament")
    assert [e["kind"] for e in history] == ["match", "tournament"]


def test_bad_params(tmp_path):
    club = make_club(tmp_path, "", CONFIG + "monthly_factor = 2\n")
    with pytest.raises(LedgerError) as caught:
        load_config(club / "nardrating.toml")
    assert "nardrating.toml:7: [rating.tournament] monthly_factor:" in str(caught.value)
