"""Provenance wherever a list leaves the club (md and xlsx of leaderboard and report, fide-list, TRF,
every page of the site), JSON and CSV left as they were; the [[list]] entry through the entry
model, the cache and check; a digest always of the bytes the numbers came from."""
from __future__ import annotations

import hashlib
import io
import json

import pytest

from nardrating import __version__
from nardrating.lists.provenance import stamped, version_key
from nardrating.replay.loader import load_club

from .conftest import SAMPLES, make_club

CHESS = SAMPLES / "chess-club"


def digests(club) -> dict[str, str]:
    """sha256sum of the (one) journal file and of the config, as a user would take them."""
    return {"journal_sha256": hashlib.sha256((club / "journal.toml").read_bytes()).hexdigest(),
            "config_sha256": hashlib.sha256((club / "nardrating.toml").read_bytes()).hexdigest(),
            "nardrating": __version__}


def test_leaderboard_and_report_in_markdown_end_with_the_provenance(cli):
    expected = digests(CHESS)
    for args in (["leaderboard"], ["report", "--period", "2009"], ["report", "--period", "2009", "--details"]):
        result = cli(*args, "--club", CHESS, "--format", "md")
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines()[-8:-3] == ["", "**Provenance**", "", "| Key | Value |", "| --- | --- |"]
        assert result.stdout.endswith(f"| journal\\_sha256 | {expected['journal_sha256']} |\n"
                                      f"| config\\_sha256 | {expected['config_sha256']} |\n"
                                      f"| nardrating | {__version__} |\n")
        assert result.stdout.count("**Provenance**") == 1


def test_json_and_csv_on_stdout_stay_as_they_were(cli):
    for args in (["leaderboard"], ["report", "--period", "2009"]):
        data = json.loads(cli(*args, "--club", CHESS, "-f", "json").stdout)
        assert "journal_sha256" not in json.dumps(data)
        csv = cli(*args, "--club", CHESS, "-f", "csv").stdout
        assert "sha256" not in csv and "Provenance" not in cli(*args, "--club", CHESS).stdout


def test_fide_list_and_trf_carry_comment_lines(cli):
    expected = digests(CHESS)
    lines = cli("leaderboard", "--club", CHESS, "-f", "fide-list").stdout.splitlines()
    assert lines[-4:] == ["", f"# journal_sha256 {expected['journal_sha256']}", f"# config_sha256 {expected['config_sha256']}",
                          f"# nardrating {__version__}"]
    federation = SAMPLES / "federation-2009"
    fed = digests(federation)
    trf = cli("export", "trf", "--tournament", "open-2009", "--club", federation).stdout.splitlines()
    assert trf[-3:] == [f"### journal_sha256 {fed['journal_sha256']}", f"### config_sha256 {fed['config_sha256']}",
                        f"### nardrating {__version__}"]
    assert trf[0].startswith("012 ")   # the report itself as before


@pytest.mark.parametrize("command", [["leaderboard"], ["report", "--period", "2009"]])
def test_xlsx_carries_the_provenance_below_the_table_and_as_document_properties(cli, tmp_path, command):
    openpyxl = pytest.importorskip("openpyxl")
    out = tmp_path / "list.xlsx"
    result = cli(*command, "--club", CHESS, "-f", "xlsx", "-o", out)
    assert result.exit_code == 0, result.output
    book = openpyxl.load_workbook(io.BytesIO(out.read_bytes()))
    rows = [row for row in book.active.iter_rows(values_only=True)]
    expected = digests(CHESS)
    assert [row[:2] for row in rows[-4:]] == [("Provenance", None), *expected.items()]
    assert {p.name: p.value for p in book.custom_doc_props.props} == expected


def test_every_page_of_the_site_has_the_provenance_in_its_footer(cli, tmp_path):
    pytest.importorskip("jinja2")
    site = tmp_path / "site"
    assert cli("publish", site, "--club", CHESS).exit_code == 0
    expected = digests(CHESS)
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 5
    for page in pages:
        footer = page.read_text(encoding="utf-8").split("<footer>")[1].split("</footer>")[0]
        for key, value in expected.items():
            assert f"{key} <code>{value}</code>" in footer, page


def test_a_digest_is_of_the_bytes_the_list_was_computed_from(tmp_path):
    # A writer appends while the club is loaded: the stamp taken around that load disagrees with
    # itself, so the club is loaded again; the digest and the ledger are then of the same bytes.
    club = make_club(tmp_path / "club", (CHESS / "journal.toml").read_text(encoding="utf-8"))
    calls = []

    def load():
        calls.append(1)
        ledger = load_club(club)
        if len(calls) == 1:
            with open(club / "journal.toml", "a", encoding="utf-8") as f:
                f.write('\n[[match]]\nid = "late"\ndate = 2009-02-01\nplayers = ["anna", "boris"]\nresult = "1-0"\n')
        return ledger

    ledger, stamp = stamped(load, str(club))
    assert len(calls) == 2 and ledger.journal.has_match_id("late")
    assert stamp.journal_sha256 == hashlib.sha256((club / "journal.toml").read_bytes()).hexdigest()


def test_versions_in_pep_440_order():
    order = ["0.1", "0.2.0.dev0", "0.2.0a1", "0.2.0b2", "0.2.0rc1", "0.2.0", "0.2.0.post1", "0.2.1", "0.10", "1.0"]
    keys = [version_key(v) for v in order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert version_key("0.2") == version_key("0.2.0") and version_key("v1") is None


# --- The [[list]] entry ---------------------------------------------------------------------

LIST = '\n[[list]]\nfile = "lists/x.json"\nsha256 = "{sha}"\ndate = 2009-02-01\n'


@pytest.mark.parametrize("entry, message", [
    ('[[list]]\nfile = "x.json"\nsha256 = "ABC"\ndate = 2009-02-01\n',
     "sha256: 'ABC' is not a SHA-256; write its 64 hexadecimal digits in lower case"),
    ('[[list]]\nfile = ""\nsha256 = "' + "0" * 64 + '"\ndate = 2009-02-01\n', "file: '' is not a list file's name"),
    ('[[list]]\nfile = "x.json"\nsha256 = "' + "0" * 64 + '"\n', "[[list]] needs 'date'"),
    ('[[list]]\nfile = "x.json"\nsha256 = "' + "0" * 64 + '"\ndate = 2009-02-01\nrating = "club"\n',
     "[[list]] has an unknown key 'rating'; allowed keys: file, sha256, date"),
    ('[[list]]\nfile = "a\\u001b[2Jb"\nsha256 = "' + "0" * 64 + '"\ndate = 2009-02-01\n', "file: character 2 is a control character"),
])
def test_a_list_entry_is_held_to_the_entry_model(cli, tmp_path, entry, message):
    club = make_club(tmp_path / "club", entry)
    result = cli("check", "--club", club)
    assert result.exit_code == 1 and f"journal.toml:1: {message}" in result.stderr, result.output


def test_list_entries_read_through_the_cache_as_by_a_full_read(tmp_path):
    club = make_club(tmp_path / "club", (CHESS / "journal.toml").read_text(encoding="utf-8"))
    load_club(club)   # the cache holds the journal; then a [[list]] is appended by hand, and another later
    with open(club / "journal.toml", "a", encoding="utf-8") as f:
        f.write(LIST.format(sha="1" * 64))
    cached, full = load_club(club).journal, load_club(club, use_cache=False).journal
    assert cached.lists == full.lists and [(x.path, x.sha256, x.line) for x in full.lists] == [("lists/x.json", "1" * 64, 58)]
    load_club(club)
    assert load_club(club).journal.lists == full.lists
    from nardrating.replay import cache

    _, snapshot, grown, _tail = cache.load(load_club(club, config_only=True).config)   # the cache's own snapshot, checked
    assert grown == [] and snapshot.lists == full.lists


def test_check_warns_of_a_list_file_gone_or_altered(cli, tmp_path):
    club = make_club(tmp_path / "club", (CHESS / "journal.toml").read_text(encoding="utf-8"))
    (club / "lists").mkdir()
    (club / "lists" / "x.json").write_text("{}", encoding="utf-8")
    with open(club / "journal.toml", "a", encoding="utf-8") as f:
        f.write(LIST.format(sha=hashlib.sha256(b"{}").hexdigest()))
        f.write(LIST.replace("x.json", "gone.json").format(sha="2" * 64))
        f.write(LIST.replace("lists/x.json", "/elsewhere/x.json").format(sha="3" * 64))   # not the club's to watch
    result = cli("check", "--club", club)
    assert result.exit_code == 0
    assert "journal.toml:63: warning: the list file lists/gone.json is not there any more" in result.stdout
    assert "3 lists published" in result.stdout and "1 warning" in result.stdout
    (club / "lists" / "x.json").write_text("{ }", encoding="utf-8")
    result = cli("check", "--club", club, "--strict")
    assert result.exit_code == 1
    assert "journal.toml:58: warning: the list file lists/x.json no longer has the SHA-256 this entry records" in result.stdout


@pytest.mark.parametrize("occupy", ["file", "dangling link", "fifo"])
def test_a_new_file_is_never_written_over_anything_even_if_it_appears_after_the_check(tmp_path, monkeypatch, occupy):
    import os

    from nardrating.errors import ActionRefused
    from nardrating.lists import safeout

    target = tmp_path / "list.json"
    if occupy == "file":
        target.write_bytes(b"theirs")
    elif occupy == "dangling link":
        target.symlink_to(tmp_path / "nowhere")
    else:
        os.mkfifo(target)
    for raced in (False, True):   # raced: the name is taken between the check and the write
        if raced:
            monkeypatch.setattr(safeout.os.path, "lexists", lambda path: False)
        with pytest.raises(ActionRefused, match="already exists; freeze-list never overwrites"):
            safeout.create_new(target, b"ours")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["list.json"]   # no temporary file left
        assert not (tmp_path / "nowhere").exists()
        if occupy == "file":
            assert target.read_bytes() == b"theirs"
    monkeypatch.undo()
    made = safeout.create_new(tmp_path / "new.json", b"ours")
    assert (tmp_path / "new.json").read_bytes() == b"ours" and made.st_size == 4
