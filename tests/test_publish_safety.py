"""publish writes its site into a fresh folder beside OUTDIR and swaps it in whole: never through a
link in OUTDIR, never deleting what it did not write, never leaving half a site; page names are
unique per site; the club's name is text and bidi controls are shown written out."""
from __future__ import annotations

import errno
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from nardrating.exchange.publish import MARKER
from nardrating.exchange.publish.site import file_stem

from .conftest import ELO_CONFIG, SAMPLES, fill, make_club

pytest.importorskip("jinja2")

JOURNAL = """\
[[player]]
id = "anna"

[[player]]
id = "boris"

[[match]]
id = "m0001"
date = 2024-01-10
players = ["anna", "boris"]
winner = "anna"
"""
LATER = """
[[match]]
id = "m0002"
date = 2024-01-11
players = ["anna", "boris"]
winner = "boris"
"""


@pytest.fixture
def club(tmp_path):
    return make_club(tmp_path / "club", JOURNAL)


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under the folder, never through a link: file → bytes, link → 'link to …', folder → 'folder'."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            found[key] = f"link to {os.readlink(path)}"
        elif path.is_dir():
            found[key] = "folder"
        else:
            found[key] = path.read_bytes()
    return found


def beside(outdir: Path) -> list[str]:
    """Anything publish left next to OUTDIR (its fresh folders are hidden names)."""
    return sorted(p.name for p in outdir.parent.iterdir() if p.name.startswith("." + outdir.name))


def test_a_link_in_outdir_is_never_written_through(cli, club, tmp_path):
    site, victim = tmp_path / "site", tmp_path / "victim.txt"
    assert cli("publish", site, "--club", club).exit_code == 0
    victim.write_text("not the site's")
    for name in ("index.html.tmp", "players/anna.html.tmp"):  # where the old publish put its temporary files
        os.symlink(victim, site / name)
    (club / "journal.toml").write_text(JOURNAL + LATER)
    result = cli("publish", site, "--club", club)
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "not the site's"
    assert (site / "index.html.tmp").is_symlink()  # not publish's: left where it was
    assert "m0002" in (site / "players" / "anna.html").read_text("utf-8")
    assert beside(site) == []


def test_a_linked_marker_is_never_written_through(cli, club, tmp_path):
    site, victim = tmp_path / "site", tmp_path / "victim.txt"
    assert cli("publish", site, "--club", club).exit_code == 0
    victim.write_text("not the site's")
    os.unlink(site / MARKER)
    os.symlink(victim, site / MARKER)
    result = cli("publish", site, "--club", club)  # a link is no marker: a folder of something else
    assert result.exit_code == 1 and "--force" in result.stderr, result.output
    assert cli("publish", site, "--club", club, "--force").exit_code == 0
    assert victim.read_text() == "not the site's"
    assert not (site / MARKER).is_symlink() and (site / MARKER).is_file()


def test_a_tampered_marker_deletes_nothing_publish_did_not_write(cli, club, tmp_path):
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    (site / "CNAME").write_text("ratings.example.org\n")
    (site / "players" / "photo.jpg").write_bytes(b"\xff\xd8 a photo")
    # The marker now claims them: by name only, and with a digest of other bytes.
    with open(site / MARKER, "a", encoding="utf-8") as marker:
        marker.write("CNAME\n" + "0" * 64 + "  players/photo.jpg\n")
    assert cli("publish", site, "--club", club).exit_code == 0
    assert (site / "CNAME").read_text() == "ratings.example.org\n"
    assert (site / "players" / "photo.jpg").read_bytes() == b"\xff\xd8 a photo"


def test_publish_never_replaces_a_folder_that_holds_the_club(cli, tmp_path):
    # OUTDIR holding the club: a swap (or a tampered marker) would take the journal with it.
    outdir = tmp_path / "pub"
    club = make_club(outdir / "club", JOURNAL)
    journal = (club / "journal.toml").read_bytes()
    for target in (outdir, club):
        result = cli("publish", target, "--club", club, "--force")
        assert result.exit_code == 1 and "club's own file" in result.stderr, result.output
    assert (club / "journal.toml").read_bytes() == journal
    assert sorted(p.name for p in club.iterdir()) == ["journal.toml", "nardrating.toml"]


def test_a_failed_publish_leaves_the_old_site_whole(cli, club, tmp_path):
    # A link where a folder of pages goes: refused, and not one page of the site changed first.
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    assert cli("publish", site, "--club", club).exit_code == 0
    shutil.copytree(site / "players", elsewhere)
    shutil.rmtree(site / "players")
    os.symlink(elsewhere, site / "players")
    before, outside = tree(site), tree(elsewhere)
    (club / "journal.toml").write_text(JOURNAL + LATER)
    result = cli("publish", site, "--club", club)
    assert result.exit_code == 1 and "nothing was written" in result.stderr, result.output
    assert tree(site) == before and tree(elsewhere) == outside
    assert beside(site) == []
    result = cli("publish", site, "--club", club, "--force")  # forced: a real folder in its place
    assert result.exit_code == 0, result.output
    assert not (site / "players").is_symlink() and tree(elsewhere) == outside
    assert "m0002" in (site / "players" / "anna.html").read_text("utf-8")


def test_a_full_disk_while_publishing_leaves_the_old_site_whole(cli, club, tmp_path, monkeypatch):
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    before = tree(site)
    (club / "journal.toml").write_text(JOURNAL + LATER)
    real, calls = os.fsync, []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    result = cli("publish", site, "--club", club)
    assert result.exit_code == 1, result.output
    assert "the disk is full" in result.stderr and "nothing was written" in result.stderr
    assert tree(site) == before and beside(site) == []


def test_a_really_full_disk_while_publishing_leaves_the_old_site_whole(cli, club, tiny_disk):
    site = tiny_disk / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    before = tree(site)
    fill(tiny_disk)
    (club / "journal.toml").write_text(JOURNAL + LATER)
    result = cli("publish", site, "--club", club)
    assert result.exit_code == 1, result.output
    assert "the disk is full" in result.stderr and "nothing was written" in result.stderr
    assert tree(site) == before
    assert sorted(p.name for p in tiny_disk.iterdir()) == ["filler", "site"]


def test_a_page_changed_by_hand_is_not_replaced_without_force(cli, club, tmp_path):
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    (site / "index.html").write_text("our own front page")
    result = cli("publish", site, "--club", club)
    assert result.exit_code == 1 and "index.html" in result.stderr and "--force" in result.stderr
    assert (site / "index.html").read_text() == "our own front page"
    assert cli("publish", site, "--club", club, "--force").exit_code == 0
    assert "anna" in (site / "index.html").read_text("utf-8")


def test_the_marker_lists_each_page_with_its_sha256(cli, club, tmp_path):
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    lines = [line for line in (site / MARKER).read_text("utf-8").splitlines() if not line.startswith("#")]
    listed = dict(reversed(line.split("  ", 1)) for line in lines)
    assert sorted(listed) == sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))
    for page, digest in listed.items():
        assert hashlib.sha256((site / page).read_bytes()).hexdigest() == digest
    if shutil.which("sha256sum"):  # the format sha256sum checks
        check = subprocess.run(["sha256sum", "--check", "--quiet", MARKER], cwd=site, capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr


def test_stale_pages_go_and_files_of_others_stay(cli, club, tmp_path):
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    (site / ".git").mkdir()
    (site / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (club / "journal.toml").write_text(JOURNAL.replace('"boris"', '"vera"'))
    assert cli("publish", site, "--club", club).exit_code == 0
    assert not (site / "players" / "boris.html").exists() and (site / "players" / "vera.html").is_file()
    assert (site / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert beside(site) == []


def test_outdir_that_is_a_link_is_refused(cli, club, tmp_path):
    real = tmp_path / "real-site"
    real.mkdir()
    os.symlink(real, tmp_path / "site")
    result = cli("publish", tmp_path / "site", "--club", club)
    assert result.exit_code == 1 and "symbolic link" in result.stderr, result.output
    assert list(real.iterdir()) == [] and (tmp_path / "site").is_symlink()


# --- page names --------------------------------------------------------------------------

def test_page_names_are_unique_per_site(cli, tmp_path):
    # sha1("李明") begins 5d2b8b775a: its hashed name is the other player's plain id.
    assert hashlib.sha1("李明".encode()).hexdigest()[:10] == "5d2b8b775a"
    journal = ('[[player]]\nid = "x-5d2b8b775a"\nname = "Plain"\n\n[[player]]\nid = "李明"\nname = "Li Ming"\n\n'
               '[[match]]\nid = "m0001"\ndate = 2024-01-10\nplayers = ["x-5d2b8b775a", "李明"]\nwinner = "李明"\n')
    club = make_club(tmp_path / "club", journal)
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    pages = sorted(p.name for p in (site / "players").iterdir())
    assert len(pages) == 2, pages
    texts = [(site / "players" / page).read_text("utf-8") for page in pages]
    assert sum("Li Ming" in t for t in texts) == 1 and sum("Plain (x-5d2b8b775a)" in t for t in texts) == 1
    taken: set[str] = set()
    names = [file_stem(key, taken) for key in ("x-5d2b8b775a", "李明", "X-5D2B8B775A")]
    assert len({n.lower() for n in names}) == 3


# --- the club's name ------------------------------------------------------------------------

def test_club_name_with_control_characters_is_refused(cli, tmp_path):
    club = make_club(tmp_path / "club", JOURNAL, ELO_CONFIG.replace('"Test club"', '"Test\\u001b[2J\\u0007 club"'))
    result = cli("check", "--club", club)
    assert result.exit_code == 1, result.output
    assert "nardrating.toml:2: [club] name: character 5 is a control character" in result.stderr
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 1 and not site.exists()


def test_bidi_overrides_are_shown_written_out_on_the_site(cli, tmp_path):
    config = ELO_CONFIG.replace('"Test club"', '"Club \\u202eevil"')
    club = make_club(tmp_path / "club", JOURNAL.replace('id = "anna"', 'id = "anna"\nname = "Anna \u202egnp.exe"'), config)
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    for page in site.rglob("*.html"):
        assert "\u202e" not in page.read_text("utf-8"), page
    index = (site / "index.html").read_text("utf-8")
    assert "<title>Club \\u202eevil</title>" in index and "Anna \\u202egnp.exe" in index
    anna = (site / "players" / "anna.html").read_text("utf-8")
    assert "Anna \\u202egnp.exe" in anna  # the chart's labels too


def test_sample_sites_still_publish(cli, tmp_path):
    assert cli("publish", tmp_path / "site", "--club", SAMPLES / "chess-club").exit_code == 0
