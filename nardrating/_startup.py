"""Start-up of the command line: skip work that typer and pydantic do for every command.

Each daily command is mostly start-up (docs/performance.md). The shortcuts below change
nothing a user sees, and each steps aside when the library does not look as expected (another
version): then it costs what it cost before. Two of them reach into private parts of typer
and pydantic; they are kept because they pay (measured: the lazy coercion is a third of a
cached `leaderboard`'s CPU, the plugin loader a tenth of a command that checks entries) and
because tests/test_startup.py compares every command line with and without them, in CI with
both the newest and the oldest typer, click, pydantic and rich that pyproject allows (.ci/run).
"""
from __future__ import annotations

import os
import sys
import types
from dataclasses import dataclass
from typing import Any, cast


def no_pydantic_plugin_loader() -> None:
    """With plugins disabled, pydantic's plugin loader answers "none"; but importing it imports
    importlib.metadata (about 30 ms). Give pydantic a loader that answers the same without it."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") not in ("__all__", "1", "true"):
        return
    if "pydantic.plugin._loader" in sys.modules:
        return
    loader = types.ModuleType("pydantic.plugin._loader")
    loader.get_plugins = lambda: ()  # type: ignore[attr-defined]  # what the real one returns while plugins are disabled
    sys.modules["pydantic.plugin._loader"] = loader


# Types whose values pydantic's lax validation returns unchanged when they already are of that type.
_PASSED_THROUGH = (str, int, float, bool)


def lazy_typer_coercion() -> None:
    """typer builds a pydantic TypeAdapter for every parameter of the command it runs, given or
    not (importing typer._adapters and pydantic's types: about 150 ms). Here a parameter's
    adapter is built only when a value must really be converted: a text option's str is what
    typer's adapter returns for it (its before-validator passes a str through), so is an int,
    float or bool option's value that click already made of that very type, and an option not
    given (None) never reaches the adapter."""
    try:
        from typer import _coercion, core
        original: Any = core.build_runtime_param  # type: ignore[attr-defined]
        runtime_param: Any = _coercion.RuntimeParam
    except (ImportError, AttributeError):
        return
    if getattr(original, "lazy", False):
        return

    @dataclass(frozen=True)   # (the standard library's, as typer's frozen dataclass it extends: not datarecord)
    class LazyRuntimeParam(runtime_param):  # type: ignore[misc]
        """typer's RuntimeParam, whose pydantic adapter is built only when a value must really be converted."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if (self.annotation in _PASSED_THROUGH and type(value) is self.annotation
                    and self.descriptor.file_annotation is None and getattr(self.parameter_info, "parser", None) is None):
                return value
            built = self.__dict__.get("_built")
            if built is None:
                built = original(self.descriptor)
                object.__setattr__(self, "_built", built)
            return built._coerce_value(value, param=param, ctx=ctx)

    def build_runtime_param(descriptor: Any) -> Any:
        return LazyRuntimeParam(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                                descriptor=descriptor)

    build_runtime_param.lazy = True  # type: ignore[attr-defined]
    core.build_runtime_param = build_runtime_param  # type: ignore[attr-defined]


def only_invoked_command(app: Any, argv: list[str]) -> None:
    """typer builds every command of the app (signatures, type hints, parameters: about 60 ms for
    two dozen commands) before it runs one. When argv names a command or a command group, keep
    just that one registered: what it parses, prints and refuses is the same. Anything else
    (no command, an option first, a misspelt command, whose message suggests the others) keeps them all."""
    try:
        from typer.main import get_command_name
    except ImportError:
        return
    if len(argv) < 2 or argv[1].startswith("-"):
        return
    name = argv[1]
    commands = [c for c in app.registered_commands
                if (c.name or (c.callback and get_command_name(c.callback.__name__))) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if len(commands) + len(groups) == 1:
        app.registered_commands, app.registered_groups = commands, groups


def annotations_evaluated_once(app: Any) -> None:
    """typer reads each command's parameters from its annotations, which `from __future__ import
    annotations` leaves as text: it evaluates every one of them four times per command it builds
    (two reads of the signature, two evaluations each), about half of `--help`. Evaluate them once
    here; typer then finds them evaluated and builds the very same parameters (it copies each
    typer.Option before use). A command whose annotations do not evaluate is left as it is."""
    import inspect
    import typing

    infos = list(app.registered_commands)
    for group in app.registered_groups:
        infos += getattr(group.typer_instance, "registered_commands", [])
    for info in infos:
        command = info.callback
        if command is None:
            continue
        original = inspect.unwrap(command)
        try:
            hints = typing.get_type_hints(original, include_extras=True)
        except Exception:  # noqa: BLE001 - typer will say what is wrong, as before
            continue
        original.__annotations__ = hints
        command.__annotations__ = hints  # the wrapper's (functools.wraps shares the dict; kept in step)


def help_in_language(app: Any) -> None:
    """`--help` in the locale's language: each command's docstring (and its summary in the app's
    list), each option's help and the app's, translated once before typer builds them (typer reads them as they are). typer's own
    words ("Options", "Arguments", "Error") are its gettext messages: our catalogue answers them.
    English (the text as written) changes nothing."""
    from .i18n import DEFAULT, DOMAIN, LOCALE_DIR, _, current

    if current() == DEFAULT:
        return
    import gettext
    import inspect
    import typing

    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    gettext.textdomain(DOMAIN)
    done: set[int] = set()

    def translate(info: Any) -> None:
        if id(info) not in done and isinstance(getattr(info, "help", None), str):
            info.help = _(info.help)
            done.add(id(info))

    groups = [app] + [g.typer_instance for g in app.registered_groups if g.typer_instance is not None]
    for group in groups:
        translate(group.info)
        callback = getattr(group, "registered_callback", None)   # the app's own options (--version)
        for info in [*group.registered_commands, *([callback] if callback is not None else [])]:
            if info.callback is None:
                continue
            if info.help is None and info is not callback and (doc := inspect.getdoc(info.callback)):
                info.help = _(doc)
                if info.short_help:   # the app's list of commands: the first paragraph, whole (cli.summary)
                    info.short_help = " ".join(info.help.strip().split("\n\n")[0].split())
            original = inspect.unwrap(info.callback)
            try:   # evaluated once and kept, as annotations_evaluated_once does: typer then reads these
                evaluated = typing.get_type_hints(original, include_extras=True)
            except Exception:  # noqa: BLE001 - typer will say what is wrong; its help stays as written
                continue
            original.__annotations__ = info.callback.__annotations__ = evaluated
            hints = evaluated.values()
            defaults = inspect.signature(original).parameters.values()
            for meta in [m for hint in hints for m in getattr(hint, "__metadata__", ())] + [p.default for p in defaults]:
                translate(meta)


# typer writes some words of --help without gettext (the click it vendors, from typer 0.16 on, has
# none; an older click wrote "Usage:" through gettext): "Usage:", the --help option's own help and
# the app's completion options. The app's command and group classes (typer's `cls=`, its public way
# to change them) say them in the language here, through click's public methods: format_usage (also
# the usage line of a usage error), get_help_option and get_params. In English they are the very
# same words. A usage error ("Error:", "Try … for help.", the message) is said by LocalGroup.main
# (usageerrors.py), from the exception's public attributes.
from typer.core import TyperCommand, TyperGroup  # noqa: E402 - typer.core: imported with typer anyway

from .i18n import N_  # noqa: E402

# typer's help of the completion options, as it writes them (another typer's words stay as they are).
COMPLETION_HELP = {text: text for text in (
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."))}


def _usage(command: Any, ctx: Any, formatter: Any) -> None:
    from .i18n import _

    formatter.write_usage(ctx.command_path, " ".join(command.collect_usage_pieces(ctx)), _("Usage:") + " ")


def _help_option(option: Any) -> Any:
    from .i18n import _

    if option is not None:
        option.help = _("Show this message and exit.")
    return option


class LocalCommand(TyperCommand):
    """A command whose usage line and --help option speak the language."""

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        _usage(self, ctx, formatter)

    def get_help_option(self, ctx: Any) -> Any:
        return _help_option(super().get_help_option(ctx))


class LocalGroup(TyperGroup):
    """The app and its command groups: their usage line, --help and completion options, and a usage
    error (usageerrors.py), speak the language."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from .i18n import DEFAULT, current

        if current() == DEFAULT or not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)   # English: the library's own words, as they were
        from typer import Abort, BadParameter

        from .i18n import _

        # click's exception classes, whichever click typer runs (its own from 0.16 on): by their public base
        usage_error, click_error = (cast("type[Exception]", next(c for c in BadParameter.__mro__ if c.__name__ == name))
                                    for name in ("UsageError", "ClickException"))
        try:   # click's standalone mode, but a usage error said here; the rest as click's standalone mode does
            code = super().main(*args, **{**kwargs, "standalone_mode": False})
        except usage_error as exc:
            from .usageerrors import say

            say(exc)
            sys.exit(getattr(exc, "exit_code", 2))
        except click_error as exc:
            failed: Any = exc   # (a ClickException: show and exit_code are click's public API)
            failed.show()
            sys.exit(failed.exit_code)
        except Abort:
            sys.stderr.write(_("Aborted!") + "\n")
            sys.stderr.flush()
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        _usage(self, ctx, formatter)

    def get_help_option(self, ctx: Any) -> Any:
        return _help_option(super().get_help_option(ctx))

    def get_params(self, ctx: Any) -> Any:
        from .i18n import _

        params: list[Any] = super().get_params(ctx)   # (a click Parameter has no help; an Option has)
        for param in params:   # the English is kept: a second run in this process may speak another language
            english = getattr(param, "english_help", None) or getattr(param, "help", None)
            if english in COMPLETION_HELP:
                param.english_help = english
                param.help = _(COMPLETION_HELP[english])
        return params
