"""Long work shows a progress bar on stderr, but only when stderr is a terminal."""
import os
import pty
import subprocess
import sys

import pytest

from .conftest import SAMPLES


def run_recalc(stderr_is_terminal: bool) -> bytes:
    env = {**os.environ, "NARDRATING_PROGRESS_AFTER": "0", "NARDRATING_NO_CACHE": "1", "COLUMNS": "80"}
    args = [sys.executable, "-m", "nardrating", "recalc", "--club", str(SAMPLES / "nardy-club")]
    if not stderr_is_terminal:
        done = subprocess.run(args, env=env, capture_output=True, timeout=60)
        assert done.returncode == 0
        return done.stderr
    try:
        leader, follower = pty.openpty()
    except OSError:
        pytest.skip("no pseudo-terminal on this machine")
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait(timeout=60) == 0
    os.close(leader)
    return seen


def test_no_progress_output_when_stderr_is_not_a_terminal():
    assert run_recalc(stderr_is_terminal=False) == b""


def test_progress_bar_on_a_terminal():
    shown = run_recalc(stderr_is_terminal=True).decode("utf-8", "replace")
    # rich draws the stage being worked on, with a bar, then clears it (transient).
    assert "replaying" in shown or "reading" in shown
