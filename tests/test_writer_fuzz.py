"""Every writer through the entry model: exit 0 leaves a journal a full read accepts, a refusal leaves
it byte for byte, never a traceback; and what add-match prints is what the journal then shows."""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardrating.replay.loader import load_club

from .conftest import ELO_CONFIG, make_club

JOURNAL = '''# a club in use
[[player]]
id = "anna"
name = "Анна"

[[player]]
id = "boris"

[[tournament]]
id = "cup-1"
name = "Кубок"
system = "swiss"
start = 2009-02-01
end = 2009-02-03

[[match]]
id = "m0001"
date = 2009-01-15
players = ["anna", "boris"]
winner = "anna"
'''


@pytest.fixture
def club(tmp_path):
    return make_club(tmp_path / "club", JOURNAL)


def journal_bytes(club: Path) -> bytes:
    return (club / "journal.toml").read_bytes()


def run_and_judge(cli, club: Path, args: list[str]):
    """Run a writer; exit 0 ⇒ a full read without the cache passes check; else nothing changed."""
    before = journal_bytes(club)
    result = cli(*args, "--club", club)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.output, args
    assert "failed unexpectedly" not in result.output, (args, result.output)  # the error boundary's word for a bug
    if result.exit_code == 0:
        load_club(club, use_cache=False)  # raises LedgerError if a full read refuses the journal
        checked = cli("check", "--club", club, env={"NARDRATING_NO_CACHE": "1"})
        assert checked.exit_code == 0, (args, checked.output)
    else:
        assert journal_bytes(club) == before, args
    return result


@pytest.mark.parametrize("args, message", [
    (["add-match", "anna", "boris", "--winner", "anna", "--chips", "nan"], "--chips: nan is not a number of chips"),
    (["add-match", "anna", "boris", "--winner", "anna", "--chips", "inf"], "--chips: inf is not a number of chips"),
    (["add-match", "anna", "boris", "--winner", "anna", "--chips", "-5"], "--chips: -5.0 is not a number of chips"),
    (["add-match", "anna", "boris", "--winner", "anna", "--length", "5000"],
     "--length: 5000 is not a match length; write a whole number of points from 1 to 1000"),
    (["add-match", "anna", "boris", "--winner", "anna", "--length", "100000000000000000000"],
     "--length: 100000000000000000000 is not a match length"),
    (["add-match", "anna", "boris", "--winner", "anna", "--note", "\x1b[2Jgone"], "--note: character 1 is a control"),
    (["add-match", "anna", "boris", "--winner", "anna", "--score", "99999-0"], "--score: 99999 is not a score"),
    (["add-match", "anna", "boris", "--winner", "anna", "--discipline", "long nardy"],
     "--discipline: 'long nardy' is not an id"),
    (["add-match", "anna", "x²", "--winner", "anna"], "B: 'x²' is not an id"),
    (["add-player", "x" * 150], "ID: 'xxxxx"),
    (["add-player", "vera\n"], "ID: 'vera\\n' is not an id: character 5, '\\n' (U+000A), is not allowed"),
    (["add-player", "x²"], "ID: 'x²' is not an id: character 2, '²' (U+00B2), is not allowed"),
    (["add-player", "vera", "--name", "Вера\x9b31m"], "--name: character 5 is a control character, '\\x9b'"),
    (["add-player", "vera", "--alias", "a" * 201], "--alias: it is 201 characters long, more than 200"),
    (["add-tournament", "cup²", "--name", "x", "--system", "swiss", "--start", "2009-01-01", "--end", "2009-01-02"],
     "ID: 'cup²' is not an id"),
    (["add-tournament", "cup-2", "--name", "\x07", "--system", "swiss", "--start", "2009-01-01",
      "--end", "2009-01-02"], "--name: character 1 is a control character"),
    (["void", "m0001", "--reason", "\x00"], "--reason: character 1 is a control character"),
    (["void", "m0001", "--reason", "   "], "--reason: '   ' is not a reason; say why"),
    (["void", "m0001\n", "--reason", "typo"], "MATCH_ID: 'm0001\\n' is not an id"),
    (["add-match", "anna", "boris", "--winner", "anna", "--score", "1" * 5000 + "-1"], "--score: '111"),
    (["add-match", "anna", "boris", "--result", "1" * 5000], "--result '111"),
])
def test_writers_refuse_what_a_full_read_would_refuse(cli, club, args, message):
    # Each of these exited 0 on the old writers (or ended in a traceback: --length 10^20) and left
    # a journal every later command rejected.
    result = run_and_judge(cli, club, args)
    assert result.exit_code == 1, (args, result.output)
    assert message in result.stderr, (args, result.stderr)
    assert "Input should" not in result.stderr


def test_dates_out_of_range_are_refused_on_the_command_line_and_by_the_writers(cli, club):
    from datetime import date

    from nardrating.journal import actions
    from nardrating.errors import LedgerError

    for args in (["add-match", "anna", "boris", "--winner", "anna", "--date", "3000-01-01"],
                 ["add-player", "vera", "--joined", "1899-12-31"]):
        result = run_and_judge(cli, club, args)  # the command line's own date check: a usage error
        assert result.exit_code in (1, 2) and "1900-01-01" in result.output, result.output
    before = journal_bytes(club)
    with pytest.raises(LedgerError, match="--joined: 1899-12-31 is not a date from 1900-01-01 to 2999-12-31"):
        actions.add_player(load_club(club, config_only=True), "vera", joined=date(1899, 12, 31))
    with pytest.raises(LedgerError, match="--date: 3000-01-01 is not a date from 1900-01-01 to 2999-12-31"):
        actions.add_match(load_club(club, config_only=True), "anna", "boris", winner="anna", day=date(3000, 1, 1))
    assert journal_bytes(club) == before


def test_writers_accept_what_a_full_read_accepts(cli, club):
    for args in (["add-player", "Пётр", "--name", 'Пётр "the \\ Great" """x"""', "--alias", "'''"],
                 ["add-player", "e\u0301tienne_1-b"],
                 # (a date after today needs --yes without a terminal; a score must agree with the result)
                 ["add-match", "anna", "Пётр", "--result", "1-0", "--date", "2999-12-31", "--length", "1000",
                  "--chips", "1000000", "--score", "10000-0", "--note", 'line 1\n\tline 2 """ [[match]]', "--yes"],
                 ["void", "m0002", "--reason", "entered twice\nsee the paper sheet"]):
        result = run_and_judge(cli, club, args)
        assert result.exit_code == 0, (args, result.output)
    journal = load_club(club, use_cache=False).journal
    assert journal.match_by_id("m0002").note == 'line 1\n\tline 2 """ [[match]]'
    assert journal.players["Пётр"].name == 'Пётр "the \\ Great" """x"""'


def test_a_note_that_looks_like_a_huge_match_id_does_not_break_the_next_id(cli, club):
    with open(club / "journal.toml", "a", encoding="utf-8") as journal:
        journal.write('\n[[void]]\nmatch = "m0001"\ndate = 2009-01-16\nreason = """typo\nid = "m' + "9" * 1900 + '"\n"""\n')
    result = run_and_judge(cli, club, ["add-match", "anna", "boris", "--winner", "boris"])
    assert result.exit_code == 0 and "added match m0002 " in result.stdout, result.output


# --- Random arguments ------------------------------------------------------------------

AWKWARD = ['"""', "'''", '"', "\\", "\n", "x\n", "", " ", "\t", "\r", "\x1b[31m", "\x7f", "\x85", "[[match]]",
           'a"""b', "x²", "Пётр", "anna", "boris", "cup-1", "m0001", "a" * 150, "[/]", "=1+1", "#", "é"]
TEXTS = st.one_of(st.text(max_size=12), st.sampled_from(AWKWARD),
                  st.lists(st.sampled_from(AWKWARD), max_size=3).map("".join))
IDS = st.one_of(st.sampled_from(["anna", "boris", "vera", "Пётр", "cup-1", "m0001", "m0002"]), TEXTS)
NUMBERS = st.one_of(st.integers(-5, 2000), st.integers(), st.integers(-10 ** 30, 10 ** 30),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(["nan", "inf", "-inf", "-5", "1e300", "100000000000000000000", "1_0", ""]))
DATES = st.one_of(st.dates().map(str), st.sampled_from(["3000-01-01", "1899-12-31", "9999-12-31", "0001-01-01",
                                                       "2009-02-30", "2009-01-15", "x", ""]))


PERIODS = st.sampled_from(["2009-Q1", "2009-01", "2009", "2009-01-15..2009-01-20", "2009-Q5", "3000", ""])
# A list file inside the club (CLUB is the club folder, filled in per run): never a path of the source tree.
OUTPUTS = st.one_of(st.text(alphabet=st.characters(blacklist_characters="/\x00"), min_size=1, max_size=12),
                    st.sampled_from(["..", ".", "journal.toml", "nardrating.toml", "x" * 250, "lists", "a\nb.json"])
                    ).map(lambda name: "CLUB/" + name)


def options(**strategies):
    """Some of the given options, each with a drawn value."""
    return st.fixed_dictionaries({}, optional=strategies).map(
        lambda chosen: [part for name, value in chosen.items() for part in (f"--{name}", str(value))])


# Arguments a user would mostly get right, with one or two drawn wildly: these reach exit 0 too.
NEAR_IDS = st.text(alphabet=st.sampled_from("abzпёЯ19_-é\u0301²\n "), min_size=1, max_size=8)
PLAUSIBLE = st.one_of(
    st.tuples(st.just(["add-player"]), NEAR_IDS.map(lambda x: [x]), options(name=TEXTS, alias=TEXTS)),
    st.tuples(st.just(["add-match", "anna", "boris", "--winner", "anna"]),
              options(length=NUMBERS, chips=NUMBERS, note=TEXTS, date=DATES, score=TEXTS)),
    st.tuples(st.just(["add-tournament"]), NEAR_IDS.map(lambda x: [x]),
              options(name=TEXTS).map(lambda name: name + ["--system", "swiss", "--start", "2009-03-01",
                                                           "--end", "2009-03-02"])),
    st.tuples(st.just(["void", "m0001"]), options(reason=TEXTS)),
    st.tuples(st.just(["freeze-list"]), st.one_of(DATES.map(lambda d: ["--as-of", d]), PERIODS.map(lambda p: ["--period", p])),
              options(output=OUTPUTS, format=st.sampled_from(["json", "md", "xlsx", "csv", ""]))),
    st.tuples(st.just(["edit-player"]), st.sampled_from(["anna", "boris"]).map(lambda x: [x]),
              options(name=TEXTS, alias=TEXTS, title=TEXTS)),
).map(lambda parts: [part for group in parts for part in group])

WILD = st.one_of(
    st.tuples(st.just(["add-player"]), IDS.map(lambda x: [x]),
              options(name=TEXTS, alias=TEXTS, title=TEXTS, qualification=TEXTS, joined=DATES)),
    st.tuples(st.just(["add-match"]), st.lists(IDS, min_size=2, max_size=2),
              st.one_of(IDS.map(lambda w: ["--winner", w]), TEXTS.map(lambda r: ["--result", r]),
                        st.sampled_from([["--result", "1-0"], ["--result", "½-½"]])),
              options(date=DATES, length=NUMBERS, chips=NUMBERS, score=TEXTS, note=TEXTS, discipline=IDS,
                      tournament=IDS)),
    st.tuples(st.just(["add-tournament"]), IDS.map(lambda x: [x]),
              options(name=TEXTS, system=st.sampled_from(["swiss", "knockout", "league", ""]), start=DATES,
                      end=DATES, discipline=IDS)),
    st.tuples(st.just(["void"]), IDS.map(lambda x: [x]), options(reason=TEXTS, date=DATES)),
    st.tuples(st.just(["freeze-list"]), options(**{"as-of": DATES, "period": st.one_of(PERIODS, TEXTS), "output": OUTPUTS,
                                                   "format": TEXTS, "rating": IDS, "discipline": IDS})),
    st.tuples(st.just(["edit-player"]), IDS.map(lambda x: [x]),
              options(name=TEXTS, alias=TEXTS, title=TEXTS, qualification=TEXTS, joined=DATES)),
).map(lambda parts: [part for group in parts for part in group])


def fuzz_writers(cli, examples: int):
    club = make_club(Path(tempfile.mkdtemp(prefix="nardrating-fuzz-")) / "club", JOURNAL)
    codes = []

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(PLAUSIBLE, WILD))
    def one(args):
        args = [arg.replace("CLUB/", f"{club}/", 1) if arg.startswith("CLUB/") else arg for arg in args]
        files = sorted(p for p in club.rglob("*") if not p.name.startswith(".nardrating"))
        result = run_and_judge(cli, club, args)
        codes.append(result.exit_code)
        if args[0] == "freeze-list":
            now = sorted(p for p in club.rglob("*") if not p.name.startswith(".nardrating"))
            if result.exit_code == 0:   # one list more, recorded by the journal with its SHA-256
                (new,) = [p for p in now if p not in files and p.is_file()]
                assert hashlib.sha256(new.read_bytes()).hexdigest() in journal_bytes(club).decode("utf-8")
            else:   # nothing written: no list file, no temporary file (the lists/ folder may be new)
                assert [p for p in now if p not in files and not p.is_dir()] == [], args

    one()
    assert 0 in codes and 1 in codes  # both sides were reached


def test_writers_with_random_arguments_a_few(cli):
    fuzz_writers(cli, examples=20)


@pytest.mark.slow
def test_writers_with_random_arguments(cli):
    fuzz_writers(cli, examples=600)


# --- What add-match prints is true ------------------------------------------------------

@pytest.mark.slow
def test_concurrent_add_match_each_prints_the_change_the_history_shows(tmp_path):
    # No pair limit and one date: the replay takes the ten matches in the order they were written,
    # so each printed change must be the one the journal's history then shows for that match.
    # (Before, each writer computed its preview before taking the lock: most printed +10.00.)
    club = make_club(tmp_path / "club", JOURNAL, ELO_CONFIG.replace("pair_limit_per_day = 2", "pair_limit_per_day = 0"))
    env = {**os.environ, "NARDRATING_CLUB": str(club), "COLUMNS": "200"}
    procs = [subprocess.Popen([sys.executable, "-m", "nardrating", "add-match", "anna", "boris", "--winner", "anna",
                               "--date", "2009-01-20"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(10)]
    printed = {}
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        match_id = re.search(r"added match (\S+) on", out)[1]
        printed[match_id] = re.search(r"anna (\S+) (\S+) → (\S+)", out).groups()
    history = subprocess.run([sys.executable, "-m", "nardrating", "history", "anna", "--format", "json"], env=env,
                             capture_output=True, text=True, check=True)
    shown = {row["entry"]: (f"{row['before']:.2f}", f"{row['change']:+.2f}", f"{row['after']:.2f}")
             for row in json.loads(history.stdout) if row["entry"] in printed}
    assert len(printed) == 10 and shown == printed
    # Ten wins in a row against a falling opponent: each change smaller than the one before.
    changes = [float(shown[k][1]) for k in sorted(shown)]
    assert changes == sorted(changes, reverse=True) and changes[0] > changes[-1]
