"""An mfsnb list after add-match of a single match entered after every other entry: its standings
are worked out from those kept before the match and what their replay reached
(engines/mfsnb/appended.py, replay/cachestandings.py after_appended_match), not replayed. What
add-match prints, the leaderboard after it (every format on the sample federation), and the
state kept for the next match are a full replay's, on random federation journals, match after match; a match the state cannot
take (a later period, a period's last day, a new player, an unrated or forfeited game, a
tournament's) is left to the replay, with the same output."""
from __future__ import annotations

import dataclasses
import json
import random
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from nardrating.engines.mfsnb import appended
from nardrating.engines.mfsnb.appended import MEMBER_FIELDS, RECORD_FIELDS, restored
from nardrating.engines.mfsnb.records import Member
from nardrating.periods import period_containing
from nardrating.replay import cachestandings
from nardrating.replay.cachedir import CacheFolder
from nardrating.replay.ledger import through_cache
from nardrating.replay.loader import load_club
from nardrating.reports.asof import last_entry_date

from .conftest import no_cache
from .test_kept_history import counting_runs, random_club

def boards(cli, club: Path, formats: tuple[str, ...] = ("table", "json")) -> list[str]:
    """The leaderboard, with and without --all (every format: test_cache_standings.py; the rendering is shared)."""
    out = []
    for fmt in formats:
        for extra in ([], ["--all"]):
            result = cli("leaderboard", "--club", club, "--format", fmt, *extra)
            assert result.exit_code == 0, result.output
            out.append(result.stdout.replace(str(club), "CLUB"))
    return out


def histories(cli, club: Path, players: list[str]) -> list[str]:
    out = []
    for player in players:
        for fmt in ("json",):   # (every format: test_kept_history.py; the rendering is shared)
            result = cli("history", player, "--club", club, "--format", fmt)
            assert result.exit_code == 0, result.output
            out.append(result.stdout.replace(str(club), "CLUB"))
    return out


def kept_state(club: Path, day: date) -> dict | None:
    """The state kept beside the list's standings as of `day` (of the snapshot now cached)."""
    ledger = load_club(club / "nardrating.toml")
    rating = ledger.rating("fed")
    from nardrating.engines.registry import engine_class

    key = cachestandings.list_key(ledger, engine_class("mfsnb"), rating, "long-nardy", day)
    name = cachestandings._state_name("fed", "long-nardy")
    with CacheFolder(ledger.config, create=False) as folder:
        if name not in folder.names():
            return None
    # (kept whole for this journal, or as a patch on the state kept for an earlier one)
    kept = through_cache(cachestandings._kept, ledger, rating, "long-nardy", key, True)
    return None if kept is None else kept[2]


def builder_of(club: Path, day: date):
    """A full replay's list builder as of `day`."""
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
        return ledger.run(ledger.rating("fed"), "long-nardy", day).book


def same_builders(kept, replayed) -> None:
    """Every member and open record alike (restored from the state kept, and a replay's own)."""
    assert kept.period == replayed.period
    assert list(kept.members.items()) == list(replayed.members.items())
    assert {p: (*(getattr(r, f) for f in RECORD_FIELDS), len(r.competitions)) for p, r in kept.records.items()} == \
        {p: (*(getattr(r, f) for f in RECORD_FIELDS), len(r.competitions)) for p, r in replayed.records.items()}


def test_the_kept_columns_are_a_members_fields_in_order():
    assert MEMBER_FIELDS == tuple(f.name for f in dataclasses.fields(Member))


@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 16))])
def test_standings_after_appended_matches_are_a_replays(cli, tmp_path, monkeypatch, seed):
    # The standings after each match kept as a patch on those before (replay/cachestandings.py
    # _save_delta) however many of the club's few players it changes.
    monkeypatch.setattr(cachestandings, "_PATCH_SHARE", 0)
    club = random_club(tmp_path / "club", seed)
    config = club / "nardrating.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("official_only = true", "official_only = false"),
                      encoding="utf-8")
    # An adjustment on the last day (its record open, with or without a game in the period).
    journal = club / "journal.toml"
    with no_cache():
        ledger = load_club(config)
        last = last_entry_date(ledger.journal)
    player = random.Random(seed).choice(sorted(ledger.journal.players))
    field = "set = 1640" if seed % 2 else "delta = -30"
    journal.write_text(journal.read_text(encoding="utf-8") + f'\n[[adjust]]\ndate = {last}\nplayer = "{player}"\n'
                       f'{field}\nreason = "commission"\n', encoding="utf-8")
    twin = tmp_path / "twin"   # the same journal, every command a full read
    shutil.copytree(club, twin)
    assert cli("recalc", "--club", club).exit_code == 0
    rng = random.Random(seed)
    with no_cache():
        ledger = load_club(config)
        members = sorted(ledger.run(ledger.rating("fed"), "long-nardy", last_entry_date(ledger.journal)).standings)
    answers: list[bool] = []
    worked_out = appended.after_match
    monkeypatch.setattr(appended, "after_match", lambda *args: (lambda r: answers.append(r is not None) or r)(
        worked_out(*args)))
    day = last_entry_date(ledger.journal)
    kept = carried = 0
    assert cli("history", members[0], "--club", club).exit_code == 0   # (every player's history kept)
    for k in range(6):   # (the sixth: a new player's match)
        step = rng.choice([0, 0, 1, 2, 3, 10, 45])
        day += timedelta(days=step)
        a, b = rng.sample(members, 2)
        if k == 5:   # (a player the list does not know yet: declared, then in a match)
            a = "newcomer"
            for folder in (club, twin):
                assert cli("add-player", "newcomer", "--club", folder).exit_code == 0
        flags = rng.choice([[], [], [], ["--unrated"], ["--forfeit"]])
        args = ("add-match", a, b, "--result", rng.choice(["1-0", "0-1", "1/2-1/2"]), "--date", day, "--yes", *flags)
        before = len(answers)
        added = cli(*args, "--club", club)
        with no_cache():
            replayed = cli(*args, "--club", twin)
        assert added.exit_code == replayed.exit_code == 0, (added.output, replayed.output)
        assert added.stdout.replace(str(club), "CLUB") == replayed.stdout.replace(str(twin), "CLUB")
        # Worked out only where the state can take the match: a rated game of two players the list
        # knows, in the state's period, before its last day (whose list is then published).
        period = period_containing(day, "month" if 'period = "month"' in config.read_text() else "quarter")
        if len(answers) > before and answers[-1]:
            assert not flags and a != "newcomer" and day < period.end and day - timedelta(days=step) >= period.start, \
                (k, day, flags, a)
        with no_cache():
            full = boards(cli, twin)
        assert [text.replace(str(twin), "CLUB") for text in full] == boards(cli, club)
        # The histories the match touches as a full read's; carried over the match where its
        # standings were worked out (the histories kept before it), not replayed.
        shown = sorted({a, b})
        with no_cache():
            full = histories(cli, twin, shown)
        with monkeypatch.context() as patch:
            replays = counting_runs(patch)
            assert [text.replace(str(twin), "CLUB") for text in full] == histories(cli, club, shown), (k, day)
        if len(answers) > before and answers[-1]:
            assert replays == [], (k, day)
            carried += 1
        # The state kept for the next match: a replay's builder, member for member.
        state = kept_state(club, day)
        if state is not None:
            replayed = builder_of(club, day)
            same_builders(restored(replayed.p, state), replayed)
            kept += 1
    assert True in answers and kept == 6 and carried == answers.count(True), (answers, kept, carried)


def test_many_journals_take_the_worked_out_path(cli, tmp_path, monkeypatch):
    # (the test above can fail only where the state is taken: it is, on the sample federation too)
    club = tmp_path / "fed"
    shutil.copytree(Path(__file__).parent.parent / "sample_ledgers" / "federation-2009", club)
    assert cli("recalc", "--club", club).exit_code == 0
    answers: list[bool] = []
    worked_out = appended.after_match
    monkeypatch.setattr(appended, "after_match", lambda *args: (lambda r: answers.append(r is not None) or r)(
        worked_out(*args)))
    for day in ("2011-06-20", "2011-06-21"):
        assert cli("add-match", "avakyan", "bagirov", "--winner", "bagirov", "--date", day, "--club", club).exit_code == 0
    assert answers == [True, True]
    board = boards(cli, club, ("table", "json", "csv", "md"))
    with no_cache():
        assert boards(cli, club, ("table", "json", "csv", "md")) == board


DEFAULT_FIDE = (2, "fide-2024")   # (a seed whose matches include rated ones told without a replay)


@pytest.mark.parametrize("seed, ruleset", [DEFAULT_FIDE, *(
    pytest.param(seed, ruleset, marks=pytest.mark.slow) for seed, ruleset in [(0, "seed"), (1, "fide-2024"), *(
        (seed, ruleset) for seed in range(2, 8) for ruleset in ("seed", "fide-2024", "fide-2025"))]
    if (seed, ruleset) != DEFAULT_FIDE)])
def test_fide_standings_after_appended_matches_are_a_replays(cli, tmp_path, monkeypatch, seed, ruleset):
    # A fide match waits for its list: the standings as of its day are those before it, its players'
    # last game's date moved (engines/fide/appended.py); what a replay as of that day shows.
    from nardrating.engines.fide import appended as fide_appended

    from .test_fide_kept_history import random_club as random_fide_club

    # The standings after each match kept as a patch on those before (replay/cachestandings.py
    # _save_delta) however many of the club's 16 players it changes.
    monkeypatch.setattr(cachestandings, "_PATCH_SHARE", 0)
    club = random_fide_club(tmp_path / "club", seed, ruleset)
    twin = tmp_path / "twin"
    shutil.copytree(club, twin)
    assert cli("recalc", "--club", club).exit_code == 0
    rng = random.Random(seed)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
        day = last_entry_date(ledger.journal)
        players = sorted(ledger.run(ledger.rating("fide"), "chess", day).standings)
    answers: list[bool] = []
    worked_out = fide_appended.after_match
    monkeypatch.setattr(fide_appended, "after_match", lambda *args: (lambda r: answers.append(r is not None) or r)(
        worked_out(*args)))
    previews: list[bool] = []   # (the match's change on its list told without a replay: preview.py)
    preview = fide_appended.waiting_lines
    monkeypatch.setattr(fide_appended, "waiting_lines", lambda *args: (lambda r: previews.append(r is not None) or r)(
        preview(*args)))
    carries: list[bool] = []   # (a player's kept items carried over the match, or left to a replay)
    carry = fide_appended.carried_items
    monkeypatch.setattr(fide_appended, "carried_items", lambda *args: (lambda r: carries.append(r is not None) or r)(
        carry(*args)))
    assert cli("history", players[0], "--club", club).exit_code == 0   # (every player's history kept)
    carried = 0
    for k in range(6):
        day += timedelta(days=rng.choice([0, 0, 1, 3, 12, 40]))
        a, b = rng.sample(players, 2)
        flags = rng.choice([[], [], [], ["--unrated"], ["--forfeit"]])
        args = ("add-match", a, b, "--result", rng.choice(["1-0", "0-1", "1/2-1/2"]), "--date", day, "--yes", *flags)
        before = len(carries)
        added = cli(*args, "--club", club)
        with no_cache():
            replayed = cli(*args, "--club", twin)
        assert added.exit_code == replayed.exit_code == 0, (added.output, replayed.output)
        assert added.stdout.replace(str(club), "CLUB") == replayed.stdout.replace(str(twin), "CLUB")
        with no_cache():
            full = boards(cli, twin)
        assert [text.replace(str(twin), "CLUB") for text in full] == boards(cli, club), (k, day, flags)
        # The match's players' histories as a full read's; carried over the match (engines/fide/appended.py
        # carried_items), not replayed, where a replay would keep its line last of its day.
        shown = sorted({a, b})
        with no_cache():
            full = histories(cli, twin, shown)
        with monkeypatch.context() as patch:
            replays = counting_runs(patch)
            assert [text.replace(str(twin), "CLUB") for text in full] == histories(cli, club, shown), (k, day, flags)
        if carries[before:] == [True, True]:
            assert replays == [], (k, day)
            carried += 1
    assert True in answers, answers
    if (seed, ruleset) == DEFAULT_FIDE:   # (on the default seed, what add-match printed and the histories carried were told, not replayed)
        assert carried and True in previews, (answers, carries, previews)


# novik's lines after his games of 2025-03-20 (in the April list's period, so they wait for it). A
# replay notes the matches it does not rate first, then those that wait, then what adjustments and
# lists make; a line carried over add-match goes last. So it is carried only where it is last of its
# day in a replay too, and else left to one: (adjusted on, writes, what is carried, novik's last lines).
CARRIES = {
    "adjusted the day before": ("2025-03-19", [("novik", "zhukov", "0-1")], [True, True],
                                [("2025-03-19", "adjust", None), ("2025-03-20", "match", "m0046")]),
    "adjusted that day": ("2025-03-20", [("novik", "zhukov", "0-1")], [False],
                          [("2025-03-20", "match", "m0046"), ("2025-03-20", "adjust", None)]),
    "a waiting game, then one not rated": ("2025-03-19", [("novik", "belov", "1-0"), ("novik", "zhukov", "0-1", "--unrated")],
                                          [True, True, False],
                                          [("2025-03-20", "match", "m0047"), ("2025-03-20", "match", "m0046")]),
}


@pytest.mark.parametrize("case", CARRIES)
def test_a_fide_match_is_carried_only_where_a_replay_keeps_its_line_last(cli, tmp_path, monkeypatch, case):
    from nardrating.engines.fide import appended as fide_appended

    adjusted, games, expected, last_lines = CARRIES[case]
    club, twin = tmp_path / "club", tmp_path / "twin"
    for folder in (club, twin):
        shutil.copytree(Path(__file__).parent.parent / "sample_ledgers" / "fide-club", folder)
        with open(folder / "journal.toml", "a", encoding="utf-8") as journal:
            journal.write(f'\n[[adjust]]\ndate = {adjusted}\nplayer = "novik"\ndelta = 5\nreason = "commission"\n')
    carries: list[bool] = []
    carry = fide_appended.carried_items
    monkeypatch.setattr(fide_appended, "carried_items", lambda *args: (lambda r: carries.append(r is not None) or r)(
        carry(*args)))
    assert cli("recalc", "--club", club).exit_code == 0 and cli("history", "novik", "--club", club).exit_code == 0
    for a, b, result, *flags in games:
        args = ("add-match", a, b, "--date", "2025-03-20", "--result", result, *flags)
        assert cli(*args, "--club", club).exit_code == 0
        with no_cache():
            assert cli(*args, "--club", twin).exit_code == 0
    with no_cache():
        full = histories(cli, twin, ["novik", "zhukov"])
    assert [text.replace(str(twin), "CLUB") for text in full] == histories(cli, club, ["novik", "zhukov"])
    assert carries == expected
    assert [(line["date"], line["kind"], line["entry"]) for line in json.loads(full[0])[-2:]] == last_lines


@pytest.mark.parametrize("damage", ["flip", *(pytest.param(damage, marks=pytest.mark.slow) for damage in ("float base", "short column")),
                                    "other period"])
def test_a_damaged_or_foreign_state_is_not_gone_on_from(cli, tmp_path, monkeypatch, damage):
    # The state is read only whole and of its types (its hash checked, then every column); a state
    # that reads but is not this list's (another period's) is not taken either: the list is replayed.
    import hashlib

    club = tmp_path / "fed"
    shutil.copytree(Path(__file__).parent.parent / "sample_ledgers" / "federation-2009", club)
    twin = tmp_path / "twin"
    shutil.copytree(club, twin)
    assert cli("recalc", "--club", club).exit_code == 0
    ledger = load_club(club / "nardrating.toml")
    with CacheFolder(ledger.config, create=False) as folder:
        for name in [n for n in folder.names() if n.startswith("standings-state-")]:
            data, _ = folder.read(name)
            kept = json.loads(data[32:])
            if damage == "flip":
                body = data[32:].replace(b'"status"', b'"statuz"')
                folder.write(name, data[:32] + body)
                continue
            players = kept["state"]["players"]
            if damage == "float base" and "avakyan" in players:   # (a player of the match: their pending shows it)
                kept["state"]["members"]["base"][players.index("avakyan")] += 0.5
            elif damage == "short column":
                kept["state"]["members"]["games"].pop()
            else:
                kept["state"]["period"] = [p - 400 for p in kept["state"]["period"]]
            body = json.dumps(kept, ensure_ascii=False).encode("utf-8")
            folder.write(name, hashlib.sha256(body).digest() + body)
    answers: list[bool] = []
    worked_out = appended.after_match
    monkeypatch.setattr(appended, "after_match", lambda *args: (lambda r: answers.append(r is not None) or r)(
        worked_out(*args)))
    args = ("add-match", "avakyan", "bagirov", "--winner", "bagirov", "--date", "2011-06-20")
    added = cli(*args, "--club", club)
    with no_cache():
        replayed = cli(*args, "--club", twin)
    assert added.exit_code == replayed.exit_code == 0
    assert added.stdout == replayed.stdout
    assert True not in answers, answers
    with no_cache():
        full = boards(cli, twin, ("table", "json", "csv", "md"))
    assert [text.replace(str(twin), "CLUB") for text in full] == \
        [text.replace(str(club), "CLUB") for text in boards(cli, club, ("table", "json", "csv", "md"))]


@pytest.mark.parametrize("damage", ["float rating", "short column", "a column more"])
def test_a_mistyped_fide_state_is_not_gone_on_from(cli, tmp_path, monkeypatch, damage):
    # A fide state that reads (its hash right) but is not one the replay makes is not taken for the
    # preview: add-match replays the list for the change it shows, which is the replay's.
    import hashlib

    from nardrating.engines.fide import appended as fide_appended

    club, twin = tmp_path / "club", tmp_path / "twin"
    for folder in (club, twin):
        shutil.copytree(Path(__file__).parent.parent / "sample_ledgers" / "fide-club", folder)
    assert cli("recalc", "--club", club).exit_code == 0
    ledger = load_club(club / "nardrating.toml")
    with CacheFolder(ledger.config, create=False) as folder:
        [name] = [n for n in folder.names() if n.startswith("standings-state-")]
        data, _ = folder.read(name)
        kept = json.loads(data[32:])
        columns = kept["state"]["columns"]
        if damage == "float rating":
            columns["rating"][kept["state"]["players"].index("novik")] += 0.5
        elif damage == "short column":
            columns["singles"].pop()
        else:
            columns["age"] = [0] * len(kept["state"]["players"])
        body = json.dumps(kept, ensure_ascii=False).encode("utf-8")
        folder.write(name, hashlib.sha256(body).digest() + body)
    previews: list[bool] = []
    preview = fide_appended.waiting_lines
    monkeypatch.setattr(fide_appended, "waiting_lines", lambda *args: previews.append(True) or preview(*args))
    args = ("add-match", "novik", "belov", "--result", "1-0", "--date", "2025-03-10")
    added = cli(*args, "--club", club)
    with no_cache():
        replayed = cli(*args, "--club", twin)
    assert added.exit_code == replayed.exit_code == 0
    assert added.stdout.replace(str(club), "CLUB") == replayed.stdout.replace(str(twin), "CLUB")
    # By hand (seed 002, K 20): D = 2199 − 2241 = −42, table b's P_D for 40–47 below: 0.44; the win
    # gains 20 × (1 − 0.44) = +11.20.
    assert "novik 2199 +11.20 → 2210.20" in added.stdout
    assert previews == []
