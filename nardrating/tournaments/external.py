"""A pairing program named in the club's config: bbpPairings, JaVaFo or any engine that reads a
TRF(x) and writes a pairs file (the number of pairs, then 'WHITE BLACK' a line, 0 for the bye).

The command is a list of arguments; `{trf}` stands for the TRF file written from the state and
`{pairs}` for the file the program writes, e.g. bbpPairings:
    ["bbpPairings", "--dutch", "{trf}", "-p", "{pairs}"]
and JaVaFo: ["java", "-jar", "javafo.jar", "{trf}", "-p", "{pairs}"]. The program runs without a
shell, in a temporary folder, for at most `timeout` seconds.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from ..i18n import _
from .dutch import check_engine_pairs, left_out, needs_rounds, players_by_number
from .model import Tournament
from .pairing import Draft, Paired, PairingError, planned_out
from .trfx import read_pairs, write_trf

TIMEOUT = 120.0


class ExternalPairer:
    takes_requests = True

    def __init__(self, command: list[str], timeout: float = TIMEOUT) -> None:
        if not command or not any("{trf}" in part for part in command):
            raise PairingError(_("the pairing command must name the TRF file it reads as {{trf}}, e.g. "
                                 "[\"bbpPairings\", \"--dutch\", \"{{trf}}\", \"-p\", \"{{pairs}}\"]").format())
        self.command = command
        self.timeout = timeout

    def finished(self, state: Tournament) -> bool:
        return planned_out(state, None)

    def pair(self, draft: Draft) -> Paired:
        state = draft.state
        needs_rounds(state)
        if not draft.players:
            return Paired([])
        program = self.command[0]
        with tempfile.TemporaryDirectory(prefix="nardrating-pairing-") as folder:
            trf, pairs = Path(folder) / "round.trf", Path(folder) / "pairs.txt"
            trf.write_text(write_trf(state, pairing=left_out(draft)), encoding="utf-8")
            argv = [part.replace("{trf}", str(trf)).replace("{pairs}", str(pairs)) for part in self.command]
            try:
                done = subprocess.run(argv, cwd=folder, capture_output=True, timeout=self.timeout,
                                      stdin=subprocess.DEVNULL, check=False)
            except FileNotFoundError:
                raise PairingError(_("the pairing program {program!r} was not found; install it or fix the "
                                     "pairing command in nardrating.toml").format(program=program)) from None
            except subprocess.TimeoutExpired:
                raise PairingError(_("the pairing program {program!r} did not finish within {seconds:g} s").format(
                    program=program, seconds=self.timeout)) from None
            except OSError as exc:
                raise PairingError(_("the pairing program {program!r} could not be run: {error}").format(
                    program=program, error=exc.strerror or exc)) from None
            said = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
            if done.returncode != 0:
                raise PairingError(_("the pairing program {program!r} failed (exit {code}){said}").format(
                    program=program, code=done.returncode, said=": " + said[-1][:200] if said else ""))
            text = pairs.read_text(encoding="utf-8", errors="replace") if pairs.exists() else done.stdout.decode(
                "utf-8", "replace")
        try:
            found = read_pairs(text, state)
        except ValueError as exc:
            raise PairingError(_("the pairing program {program!r} wrote no pairs file nardrating can read: "
                                 "{why}").format(program=program, why=exc)) from None
        return check_engine_pairs(draft, players_by_number(state, found), program)
