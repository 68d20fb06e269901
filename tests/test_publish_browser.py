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


# Measured inside each page as a browser lays it out: what scrolls sideways, what is cut, what is hidden.
MEASURE = """
function measure(doc) {
  var win = doc.defaultView, width = win.innerWidth, out = {width: width, overflow: [], cut: [], tables: []};
  out.page = doc.documentElement.scrollWidth - width;
  doc.querySelectorAll("caption, h1, h2, p, figcaption").forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width && (r.left < 0 || r.right > width + 0.5)) out.cut.push(el.tagName + ": " + el.textContent.trim().slice(0, 60));
  });
  doc.querySelectorAll("table").forEach(function (table) {
    var box = table.parentElement, shown = [];
    table.querySelectorAll("thead th").forEach(function (th) {
      if (win.getComputedStyle(th).display !== "none") shown.push(th.textContent.trim());
    });
    var cells = table.querySelectorAll("tbody td"), aligned = [];
    cells.forEach(function (td) {
      if (win.getComputedStyle(td).display === "none" || !td.textContent.trim()) return;
      aligned.push([td.className.indexOf("num") >= 0, win.getComputedStyle(td).textAlign]);
    });
    out.tables.push({caption: table.caption ? table.caption.textContent : "", shown: shown,
                     scrolls: table.scrollWidth > box.clientWidth + 0.5, aligned: aligned});
  });
  return out;
}
"""


def laid_out(tmp_path: Path, pages: list[Path], width: int) -> list[dict]:
    """Each page in an iframe `width` px wide (a headless window is at least 500 px wide, a frame
    can be a phone's 390), measured by the script above once all are loaded."""
    import json

    frames = "".join(f'<iframe src="{page.as_uri()}" style="width:{width}px;height:900px;border:0"></iframe>'
                     for page in pages)
    wrapper = tmp_path / f"frames-{width}.html"
    wrapper.write_text(f"""<!DOCTYPE html><html><body style="margin:0">{frames}<pre id="result"></pre><script>
{MEASURE}
window.addEventListener("load", function () {{
  var found = [];
  document.querySelectorAll("iframe").forEach(function (f) {{ found.push(measure(f.contentDocument)); }});
  document.getElementById("result").textContent = JSON.stringify(found);
}});
</script></body></html>""", encoding="utf-8")
    shown = chromium(tmp_path, "--allow-file-access-from-files", f"--window-size={max(width + 20, 500)},1000",
                     "--dump-dom", wrapper.as_uri())
    assert shown.returncode == 0 and not script_errors(shown.stderr), shown.stderr[-2000:]
    text = shown.stdout.split('<pre id="result">')[1].split("</pre>")[0]
    import html

    return json.loads(html.unescape(text))


def test_every_page_at_390_and_1280_px(cli, tmp_path):
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "federation-2009").exit_code == 0
    out = out.resolve()
    pages = [out / "index.html", out / "players" / "ivanov.html", out / "tournaments" / "open-2009.html",
             out / "lists" / "federation-long-nardy-2009-03-31.html"]
    for width in (390, 1280):
        for page, found in zip(pages, laid_out(tmp_path, pages, width)):
            where = f"{page.name} at {width} px"
            assert found["width"] == width, where
            assert found["page"] <= 0, f"{where}: the page scrolls sideways by {found['page']} px"
            assert found["cut"] == [], f"{where}: cut at the screen's edge: {found['cut']}"
            for table in found["tables"]:
                # numbers right, text left, wherever a cell shows
                assert all((align == "right") == numeric for numeric, align in table["aligned"]), (where, table["caption"])
            if page.parent.name == "players":
                [games] = found["tables"]
                assert not games["scrolls"], f"{where}: the games table scrolls sideways"
                assert {"Date", "Opponent", "Result", "Change", "After"} <= set(games["shown"]), where
                if width == 1280:
                    assert {"Entry", "Kind", "Before", "Expected"} <= set(games["shown"]), where  # every column
            if page.name == "index.html" and width == 390:
                assert not found["tables"][0]["scrolls"], f"{where}: the leaderboard scrolls sideways"


def test_the_russian_site_at_390_px(cli, tmp_path):
    # Russian headings and a history's words are longer (Изменение, соревнование, рейтинг-лист): a player's
    # games table scrolled sideways on a phone, its change and rating after off the screen. Long Russian
    # words now break at soft hyphens there (Изме-не-ние).
    pages = []
    for club in ("federation-2009", "club-swiss", "nardy-club"):
        out = tmp_path / club
        assert cli("publish", out, "--club", SAMPLES / club, "--lang", "ru").exit_code == 0
        pages += [out.resolve() / "index.html", *sorted((out.resolve() / "players").glob("*.html"))]
    for page, found in zip(pages, laid_out(tmp_path, pages, 390)):
        where = f"{page.parent.parent.name}/{page.parent.name}/{page.name} at 390 px"
        assert found["page"] <= 0 and found["cut"] == [], where
        if page.parent.name == "players":
            for games in found["tables"]:
                assert not games["scrolls"], f"{where}: the games table scrolls sideways"
                shown = {heading.replace("\u00ad", "") for heading in games["shown"]}
                assert {"Дата", "Соперник", "Результат", "Изменение", "После"} <= shown, where
        else:
            assert not found["tables"][0]["scrolls"], f"{where}: the leaderboard scrolls sideways"


def test_a_page_that_scrolls_sideways_would_be_seen(tmp_path):
    """The measurement above can fail: a page wider than a phone, and a caption past its edge, are found."""
    page = tmp_path / "wide.html"
    page.write_text('<!DOCTYPE html><html lang=en><meta name="viewport" content="width=device-width, initial-scale=1">'
                    '<title>x</title><table><caption style="white-space:nowrap">' + "a very long caption " * 10 +
                    '</caption><tr><td style="white-space:nowrap">' + "x" * 200 + "</td></tr></table></html>",
                    encoding="utf-8")
    [found] = laid_out(tmp_path, [page], 390)
    assert found["page"] > 0 and found["cut"]


def test_names_in_a_table_that_scrolls_wrap_only_at_spaces_on_a_phone(cli, tmp_path):
    """A crosstable is wider than a phone and scrolls sideways by design: its players' names have no
    reason to be broken inside a word ("Багиро" / "в"); each takes at most a line per word. A
    leaderboard, which keeps to its main columns on a phone, may still break a long id."""
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "federation-2009").exit_code == 0
    page = out.resolve() / "tournaments" / "open-2009.html"
    wrapper = tmp_path / "lines.html"
    wrapper.write_text(f"""<!DOCTYPE html><html><body style="margin:0">
<iframe src="{page.as_uri()}" style="width:390px;height:900px;border:0"></iframe><pre id="result"></pre><script>
window.addEventListener("load", function () {{
  var doc = document.querySelector("iframe").contentDocument, found = [];
  var tables = doc.querySelectorAll("table"), cross = tables[tables.length - 1];
  cross.querySelectorAll("tbody th a").forEach(function (a) {{
    var lines = {{}};
    Array.prototype.forEach.call(a.getClientRects(), function (r) {{ lines[Math.round(r.top)] = 1; }});
    found.push([a.textContent, Object.keys(lines).length]);
  }});
  document.getElementById("result").textContent = JSON.stringify(found);
}});
</script></body></html>""", encoding="utf-8")
    shown = chromium(tmp_path, "--allow-file-access-from-files", "--window-size=500,1000", "--dump-dom", wrapper.as_uri())
    assert shown.returncode == 0, shown.stderr[-2000:]
    import html
    import json

    names = json.loads(html.unescape(shown.stdout.split('<pre id="result">')[1].split("</pre>")[0]))
    assert len(names) == 12   # the open's twelve players
    broken = [(name, lines) for name, lines in names if lines > len(name.split())]
    assert broken == [], f"names broken inside a word: {broken}"
