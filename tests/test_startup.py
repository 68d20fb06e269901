"""The start-up shortcuts of the command line (nardrating/_startup.py) change nothing a user sees."""
import subprocess
import sys

import typer

from nardrating._startup import only_invoked_command


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
    assert "No such command 'leaderbord'. Did you mean 'leaderboard'?" in done.stderr
