"""`nardrating publish OUTDIR`: a static site of the club's ratings, for any web host.

Pages are rendered by Jinja2 (the optional extra `[site]`) with autoescaping on: every name is
data. Everything a page needs is in it (CSS, a little script to sort and search, the charts as
inline SVG); nothing is fetched. All pages are rendered before the first is written, into a fresh
folder that then takes OUTDIR's place whole (output.py). OUTDIR is replaced only when empty, new,
or made by an earlier publish (its MARKER lists the files it wrote with their SHA-256, so pages of
players gone from the journal go too, and only if unchanged); anything else needs `force`.
"""
from __future__ import annotations

import re
import os
from datetime import date, datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from ...datarecords import datarecord, field
from ...errors import ActionRefused
from ...i18n import DEFAULT, _, language_of, ngettext, using
from .output import MARKER, check_conflicts, check_outdir, locked, survey, write_site

if TYPE_CHECKING:
    from collections.abc import Callable

    import jinja2

    from ...replay.ledger import Ledger
    from ...reports import AsOf

__all__ = ["MARKER", "Published", "publish"]
LANG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")


@datarecord
class Published:
    """What publish wrote: OUTDIR, its files, and how many player, tournament and list pages."""
    folder: Path
    files: list[str]
    players: int
    tournaments: int
    lists: int
    notes: list[str] = field(default_factory=list)   # what was left beside OUTDIR, if anything


def _shown() -> Callable[[object], object]:
    """Every text a page shows, with control and bidi override characters written out (as the
    terminal's tables show them: render/text.py), before it is escaped; markup (the inline SVG,
    whose labels are escaped where it is made) is left as it is. (Called for every value a site
    shows, hundreds of thousands: the names it needs are bound once.)"""
    from markupsafe import Markup

    from ...render.text import visible

    def shown(value: object) -> object:
        return visible(value) if type(value) is str or isinstance(value, str) and not isinstance(value, Markup) else value

    return shown


def _environment() -> jinja2.Environment:
    try:
        import jinja2
    except ImportError:
        raise ActionRefused(_("publish needs Jinja2: pip install 'nardrating[site]'")) from None
    from .site import cells, hyphenated, words

    env = jinja2.Environment(loader=jinja2.PackageLoader("nardrating.exchange.publish", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"], finalize=_shown())
    env.install_gettext_callables(_, ngettext, newstyle=True)  # type: ignore[attr-defined]  # the i18n extension's
    env.filters["words"] = words
    env.filters["hyphenated"] = hyphenated
    env.filters["cells"] = jinja2.pass_environment(cells)
    return env


def publish(ledger: Ledger, outdir: Path, rating: str | None, day: AsOf, *, force: bool = False, public: bool = False,
            lang: str = "en", provenance: dict[str, str] | None = None) -> Published:
    """Render every page, then write them; `provenance` (the journal's and config's SHA-256, the version)
    goes into every page's footer."""
    from ..._version import __version__
    from .site import Site

    if not LANG.fullmatch(lang):
        raise ActionRefused(_("--lang {lang!r} is not a language tag; write e.g. en, ru or ru-RU").format(lang=lang))
    from ...safewrite import club_files

    env = _environment()
    check_outdir(outdir, club_files(ledger.config))
    with locked(outdir):  # another publish into OUTDIR waits
        old = survey(outdir)
        check_conflicts(outdir, old, None, force)  # a folder of something else: refused before the work
        with using(language_of(lang) or DEFAULT):   # every page's words in the language the club publishes in
            site = Site(ledger, rating, day, public)
            template = env.get_template("page.html")
            club = ledger.config.club.name or _("Ratings")
            footer = _("Published {published} with nardrating {version}; ratings as of {day}.").format(
                published=published_on(), version=__version__, day=day.day)
            # Each page rendered and encoded as it is made: only the pages' bytes are held until written.
            rendered = {page.path: template.render(page=page, club=club, lang=lang, footer=footer, version=__version__,
                                                   provenance=provenance or {}).encode("utf-8")
                        for page in site.pages()}
        check_conflicts(outdir, old, rendered, force)
        notes = write_site(outdir, rendered, old)
    return Published(outdir, sorted(rendered), len(site.player_path), len(site.tournament_path), len(site.list_pages),
                     notes)


def published_on() -> date:
    """Today; $SOURCE_DATE_EPOCH (the reproducible-builds convention) where set, for a site made
    again byte for byte."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), timezone.utc).date()
    return date.today()
