"""The Russian site's standings of a tournament in progress are not called final ("Итоговая
таблица": the sample Swiss has three rounds played and the fourth paired)."""
import re

from .conftest import SAMPLES


def test_standings_heading_of_a_tournament_in_progress(cli, tmp_path):
    out = tmp_path / "site"
    result = cli("publish", out, "--club", SAMPLES / "club-swiss", "--lang", "ru")
    assert result.exit_code == 0, result.output
    page = (out / "tournaments" / "spring-open.html").read_text(encoding="utf-8")
    headings = re.findall(r"<h2[^>]*>(.*?)</h2>", page)
    assert "Положение участников" in headings and "Итоговая" not in page
