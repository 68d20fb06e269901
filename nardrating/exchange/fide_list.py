"""`leaderboard --format fide-list`: a rating list laid out like FIDE's downloadable lists.

Fixed-width columns, one player a line, ratings as whole numbers (rounded half up, as FIDE
publishes them), so the list can be printed, pasted into a notice board or read by programs
that cut columns. Columns: rank, id, name, rating, games, flag (`i`: inactive).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ..errors import ActionRefused
from ..i18n import _
from ..render.text import visible
from ..reports import Table

# (heading, width, right-aligned); the id column widens to the longest id (ids are never cut),
# names are cut at FIDE's 60 characters.
LAYOUT = (("Rank", 5, True), ("ID Number", 16, False), ("Name", 61, False), ("Rtng", 5, True),
          ("Gms", 5, True), ("Flag", 5, False))


def whole(rating: float | None) -> str:
    return "" if rating is None else str(math.floor(rating + 0.5))


def _line(values: Iterable[object], layout: Sequence[tuple[str, int, bool]]) -> str:
    cells = []
    for (_heading, width, right), value in zip(layout, values):
        text = visible(str(value))[:width - 1]  # names are data: controls shown escaped; a space parts columns
        cells.append(text.rjust(width - 1) + " " if right else text.ljust(width))
    return "".join(cells).rstrip()


def to_fide_list(table: Table) -> str:
    keys = {c.key for c in table.columns}
    if not {"rank", "player", "rating"} <= keys:
        raise ActionRefused(_("--format fide-list is a rating list: use it with `nardrating leaderboard`"))
    rows = table.all_rows()
    layout = list(LAYOUT)
    layout[1] = ("ID Number", max([16] + [len(visible(str(row["player"]))) + 1 for row in rows]), False)
    lines = [_line((h for h, _width, _right in layout), layout)]
    for row in rows:
        flag = "i" if "inactive" in str(row.get("status") or "") else ""
        lines.append(_line((row.get("rank") or "", row["player"], row.get("name") or "", whole(row.get("rating")),
                            row.get("games") if row.get("games") is not None else "", flag), layout))
    return "\n".join(lines) + "\n"
