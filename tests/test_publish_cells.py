"""publish: a table row's cells are written by one function (the `cells` filter), byte for byte as the
page template's own tags for each cell wrote them before (kept here as the reference), for cells of
every kind: header or not, the classes, data-sort, a link, an aside, and texts with hyphens, spaces,
markup, control and bidi characters."""
import random

import pytest

pytest.importorskip("jinja2")

from nardrating.exchange.publish import _environment  # noqa: E402
from nardrating.exchange.publish.site import Cell  # noqa: E402

# The template's tags for a row's cells before the filter (templates/page.html); an aside's long Russian
# words with soft hyphens since (`hyphenated`).
FORMER = ("""{% for c in row %}{% if c.header %}<th scope="row"{% else %}<td{% endif %}"""
          """{% if c.numeric or c.more or c.long %} class="{{ ['num' if c.numeric, 'more' if c.more, 'long' if c.long]"""
          """ | select | join(' ') }}"{% endif %}{% if c.sort is not none %} data-sort="{{ c.sort }}"{% endif %}>"""
          """{% if c.href %}<a href="{{ c.href }}">{{ c.text }}</a>{% elif c.numeric %}{{ c.text }}"""
          """{% else %}{{ c.text | words }}{% endif %}{% if c.aside %}<span class="aside">{{ c.aside | hyphenated }}</span>{% endif %}"""
          """{% if c.header %}</th>{% else %}</td>{% endif %}{% endfor %}""")

PIECES = ["2009-01-15", "long-nardy", "Анна Петрова", "соревнование", "a  b", " ", "", "-", "x-", "<b>", "&amp;", '"q"', "'",
          "\x1b[31m", "\n", "\t", "\u202e", "1200.00", "+10.59", "½", "m0001", "A & B - C"]


def random_cell(rng: random.Random) -> Cell:
    def text() -> str:
        return "".join(rng.choice(PIECES) + rng.choice(["", " "]) for _ in range(rng.randint(0, 3)))

    return Cell(text(), sort=rng.choice([None, "1200.5", "-3", text()]), href=rng.choice([None, "", "../p/x.html", text()]),
                header=rng.random() < 0.2, numeric=rng.random() < 0.4, more=rng.random() < 0.3,
                long=rng.random() < 0.2, aside=rng.choice([None, "", text()]))


def test_the_cells_filter_writes_what_the_templates_tags_wrote():
    env = _environment()
    former = env.from_string(FORMER)
    now = env.from_string("{{ row | cells }}")
    rng = random.Random(20261207)
    for _ in range(3000):
        row = [random_cell(rng) for _ in range(rng.randint(0, 4))]
        assert now.render(row=row) == former.render(row=row), row
