"""The published site in a real browser: headless Chromium loads the index and a player's page
without script errors, shows the leaderboard and the chart, and takes a screenshot of the index."""
import subprocess
from pathlib import Path

import pytest

from .conftest import SAMPLES

pytest.importorskip("jinja2")
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium "
                                 "(Debian: apt-get install chromium)")]


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    command = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)


def script_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]


def test_site_in_chromium(cli, tmp_path):
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "federation-2009").exit_code == 0
    index = out.resolve() / "index.html"
    page = chromium(tmp_path, "--dump-dom", index.as_uri())
    assert page.returncode == 0, page.stderr[-2000:]
    assert not script_errors(page.stderr)
    # The seed's list: Эльдар Багиров first (2313), his row is in the DOM the browser built.
    first_row = page.stdout.split("<tbody>")[1].split("</tr>")[0]
    assert "bagirov" in first_row and "Эльдар Багиров" in first_row
    player = chromium(tmp_path, "--dump-dom", (out.resolve() / "players" / "ivanov.html").as_uri())
    assert "<svg" in player.stdout and "<polyline" in player.stdout and not script_errors(player.stderr)
    shot = tmp_path / "index.png"
    taken = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1000,760", index.as_uri())
    assert taken.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_script_error_would_be_seen(tmp_path):
    """The check above can fail: a page whose script throws is reported."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html lang=en><title>x</title><script>undefinedFunction()</script></html>")
    assert script_errors(chromium(tmp_path, "--dump-dom", page.as_uri()).stderr)
