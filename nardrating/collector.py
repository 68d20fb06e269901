"""Python's cyclic garbage collector, paused while a replay or a reader builds many small objects.

Those objects live as long as the result and none of them is in a cycle: the collector's passes
would only scan them again and again (a third of a big replay's time).

After the pause they are all in the youngest generation, so the first allocation once the
collector runs again scans every one of them (0.2–0.5 s after a replay of 200,000 matches, and
nothing found to free). In a process that runs one command and ends (`nardrating` itself:
`one_command_process`), they are frozen instead: never scanned again, freed as usual when the
result is dropped. So is what is left when the command is done (`command_done`), which spares
the collection Python makes at exit. A result the command would drop only to end (`recalc`'s last
replay) is kept to the end instead (`kept_to_exit`): freeing a replay's millions of records one by
one takes a tenth of a big fide or mfsnb recalc, and the process's end takes its memory back at
once. A process that goes on (a test run, a program using the library) keeps the plain
behaviour: freezing there would also keep any cyclic garbage of the moment until the process
ends, once per replay.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_one_command = False
# What kept_to_exit holds. The list holds itself: when Python clears this module at exit, it is
# still referenced, so nothing it holds is freed object by object; frozen (command_done), the
# collection at exit does not look at it either.
_kept: list[object] = []
_kept.append(_kept)
_slots: dict[str, object] = {}   # what kept_to_exit holds by name: one thing each, the last given
_kept.append(_slots)


def one_command_process() -> None:
    """Say that this process ends with the command it runs (the command line's `main`)."""
    global _one_command
    _one_command = True


def command_done() -> None:
    """The command has run and its process is ending: what is left is frozen, so that Python's last
    collection at exit does not scan every object still alive (20–30 ms after a daily command) for
    leftovers the end of the process takes back anyway. Nothing in a process that goes on."""
    if _one_command:
        gc.freeze()


def kept_to_exit(thing: object, slot: str | None = None) -> bool:
    """In a one-command process, hold `thing` until the process ends and say True: the caller may
    leave it alive rather than free it. Elsewhere False: nothing is held. With a `slot`, the thing
    replaces what that slot held (freed as usual, if nothing else holds it)."""
    if _one_command:
        if slot is None:
            _kept.append(thing)
        else:
            _slots[slot] = thing
    return _one_command


@contextmanager
def collector_paused() -> Iterator[None]:
    """Inside the block the cyclic collector does not run; after it, it runs as before (also on an error)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            if _one_command:
                gc.freeze()
            gc.enable()
