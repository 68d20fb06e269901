"""Published lists anyone can verify: freeze-list writes a list with its provenance and records it
in the journal; verify recomputes it and names the entries behind every moved row; changes is the
re-publication note. The numbers are seed 000's (the federation's 2009-Q1 list: Авакян 2337 → 2354)
and seed 003's (the chess club's six games), worked out in the comments."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from nardrating import safewrite
from nardrating.replay.loader import load_club

from .conftest import ROOT, SAMPLES

FEDERATION_LIST = "lists/federation-long-nardy-2009-03-31.json"


def copy(tmp_path: Path, sample: str) -> Path:
    club = tmp_path / sample
    shutil.copytree(SAMPLES / sample, club)
    return club


def frozen(cli, club: Path, *args: str) -> Path:
    result = cli("freeze-list", "--club", club, *args)
    assert result.exit_code == 0, result.output
    return Path(re.search(r"^wrote (.+?) \(", result.stdout)[1])


def journal_entries_of(club: Path) -> list:
    return load_club(club, use_cache=False).journal.lists


# --- freeze-list ---------------------------------------------------------------------------

def test_freeze_then_verify_reproduces_every_row(cli, tmp_path):
    club = copy(tmp_path, "chess-club")
    path = frozen(cli, club, "--as-of", "2009-01-29")
    assert path == club / "lists" / "club-chess-2009-01-29.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    # Seed 003's final table, in rank order: Вера 1220.00, Анна 1199.42, Борис 1190.58, Глеб 1190.00.
    assert [(r["player"], round(r["rating"], 2), r["games"]) for r in data["rows"]] == [
        ("vera", 1220.00, 3), ("anna", 1199.42, 3), ("boris", 1190.58, 3), ("gleb", 1190.00, 3)]
    p = data["provenance"]
    assert (p["rating"], p["engine"], p["discipline"], p["as_of"], p["club"]) == (
        "club", "elo", "chess", "2009-01-29", "Шахматный клуб «Ладья»")
    assert "period" not in p and p["nardrating"] == __import__("nardrating").__version__
    # 4 [[player]] + 6 [[match]] entries
    assert p["entries"] == 10
    # The journal remembers it: a [[list]] with the file (relative to the club) and its SHA-256.
    (entry,) = journal_entries_of(club)
    assert (entry.path, entry.sha256) == ("lists/club-chess-2009-01-29.json", hashlib.sha256(path.read_bytes()).hexdigest())
    assert cli("check", "--club", club, env={"NARDRATING_NO_CACHE": "1"}).exit_code == 0
    result = cli("verify", path, "--club", club)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1
    assert "all 4 rows reproduced (club · chess · as of 2009-01-29)" in result.stdout
    assert f"journal.toml:{entry.line}" in result.stdout


def test_journal_sha256_is_sha256sum_of_the_journal_files_concatenated(cli, tmp_path):
    # Two journal files, replayed in the order club.journal lists them: the digest is
    # `cat journal.toml games.csv | sha256sum`, the bytes as they are on disk (a BOM and CR LF
    # line ends included), nothing between the files.
    club = copy(tmp_path, "chess-club")
    config = club / "nardrating.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('journal = ["journal.toml"]',
                                                                  'journal = ["journal.toml", "games.csv"]'), encoding="utf-8")
    (club / "games.csv").write_bytes(b"\xef\xbb\xbfid,date,player_a,player_b,result\r\ng1,2009-01-08,anna,gleb,1-0\r\n")
    toml, csv = (club / "journal.toml").read_bytes(), (club / "games.csv").read_bytes()
    expected = hashlib.sha256(toml + csv).hexdigest()
    if shutil.which("sha256sum") and shutil.which("cat"):
        import subprocess

        shown = subprocess.run("cat journal.toml games.csv | sha256sum", shell=True, cwd=club, capture_output=True,
                               text=True, check=True).stdout.split()[0]
        assert shown == expected
    assert expected != hashlib.sha256(csv + toml).hexdigest()   # the order counts
    path = frozen(cli, club, "--as-of", "2009-01-29")
    p = json.loads(path.read_text(encoding="utf-8"))["provenance"]
    assert p["journal_sha256"] == expected
    assert p["journal_files"] == [{"file": "journal.toml", "bytes": len(toml)}, {"file": "games.csv", "bytes": len(csv)}]
    assert p["config_sha256"] == hashlib.sha256(config.read_bytes()).hexdigest()
    assert p["entries"] == 11   # 4 players, 6 matches, 1 CSV row
    # The [[list]] went into journal.toml (the last TOML file): its first bytes still hash as the list says.
    assert (club / "journal.toml").read_bytes().startswith(toml)


def test_freeze_list_of_a_period_is_the_list_at_its_end(cli, tmp_path):
    club = copy(tmp_path, "federation-2009")
    path = frozen(cli, club, "--period", "2009-Q2")
    assert path.name == "federation-long-nardy-2009-06-30.json"
    p = json.loads(path.read_text(encoding="utf-8"))["provenance"]
    assert (p["as_of"], p["period"]) == ("2009-06-30", {"start": "2009-04-01", "end": "2009-06-30"})


@pytest.mark.parametrize("args, words", [
    ([], "give the list's date"),
    (["--period", "2009-Q1", "--as-of", "2009-03-31"], "give the list's date"),
    (["--as-of", "2009-01-29", "--format", "csv"], "'csv' is not one of json, md, xlsx"),
])
def test_freeze_list_usage_errors(cli, tmp_path, args, words):
    club = copy(tmp_path, "chess-club")
    before = (club / "journal.toml").read_bytes()
    result = cli("freeze-list", "--club", club, *args)
    assert result.exit_code == 2 and words in result.output
    assert (club / "journal.toml").read_bytes() == before and not (club / "lists").exists()


def _fifo(path: Path) -> None:
    os.mkfifo(path)


@pytest.mark.parametrize("occupy", [
    lambda p: p.write_text("a file of someone's", encoding="utf-8"),
    lambda p: p.symlink_to(p.parent / "elsewhere.json"),          # a dangling link: never written through
    lambda p: p.symlink_to(p.parent / "target.json") or (p.parent / "target.json").write_text("x"),
    _fifo,
    lambda p: p.mkdir(),
])
def test_freeze_list_never_overwrites_anything(cli, tmp_path, occupy):
    club = copy(tmp_path, "chess-club")
    (club / "lists").mkdir()
    target = club / "lists" / "club-chess-2009-01-29.json"
    occupy(target)
    before = (club / "journal.toml").read_bytes()
    state = sorted((p.name, p.is_symlink(), p.is_file()) for p in (club / "lists").iterdir())
    result = cli("freeze-list", "--club", club, "--as-of", "2009-01-29")
    assert result.exit_code == 1, result.output
    assert "already exists; freeze-list never overwrites" in result.stderr
    assert (club / "journal.toml").read_bytes() == before
    assert sorted((p.name, p.is_symlink(), p.is_file()) for p in (club / "lists").iterdir()) == state
    assert not (club / "lists" / "elsewhere.json").exists()


def test_a_failed_journal_append_leaves_no_list_file_and_the_journal_unchanged(cli, tmp_path, monkeypatch):
    club = copy(tmp_path, "chess-club")
    before = (club / "journal.toml").read_bytes()

    class NoRename:
        def __getattr__(self, name):
            return getattr(os, name)

        def replace(self, *args):
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(safewrite, "os", NoRename())   # the journal's new content never takes its place
    result = cli("freeze-list", "--club", club, "--as-of", "2009-01-29", "--output", club / "board.json")
    assert result.exit_code == 1 and "could not write the journal" in result.stderr
    assert (club / "journal.toml").read_bytes() == before
    assert sorted(p.name for p in club.iterdir() if not p.name.startswith(".nardrating")) == ["journal.toml", "nardrating.toml"]


def test_freeze_list_refuses_what_the_journal_would_refuse(cli, tmp_path):
    club = copy(tmp_path, "chess-club")
    before = (club / "journal.toml").read_bytes()
    for args, words in ((["--output", club / ("x" * 180) / "y.json"], "does not exist"),
                        (["--rating", "nope"], "there is no rating list 'nope'"),
                        (["--discipline", "chass"], "unknown discipline 'chass'")):
        result = cli("freeze-list", "--club", club, "--as-of", "2009-01-29", *args)
        assert result.exit_code == 1 and words in result.stderr, result.output
    long_folder = club / ("d" * 195)   # "ddd…/list.json": 205 characters
    long_folder.mkdir()
    result = cli("freeze-list", "--club", club, "--as-of", "2009-01-29", "--output", long_folder / "list.json")
    assert result.exit_code == 1 and "more than the 200 a [[list]] entry holds" in result.stderr
    assert (club / "journal.toml").read_bytes() == before and list(long_folder.iterdir()) == []


# --- verify ---------------------------------------------------------------------------------

def test_the_federation_samples_frozen_2009_q1_list(cli):
    # Seed 000's worked example: Авакян 2337 + 10·(6.5 − 4.77) ≈ 2337 + 17 = 2354 on the 2009-Q1 list.
    path = SAMPLES / "federation-2009" / FEDERATION_LIST
    data = json.loads(path.read_text(encoding="utf-8"))
    row = next(r for r in data["rows"] if r["player"] == "avakyan")
    assert (row["name"], row["rating"], row["games"]) == ("Ашот Авакян", 2354, 9)
    assert data["provenance"]["period"] == {"start": "2009-01-01", "end": "2009-03-31"}
    # The journal records the file, and its first bytes (the journal the list was frozen from) hash as the list says.
    journal = (SAMPLES / "federation-2009" / "journal.toml").read_bytes()
    (size,) = [f["bytes"] for f in data["provenance"]["journal_files"]]
    assert hashlib.sha256(journal[:size]).hexdigest() == data["provenance"]["journal_sha256"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() in journal.decode("utf-8")
    result = cli("verify", path, "--club", SAMPLES / "federation-2009")
    assert result.exit_code == 0, result.output
    assert "all 16 rows reproduced (federation · long-nardy · as of 2009-03-31)" in result.stdout


def test_an_amend_inside_the_period_moves_the_list_and_verify_names_it(cli, tmp_path, monkeypatch):
    club = copy(tmp_path, "federation-2009")
    monkeypatch.chdir(club)   # files are named as the user types them: journal.toml
    # m0014 (2009-02-23, open-2009): Авакян–Демидов ½-½, entered as 1-0. Seed 000: R = 10·(P − E) per
    # competition, E from the ratings at the period's start, unchanged by the result:
    # Авакян P 6.5 → 7.0: 10·(7.0 − 4.77) = 22.3 → +22, 2337 + 22 = 2359 (was +17, 2354);
    # Демидов P 6.5 → 6.0: 10·(6.0 − 5.31) = 6.9 → +7, 2350 + 7 = 2357 (was +12, 2362).
    amended = cli("amend", "m0014", "--result", "1-0", "--club", club)
    assert amended.exit_code == 0, amended.output
    new_id = re.search(r"added match (\S+) on 2009-02-23, amends m0014", amended.stdout)[1]
    text = (club / "journal.toml").read_text(encoding="utf-8").splitlines()
    void_line = next(n for n, line in enumerate(text, 1) if line == "[[void]]")
    match_line = next(n for n, line in enumerate(text, 1) if line == f'id = "{new_id}"') - 1
    result = cli("verify", club / FEDERATION_LIST, "--club", club)
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert "2 of 16 rows differ from the journal as it is now" in lines[0]
    assert "demidov (Олег Демидов): rating 2362 → 2357" in lines
    assert "avakyan (Ашот Авакян): rating 2354 → 2359" in lines
    k = lines.index("avakyan (Ашот Авакян): rating 2354 → 2359")
    assert lines[k + 1:k + 3] == [
        f"  [[void]] (journal.toml:{void_line}), added since the list: void of m0014 (2009-02-23 avakyan–demidov): "
        f"amended by {new_id}",
        f"  {new_id} (journal.toml:{match_line}), added since the list: 2009-02-23 avakyan–demidov 1-0, amends m0014"]
    assert not any("altered" in line for line in lines)


def test_a_match_after_the_lists_date_changes_nothing(cli, tmp_path):
    club = copy(tmp_path, "federation-2009")
    assert cli("add-match", "avakyan", "demidov", "--result", "1-0", "--date", "2009-04-10", "--club", club).exit_code == 0
    result = cli("verify", club / FEDERATION_LIST, "--club", club)
    assert result.exit_code == 0 and "all 16 rows reproduced" in result.stdout, result.output


def test_a_list_edited_by_hand_is_altered_and_shows_the_raised_row(cli, tmp_path):
    club = copy(tmp_path, "federation-2009")
    path = club / FEDERATION_LIST
    path.write_text(path.read_text(encoding="utf-8").replace('"rating": 2354', '"rating": 2400'), encoding="utf-8")
    result = cli("verify", path, "--club", club)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "altered" in lines[0] and hashlib.sha256(path.read_bytes()).hexdigest() in lines[0]
    assert "1 of 16 rows differs" in lines[1]
    assert lines[2:] == ["avakyan (Ашот Авакян): rating 2400 → 2354",
                         "  no journal entry was added since the list that can move it"]
    # check says so too
    checked = cli("check", "--club", club)
    assert checked.exit_code == 0 and "no longer has the SHA-256 this entry records" in checked.stdout


def test_a_list_changed_outside_its_rows_is_still_altered(cli, tmp_path):
    club = copy(tmp_path, "federation-2009")
    path = club / FEDERATION_LIST
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    result = cli("verify", path, "--club", club)
    assert result.exit_code == 1 and "altered" in result.stdout
    assert "every row is as the journal gives it now" in result.stdout


def test_a_rename_after_the_freeze_is_named(cli, tmp_path, monkeypatch):
    club = copy(tmp_path, "chess-club")
    monkeypatch.chdir(club)
    path = frozen(cli, club, "--as-of", "2009-01-29")
    assert cli("rename-player", "gleb", "gleb-2", "--club", club).exit_code == 0
    result = cli("verify", path, "--club", club)
    assert result.exit_code == 1
    assert "gleb-2 (Глеб) was gleb: renamed" in result.stdout
    assert "[[rename]] (journal.toml:" in result.stdout and "gleb renamed gleb-2" in result.stdout


@pytest.mark.parametrize("fmt", ["md", "xlsx"])
def test_printed_lists_verify_too(cli, tmp_path, fmt):
    club = copy(tmp_path, "chess-club")
    path = frozen(cli, club, "--as-of", "2009-01-29", "--format", fmt)
    assert path.suffix == "." + fmt
    assert cli("verify", path, "--club", club).exit_code == 0
    # Seed 003's m0003 (2009-01-22) as 1-0 for Анна instead of 0-1 (K 20, E = 1/(1 + 10^(−d/400))):
    # Анна 1210.00 (beat Борис) against Вера 1200.00 (½ with Глеб): E = 0.5144, +20·0.4856 = +9.71 → 1219.71;
    # Глеб lost to Борис (1190.00 against his 1200.00: E 0.5144, −10.29) → 1189.71; m0005, Анна ½ against him
    # 30 points lower: E = 1/(1 + 10^(−30/400)) = 0.5431, 20·(0.5 − 0.5431) = −0.86 → 1218.85.
    assert cli("amend", "m0003", "--result", "1-0", "--club", club).exit_code == 0
    result = cli("verify", path, "--club", club)
    assert result.exit_code == 1
    assert "anna (Анна): rating 1199.42 → 1218.85" in result.stdout.splitlines()


@pytest.mark.parametrize("fmt", ["md", "xlsx"])
def test_a_list_frozen_under_a_russian_locale_is_english_and_verifies(cli, tmp_path, fmt):
    # Under LANG=ru the printed list took the locale's words (статус «активен», 1199,42) and verify, which
    # reads them back, found every row changed. The file is data: English, as under any locale; the
    # messages about it stay Russian.
    club = copy(tmp_path, "chess-club")
    ru = {"LANG": "ru_RU.UTF-8"}
    result = cli("freeze-list", "--club", club, "--as-of", "2009-01-29", "--format", fmt, env=ru)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("записан ") and "(club · chess · на 2009-01-29, 4 строки)" in result.stdout
    path = club / "lists" / f"club-chess-2009-01-29.{fmt}"
    verified = cli("verify", path, "--club", club, env=ru)
    assert verified.exit_code == 0 and "все строки воспроизведены" in verified.stdout, verified.output
    if fmt == "md":   # seed 003's list after three evenings: Анна 1199.42 (tests/test_elo.py), provisional
        text = path.read_text(encoding="utf-8")
        assert text.startswith("**club · chess · as of 2009-01-29**") and "| Status |" in text
        assert "| anna | Анна | 1199.42 | 3 | provisional |" in text


def test_lists_from_elsewhere_are_refused_clearly(cli, tmp_path):
    chess = copy(tmp_path, "chess-club")
    federation = copy(tmp_path, "federation-2009")
    other = frozen(cli, chess, "--as-of", "2009-01-29")
    result = cli("verify", other, "--club", federation)
    assert result.exit_code == 1
    assert "a list of the club 'Шахматный клуб «Ладья»', not of this club 'Федерация нард (пример)'" in result.stderr

    future = tmp_path / "future.json"
    data = json.loads((federation / FEDERATION_LIST).read_text(encoding="utf-8"))
    data["provenance"]["nardrating"] = "9.0"
    data["provenance"]["rows_v9"] = "whatever a later version writes"
    future.write_text(json.dumps(data), encoding="utf-8")
    result = cli("verify", future, "--club", federation)
    assert result.exit_code == 1 and "frozen by nardrating 9.0, a newer version than this one" in result.stderr

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for path, words in ((federation / "journal.toml", "not a list file of nardrating (no table of it holds a journal_sha256)"),
                        (federation / "nardrating.toml", "not a list file"),
                        (fifo, "is a named pipe (FIFO), not a regular file"),
                        (tmp_path / "missing.json", "cannot read it"),
                        (ROOT / "docs" / "site-index.png", "not UTF-8 text, nor a workbook")):
        result = cli("verify", path, "--club", federation)
        assert result.exit_code == 1 and words in result.stderr, (path, result.output)
        assert "Traceback" not in result.output
    for text, words in (('{"rows": []}', 'it has no "rows" and "provenance"'), ("{", "it is not valid JSON"),
                        ('{"rows": [], "provenance": {"nardrating": "0.1"}}', "its provenance has no valid journal_sha256"),
                        (json.dumps({**data, "rows": [{"player": 5}]}).replace("9.0", "0.1"), "a row without a player")):
        bad = tmp_path / "bad.json"
        bad.write_text(text, encoding="utf-8")
        result = cli("verify", bad, "--club", federation)
        assert result.exit_code == 1 and words in result.stderr, (text, result.output)


# --- changes --------------------------------------------------------------------------------

def test_changes_between_two_dates_name_the_games_behind_them(cli_json):
    # Seed 003 on 2009-01-22, after two evenings: Вера 1210.29 (½ with Глеб, beat Анна 1210: +20·(1 − 0.4856)),
    # Борис 1200.29 (lost to Анна −10, beat Глеб 1200: +10.29), Анна 1199.71, Глеб 1189.71; on 2009-01-29
    # the final table: Вера 1220.00, Анна 1199.42, Борис 1190.58, Глеб 1190.00.
    rows = cli_json("changes", "--club", SAMPLES / "chess-club", "--since", "2009-01-22", "--to", "2009-01-29")
    got = {r["player"]: (r["rank_before"], r["rank_after"], round(r["rating_before"], 2), round(r["rating_after"], 2),
                         round(r["change"], 2), r["games_added"], [e["id"] for e in r["entries"]]) for r in rows}
    assert got == {"vera": (1, 1, 1210.29, 1220.00, 9.71, 1, ["m0006"]),
                   "anna": (3, 2, 1199.71, 1199.42, -0.29, 1, ["m0005"]),
                   "boris": (2, 3, 1200.29, 1190.58, -9.71, 1, ["m0006"]),
                   "gleb": (4, 4, 1189.71, 1190.00, 0.29, 1, ["m0005"])}
    assert list(rows[0]) == ["player", "name", "rank_before", "rank_after", "rating_before", "rating_after", "change",
                             "games_added", "entries"]
    (entry,) = rows[0]["entries"]   # Вера's: m0006, whose [[match]] header is line 52 of the sample's journal
    assert entry["file"].endswith("chess-club/journal.toml")
    assert {k: v for k, v in entry.items() if k != "file"} == {"kind": "match", "id": "m0006", "line": 52,
                                                              "date": "2009-01-29"}


def test_changes_since_a_list_show_the_correction_and_the_later_games(cli, cli_json, tmp_path):
    club = copy(tmp_path, "federation-2009")
    assert cli("amend", "m0014", "--result", "1-0", "--club", club).exit_code == 0
    rows = cli_json("changes", "--club", club, "--since-list", club / FEDERATION_LIST, "--to", "2009-03-31")
    # Only the amend moved the 2009-Q1 list (see above): Авакян 2354 → 2359 (4th → 3rd, past Демидов 2357).
    assert {r["player"]: (r["rank_before"], r["rank_after"], r["rating_before"], r["rating_after"], r["change"],
                          r["games_added"], sorted(e["kind"] for e in r["entries"])) for r in rows} == {
        "avakyan": (4, 3, 2354, 2359, 5, 0, ["match", "void"]),
        "demidov": (3, 4, 2362, 2357, -5, 0, ["match", "void"])}


def test_changes_usage(cli, tmp_path):
    club = SAMPLES / "chess-club"
    assert cli("changes", "--club", club).exit_code == 2
    result = cli("changes", "--club", club, "--since", "2009-01-29", "--to", "2009-01-22")
    assert result.exit_code == 1 and "is before 2009-01-29" in result.stderr
    result = cli("changes", "--club", club, "--since", "2009-01-29")
    assert result.exit_code == 0 and "nothing changed" in result.stdout


# --- The manual's page shows real outputs ----------------------------------------------------

PAGE = (ROOT / "docs" / "lists.md").read_text(encoding="utf-8")


def shown_blocks(lang: str) -> list[tuple[str, list[str]]]:
    """The page's ```LANG blocks that start with `$ nardrating …`: (the command, the lines shown)."""
    return [(command, shown.rstrip("\n").splitlines())
            for command, shown in re.findall(rf"```{lang}\n\$ nardrating ([^\n]+)\n(.*?)```", PAGE, re.S)]


def test_the_pages_verify_output_after_a_hand_edit_is_real(cli, tmp_path, monkeypatch):
    # The page's `text` block (the docs harness runs the amend's blocks) is run in a copy of the
    # sample federation, from its folder, after Авакян's 2354 raised to 2400 in the list file by hand.
    [(edited, after_edit)] = shown_blocks("text")
    club = copy(tmp_path / "edit", "federation-2009")
    monkeypatch.chdir(club)
    path = club / FEDERATION_LIST
    path.write_text(path.read_text(encoding="utf-8").replace('"rating": 2354', '"rating": 2400'), encoding="utf-8")
    result = cli(*edited.split(), env={"COLUMNS": None, "NARDRATING_CLUB": str(club)})
    assert result.exit_code == 1
    assert result.stdout.rstrip("\n").splitlines() == after_edit


def test_the_pages_provenance_is_the_sample_lists(cli):
    block = re.search(r"```json\n(.*?)```", PAGE, re.S)[1]
    data = json.loads((SAMPLES / "federation-2009" / FEDERATION_LIST).read_text(encoding="utf-8"))
    assert json.loads(block) == data["provenance"]
    entry = re.search(r'```toml\n(\[\[list\]\].*?)```', PAGE, re.S)[1]
    assert entry in (SAMPLES / "federation-2009" / "journal.toml").read_text(encoding="utf-8")
    assert "head -c 23165 journal.toml | sha256sum` prints\n`" + data["provenance"]["journal_sha256"] in PAGE


def test_a_journal_edited_in_place_and_a_changed_config_are_said(cli, tmp_path):
    club = copy(tmp_path, "federation-2009")
    journal = club / "journal.toml"
    text = journal.read_text(encoding="utf-8")
    # m0014's draw rewritten in place as 1-0 (no void, no amend: the file is edited, not appended to);
    # seed 000 as above: Авакян 2354 → 2359, Демидов 2362 → 2357.
    journal.write_text(text.replace('players = ["avakyan", "demidov"]\nresult = "1/2-1/2"',
                                    'players = ["avakyan", "demidov"]\nresult = "1-0"', 1), encoding="utf-8")
    config = club / "nardrating.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    result = cli("verify", club / FEDERATION_LIST, "--club", club)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "2 of 16 rows differ" in lines[0]
    assert lines[1].startswith("the journal is not the journal of the list with entries appended")
    assert lines[2].startswith("the config changed since the list (config_sha256 bfc2ed941cf4, now ")
    assert lines[3:] == ["demidov (Олег Демидов): rating 2362 → 2357", "avakyan (Ашот Авакян): rating 2354 → 2359"]
    # The club's name is what tells it from another club then: renamed, the list is refused.
    config.write_text(config.read_text(encoding="utf-8").replace('name = "Федерация нард (пример)"', 'name = "Другая"'),
                      encoding="utf-8")
    result = cli("verify", club / FEDERATION_LIST, "--club", club)
    assert result.exit_code == 1 and "not of this club 'Другая'" in result.stderr


def test_a_printed_list_with_digits_of_another_kind_is_read_not_crashed_on(cli, tmp_path):
    # A Markdown list someone sent: "²" for a rank passes str.isdigit() but int() refuses it (it
    # crashed verify); "٩" (Arabic-Indic nine) for Авакян's 9 games int() reads as 9 and called the row
    # unchanged. Both are cells that are no number: the row's games are shown as changed.
    club = copy(tmp_path, "federation-2009")
    path = frozen(cli, club, "--period", "2009-Q1", "--format", "md")
    text = path.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if "| avakyan |" in line)
    assert row.startswith("| 4 | avakyan |") and "| 2354 | 9 |" in row
    path.write_text(text.replace(row, row.replace("| 4 |", "| ² |").replace("| 9 |", "| ٩ |")), encoding="utf-8")
    result = cli("verify", path, "--club", club)
    assert result.exit_code == 1 and "unexpectedly" not in result.output
    assert "1 of 16 rows differs" in result.stdout
    assert any(line.startswith("avakyan (Ашот Авакян): games") for line in result.stdout.splitlines())
