"""The command line: the app, its --version, the one error boundary; the commands and the
options they share are in nardrating.commands, registered here in the order `--help` lists them.

Errors from the library (LedgerError, ActionRefused) become plain messages on
stderr and exit code 1 in one place, `handles_errors`; usage errors are typer's (exit 2);
anything else is a bug, reported by `report_unexpected` as one paragraph, exit 2
(from each command's `handles_errors`, and from `main` for what escapes those).
"""
from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

# pydantic looks for plugins among all installed packages at import (about 15 ms); a
# command line answering in a quarter of a second has none to load.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
# A command makes its objects and keeps most of them to its end: Python's cyclic collector,
# run every 700 new objects by default, scans the same ones again and again (about 8% of a
# daily command's CPU). Every 50,000 it leaves at most that many cyclic leftovers to a later pass.
gc.set_threshold(50_000, *gc.get_threshold()[1:])

import typer  # noqa: E402

from ._startup import (LocalCommand, LocalGroup, annotations_evaluated_once, help_in_language,  # noqa: E402
                       lazy_typer_coercion, no_pydantic_plugin_loader, only_invoked_command)
from .commands import analysis, club, exchange, lists, tournaments, verify, writing  # noqa: E402
from .commands.common import fail, plain  # noqa: E402
from .i18n import N_, _, command_scope  # noqa: E402

no_pydantic_plugin_loader()
lazy_typer_coercion()

Command = TypeVar("Command", bound=Callable[..., Any])

app = typer.Typer(
    name="nardrating",
    help=N_("A ratings ledger for nardy, backgammon and chess clubs: an append-only journal "
            "replayed through rating engines.\n\nExample: nardrating leaderboard --club sample_ledgers/chess-club"),
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    cls=LocalGroup,
)


def _version(value: bool) -> None:
    if value:
        from ._version import __version__

        typer.echo(f"nardrating {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help=N_("Print the version and exit."))] = False) -> None:
    pass  # the options every command shares (the app's help is above)


def _journals_written() -> list[Path]:
    """Journal files this process has replaced so far (none if it never loaded the writer)."""
    writer = sys.modules.get("nardrating.journal.writer")
    return list(writer.appended) if writer else []


def report_unexpected(exc: BaseException, command: str | None, written_before: int = 0) -> None:
    """The one message for an error nobody foresaw: one paragraph on stderr, no traceback.

    NARDRATING_DEBUG=1 puts the traceback before it, for a bug report.
    """
    import traceback

    if os.environ.get("NARDRATING_DEBUG", "") not in ("", "0"):
        traceback.print_exception(exc, file=sys.stderr)
    what = " ".join(f"{type(exc).__name__}: {exc}".split())
    what = what if len(what) <= 300 else what[:300] + "…"
    written = _journals_written()[written_before:]
    if written:
        wrote = _("Before it failed it had written its entry, whole, to {files}; "
                  "nothing else was written.").format(files=", ".join(map(str, written)))
    else:
        wrote = _("Nothing was written: the journal is only ever replaced whole, so it is as it was.")
    name = f"nardrating {command}" if command else "nardrating"
    sys.stderr.write(plain(_(
        "{name} failed unexpectedly ({what}). {wrote} This is a bug in nardrating; to report it, run the "
        "same command again with NARDRATING_DEBUG=1, which also prints the traceback, and send that with "
        "the command you ran. Running it with NARDRATING_NO_CACHE=1 rules out the cache.").format(
        name=name, what=what, wrote=wrote)) + "\n")


# How typer (or click, under older typers) ends a command or reports a usage error.
_TYPER_EXITS: tuple[type[BaseException], ...] = (typer.Exit, typer.Abort,
                next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"))


def handles_errors(command: Command) -> Command:
    """Known problems become their messages and exit 1; anything else report_unexpected and exit 2."""

    name = command.__name__.replace("_", "-")  # as typer names the command

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .errors import ActionRefused, LedgerError

        written_before = len(_journals_written())
        try:
            with command_scope():
                return command(*args, **kwargs)
        except LedgerError as exc:
            fail([str(p) for p in exc.problems])
        except ActionRefused as exc:
            fail([str(exc)])
        except (RecursionError, MemoryError) as exc:
            fail([_("nardrating: the input is too large or too deeply nested to process ({error})").format(
                error=type(exc).__name__)])
        except _TYPER_EXITS:
            raise  # usage errors (exit 2) and exits already decided
        except BrokenPipeError:  # the reader stopped reading (`| head`): not a bug; end as SIGPIPE would
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            raise typer.Exit(141) from None
        except Exception as exc:  # noqa: BLE001 - the boundary: one paragraph, never a traceback
            report_unexpected(exc, name, written_before)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]  # the same signature, by functools.wraps


def main() -> None:
    """The error boundary: whatever escapes a command ends as one paragraph and exit 2."""
    from .collector import command_done, one_command_process
    from .commands.terminal import set_up_streams

    set_up_streams()  # UTF-8 whatever the locale; on a terminal, long lines wrapped at spaces
    one_command_process()  # a replay's objects may stay out of the collector's way to the end (collector.py)
    try:
        only_invoked_command(app, sys.argv)
        annotations_evaluated_once(app)
        help_in_language(app)
        app(prog_name="nardrating")  # also under python -m: the name the shell completes and usage shows
    except KeyboardInterrupt:
        sys.stderr.write(_("interrupted; nothing was written") + "\n")
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - e.g. raised while typer builds or parses a command
        command = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
        report_unexpected(exc, command)
        sys.exit(2)
    finally:
        command_done()


# The commands, in the order `nardrating --help` lists them.
COMMANDS: list[tuple[str, Callable[..., None]]] = [
        ("init", club.init), ("check", club.check),
        ("add-player", writing.add_player), ("add-match", writing.add_match),
        ("add-tournament", writing.add_tournament), ("void", writing.void), ("amend", writing.amend),
        ("undo", writing.undo), ("rename-player", writing.rename_player), ("merge-players", writing.merge_players),
        ("edit-player", writing.edit_player),
        ("tournaments", tournaments.tournaments), ("entrants", tournaments.entrants), ("pair", tournaments.pair),
        ("results", tournaments.results), ("standings", tournaments.standings),
        ("crosstable", tournaments.crosstable), ("join", tournaments.join), ("withdraw", tournaments.withdraw),
        ("players", lists.players), ("matches", lists.matches), ("recalc", lists.recalc), ("leaderboard", lists.leaderboard),
        ("history", lists.history), ("report", lists.report),
        ("freeze-list", verify.freeze_list), ("verify", verify.verify), ("changes", verify.changes),
        ("predict", analysis.predict), ("backtest", analysis.backtest), ("player", analysis.player),
        ("head-to-head", analysis.head_to_head), ("explain", analysis.explain),
        ("publish", exchange.publish), ("import", exchange.import_files)]
def summary(command: Callable[..., Any]) -> str | None:
    """The first paragraph of a command's help, whole: `--help` lists it so (click would cut it at
    about 45 characters, with "...", where the terminal has room for all of it on further lines)."""
    doc = command.__doc__ or ""
    return " ".join(doc.strip().split("\n\n")[0].split()) or None


for _name, _command in COMMANDS:
    app.command(_name, short_help=summary(_command), cls=LocalCommand)(handles_errors(_command))

export_app = typer.Typer(help=N_("Write the journal's data in other programs' formats."), no_args_is_help=True,
                         rich_markup_mode=None, cls=LocalGroup)
app.add_typer(export_app, name="export")
export_app.command("trf", short_help=summary(exchange.export_trf), cls=LocalCommand)(
    handles_errors(exchange.export_trf))
