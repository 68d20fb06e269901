"""Whether a draw may be entered: a list that rates the discipline and takes none (fibs, seed 004: "a
nardy or backgammon match has a winner") refuses it, in the writer's words (add-match, amend,
results, import)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import _

if TYPE_CHECKING:
    from ...config import RatingList
    from ...replay.ledger import Ledger


def draw_refused(club: Ledger, discipline: str) -> str | None:
    """Why a draw in `discipline` cannot be entered (a list rating it takes none: Engine.takes_draws), or None."""
    rating = draw_refusing_list(club, discipline)
    return None if rating is None else draw_words(rating, discipline)


def draw_words(rating: RatingList, discipline: str) -> str:
    """Why `rating`, which takes no draw, refuses one in `discipline`: where it names no disciplines,
    that it rates every one (a chess game in a nardy club)."""
    said = (_("a draw in {discipline!r}, which the rating list {name!r} ({engine}) rates: a nardy or backgammon match "
              "has a winner") if rating.disciplines is not None else
            _("a draw in {discipline!r}, which the rating list {name!r} ({engine}) rates, as it rates every discipline "
              "(nardrating.toml gives [rating.{name}] no disciplines = [...]): a nardy or backgammon match has a winner"))
    return said.format(discipline=discipline, name=rating.name, engine=rating.engine)


def draw_refusing_list(club: Ledger, discipline: str) -> RatingList | None:
    """The first list that rates `discipline` and takes no draw (Engine.takes_draws), or None."""
    from ...engines.registry import engine_class

    return next((r for r in club.config.ratings.values() if r.rates(discipline) and not engine_class(r.engine).takes_draws), None)
