"""The start-up shortcuts of the command line (nardrating/_startup.py) change nothing a user sees."""
import subprocess
import sys

import pytest
import typer

from nardrating._startup import only_invoked_command

from .conftest import SAMPLES


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.command()
    def first_one(n: int = 1):
        print(n)

    @app.command("second")
    def other():
        pass

    group = typer.Typer()
    app.add_typer(group, name="group")

    @group.command()
    def inner():
        pass

    return app


def registered(app: typer.Typer) -> tuple[int, int]:
    return len(app.registered_commands), len(app.registered_groups)


def test_only_the_command_argv_names_is_built():
    for argv, kept in ((["nardrating", "first-one", "--n", "3"], (1, 0)),   # named by its function
                       (["nardrating", "second"], (1, 0)),                   # by its given name
                       (["nardrating", "group", "inner"], (0, 1))):         # a command group
        app = make_app()
        only_invoked_command(app, argv)
        assert registered(app) == kept, argv


def test_anything_else_keeps_every_command():
    for argv in (["nardrating"], ["nardrating", "--help"], ["nardrating", "frist-one"]):
        app = make_app()
        only_invoked_command(app, argv)
        assert registered(app) == (2, 1), argv


def test_a_misspelt_command_is_still_told_the_nearest_one():
    done = subprocess.run([sys.executable, "-m", "nardrating", "leaderbord"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "No such command 'leaderbord'." in done.stderr
    try:
        import click
        suggests = tuple(map(int, click.__version__.split(".")[:2])) >= (8, 2)
    except ImportError:  # typer's own copy of click (typer 0.2x), which suggests
        suggests = True
    if suggests:  # click before 8.2, under old typers, names no nearest command
        assert "No such command 'leaderbord'. Did you mean 'leaderboard'?" in done.stderr


# --- every shortcut against no shortcut, on whichever typer, click, pydantic and rich are installed ---
# (CI runs this file with the newest versions pyproject allows and again with the oldest: .ci/run.)

RUN = """
import sys
import nardrating._startup as shortcuts
if sys.argv[1] == "plain":   # no shortcut: what typer and pydantic do by themselves
    for name in ("no_pydantic_plugin_loader", "lazy_typer_coercion", "only_invoked_command", "annotations_evaluated_once"):
        setattr(shortcuts, name, lambda *args: None)
sys.argv = ["nardrating", *sys.argv[2:]]
from nardrating.cli import main
try:
    main()
finally:
    import typer.core
    print("lazy" if getattr(getattr(typer.core, "build_runtime_param", None), "lazy", False) else "eager",
          "pydantic.main" in sys.modules, file=sys.stderr)
"""
CHESS = str(SAMPLES / "chess-club")
NARDY = str(SAMPLES / "nardy-club")
ARGVS = [
    ["--help"], ["leaderboard", "--help"], ["add-match", "--help"], [], ["--version"],
    ["leaderboard", "--club", CHESS], ["leaderboard", "--club", CHESS, "--all", "--format", "json"],
    ["history", "anna", "--club", CHESS, "--last", "2"], ["history", "anna", "--club", CHESS, "--last", "0"],
    ["history", "anna", "--club", CHESS, "--last", "two"], ["players", "--club", NARDY, "--format", "csv"],
    ["leaderboard", "--club", CHESS, "--as-of", "2009-01-15"], ["leaderboard", "--club", CHESS, "--as-of", "soon"],
    ["leaderboard", "--club", CHESS, "--format", "yaml"], ["leaderboard", "--club", CHESS, "--bogus"],
    ["report", "--club", CHESS, "--period", "2009-01", "--details"], ["leaderbord"], ["history", "--club", CHESS],
    ["predict", "anna", "boris", "--club", CHESS, "--format", "json"],
    ["explain", "m0001", "--club", CHESS], ["check", "--club", CHESS],
]


def run(mode, argv, env):
    done = subprocess.run([sys.executable, "-c", RUN, mode, *argv], capture_output=True, text=True, env=env)
    *said, shown = done.stderr.rstrip("\n").split("\n")
    return (done.returncode, done.stdout, "\n".join(said)), shown.split()


# Each case runs three processes; the default run keeps one of each kind (help, a table, a refusal, a
# usage error, a check), the slow run (and CI's run against the oldest versions) every one.
# (a read of the club and a typo by default; the rest in the slow run)
DEFAULT_ARGVS = [["leaderboard", "--club", CHESS], ["leaderbord"]]


@pytest.mark.parametrize("argv", [argv if argv in DEFAULT_ARGVS else pytest.param(argv, marks=pytest.mark.slow)
                                  for argv in ARGVS], ids=" ".join)
def test_every_shortcut_changes_nothing_a_user_sees(argv, tmp_path):
    import os

    env = {**os.environ, "NARDRATING_CLUB": "", "COLUMNS": "100", "XDG_CACHE_HOME": str(tmp_path)}
    plain, _ = run("plain", argv, env)
    run("shortcuts", argv, env)                       # once to fill the cache, as a user's second run
    with_shortcuts, (coercion, _) = run("shortcuts", argv, env)
    assert with_shortcuts == plain
    import typer.core

    # Where typer builds a pydantic adapter per parameter (typer._coercion), it is built only when needed.
    assert coercion == ("lazy" if hasattr(typer.core, "build_runtime_param") else "eager")


def test_the_plugin_loader_stand_in_answers_as_pydantics_own(monkeypatch):
    """With plugins disabled pydantic's loader finds none; the stand-in says the same without importing
    importlib.metadata, and pydantic validates and refuses as before."""
    import os

    code = ("import os, sys; os.environ['PYDANTIC_DISABLE_PLUGINS'] = '__all__'\n"
            "import nardrating._startup as s\n"
            "if sys.argv[1] == 'stand-in': s.no_pydantic_plugin_loader()\n"
            "from pydantic import BaseModel, ValidationError\n"
            "class M(BaseModel):\n    k: float\n"
            "from pydantic.plugin._loader import get_plugins\n"
            "try:\n    M(k='x')\nexcept ValidationError as e:\n    print(e.errors()[0]['type'])\n"
            "print(M(k=2).k, list(get_plugins()))")
    outputs = [subprocess.run([sys.executable, "-c", code, mode], capture_output=True, text=True, check=True,
                              env={**os.environ}).stdout for mode in ("own", "stand-in")]
    assert outputs[0] == outputs[1] == "float_parsing\n2.0 []\n"


# --- a usage error in the locale's language (nardrating/usageerrors.py), on whichever typer and click ---

RU = {"LANG": "ru_RU.UTF-8"}


@pytest.fixture
def cli():
    """The CLI in-process, its stderr apart on every click (older click's runner mixes it in by default)."""
    import inspect

    from typer.testing import CliRunner

    from nardrating.cli import app

    apart = {"mix_stderr": False} if "mix_stderr" in inspect.signature(CliRunner.__init__).parameters else {}
    runner = CliRunner(**apart)

    def run(*args, env):
        return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "100", "NARDRATING_CLUB": "", **env})

    return run


@pytest.mark.parametrize("argv, error", [
    (["leaderboard", "--bogus"], "Ошибка: Нет параметра --bogus"),
    (["leaderboard", "extra"], "Ошибка: Лишние аргументы (extra)"),
    (["leaderboard", "--as-of"], "Ошибка: Параметру '--as-of' нужно значение."),
    (["leaderboard", "--as-of", "07.12.2026"], "Ошибка: Неверное значение --as-of: '07.12.2026' — не дата; пишите "
                                               "ГГГГ-ММ-ДД: 2026-12-07"),
    (["add-match", "anna", "boris", "--draw", "--winner", "anna"], "Ошибка: Неверное значение --draw: у ничьей нет "
     "победителя и другого результата: укажите что-то одно: --draw, --winner или --result"),
])
def test_a_usage_error_is_said_in_the_locales_language(cli, argv, error):
    said = cli(argv[0], "--club", CHESS, *argv[1:], env=RU)
    assert said.exit_code == 2
    lines = said.stderr.splitlines()
    assert lines[-1] == error and "Traceback" not in said.output
    if lines[0].startswith("Использование:"):   # (an option without its value has no usage line)
        command = argv[0]
        assert lines[0].startswith(f"Использование: nardrating {command} [OPTIONS]")   # (A B, or {A} {B} on newer typers)
        assert lines[1:3] == [f"Справка: 'nardrating {command} --help'.", ""]
    else:
        assert lines == [error]
    # and in English, the library's own words, as they were
    english = cli(argv[0], "--club", CHESS, *argv[1:], env={"LANG": "C"})
    assert english.exit_code == 2 and "Error" in english.stderr and "Ошибка" not in english.stderr   # (older typers: a panel)


def test_a_misspelt_command_or_a_missing_argument_in_russian(cli):
    said = cli("leaderbord", env=RU).stderr.splitlines()
    assert said[:3] == ["Использование: nardrating [OPTIONS] COMMAND [ARGS]...", "Справка: 'nardrating --help'.", ""]
    assert said[3].startswith("Ошибка: Нет команды 'leaderbord'.")   # (newer typers add: Может быть, 'leaderboard'?)
    missing = cli("history", "--club", CHESS, env=RU)
    assert missing.exit_code == 2 and missing.stderr.splitlines()[-1].startswith("Ошибка: Не указан аргумент ")
    no_group_command = cli("export", env=RU)
    shown = no_group_command.stdout + no_group_command.stderr   # its help (click 8.2 on: on stderr, exit 2)
    assert no_group_command.exit_code in (0, 2) and "Ошибка" not in shown
    assert "Использование: nardrating export [OPTIONS] COMMAND [ARGS]..." in shown   # (older typers: in a panel)
