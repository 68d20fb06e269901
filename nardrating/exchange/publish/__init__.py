"""`nardrating publish OUTDIR`: a static site of the club's ratings, for any web host.

Pages are rendered by Jinja2 (the optional extra `[site]`) with autoescaping on: every name is
data. Everything a page needs is in it (CSS, a little script to sort and search, the charts as
inline SVG); nothing is fetched. All pages are rendered before the first is written. OUTDIR is
written only when empty, new, or made by an earlier publish (its MARKER lists the files it wrote,
so pages of players gone from the journal go too); anything else needs `force`.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import ActionRefused
from ...i18n import DEFAULT, _, language_of, ngettext, using

if TYPE_CHECKING:
    import jinja2

    from ...replay.ledger import Ledger
    from ...reports import AsOf

MARKER = ".nardrating-site"
LANG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")


@dataclass
class Published:
    folder: Path
    files: list[str]
    players: int
    tournaments: int
    lists: int


def _environment() -> jinja2.Environment:
    try:
        import jinja2
    except ImportError:
        raise ActionRefused(_("publish needs Jinja2: pip install 'nardrating[site]'")) from None
    from .site import words

    env = jinja2.Environment(loader=jinja2.PackageLoader("nardrating.exchange.publish", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(_, ngettext, newstyle=True)  # type: ignore[attr-defined]  # the i18n extension's
    env.filters["words"] = words
    return env


def publish(ledger: Ledger, outdir: Path, rating: str | None, day: AsOf, *, force: bool = False, public: bool = False,
            lang: str = "en", provenance: dict[str, str] | None = None) -> Published:
    """Render every page, then write them; `provenance` (the journal's and config's SHA-256, the version)
    goes into every page's footer."""
    from ..._version import __version__
    from .site import Site

    if not LANG.fullmatch(lang):
        raise ActionRefused(_("--lang {lang!r} is not a language tag; write e.g. en, ru or ru-RU").format(lang=lang))
    env = _environment()
    previous = _check_outdir(outdir, force)
    with using(language_of(lang) or DEFAULT):   # every page's words in the language the club publishes in
        site = Site(ledger, rating, day, public)
        template = env.get_template("page.html")
        club = ledger.config.club.name or _("Ratings")
        footer = _("Published {published} with nardrating {version}; ratings as of {day}.").format(
            published=published_on(), version=__version__, day=day.day)
        rendered = {page.path: template.render(page=page, club=club, lang=lang, footer=footer, version=__version__,
                                               provenance=provenance or {})
                    for page in site.pages()}
    _write(outdir, rendered, previous)
    return Published(outdir, sorted(rendered), len(site.player_path), len(site.tournament_path), len(site.list_pages))


def published_on() -> date:
    """Today; $SOURCE_DATE_EPOCH (the reproducible-builds convention) where set, for a site made
    again byte for byte."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), timezone.utc).date()
    return date.today()


def _check_outdir(outdir: Path, force: bool) -> list[str]:
    """The files an earlier publish wrote there; refuse a folder of something else unless forced."""
    if outdir.exists() and not outdir.is_dir():
        raise ActionRefused(_("{folder} is not a folder").format(folder=outdir))
    marker = outdir / MARKER
    if marker.is_file():
        return [line for line in marker.read_text("utf-8", errors="replace").splitlines() if line]
    if outdir.is_dir() and any(outdir.iterdir()) and not force:
        raise ActionRefused(_("{folder} is not empty and was not made by nardrating publish (no {marker} in it); "
                              "choose an empty or new folder, or add --force to write into it anyway").format(
                                  folder=outdir, marker=MARKER))
    return []


def _inside(outdir: Path, relative: str) -> Path:
    """The file's path, refused if it would fall outside OUTDIR (file names come from ids)."""
    path = outdir / relative
    root = outdir.resolve()
    if root not in path.resolve().parents:
        raise ActionRefused(_("{file!r} would be written outside {folder}").format(file=relative, folder=outdir))
    return path


def _write(outdir: Path, rendered: dict[str, str], previous: list[str]) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    for relative, text in rendered.items():
        path = _inside(outdir, relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8", newline="\n")
        os.replace(tmp, path)
    root = outdir.resolve()
    for relative in previous:   # pages of an earlier publish that this one does not have
        stale = outdir / relative
        if relative not in rendered and root in stale.resolve().parents and stale.is_file():
            stale.unlink()
    (outdir / MARKER).write_text("\n".join(sorted(rendered)) + "\n", encoding="utf-8")
