"""Reading files that the user or the cache handed us: regular files only, never a hang.

A FIFO opened for reading blocks until someone writes to it, and a device or a
folder is no journal: each is refused at once, before a byte is read. The file
is opened without following a last-component symlink only where asked.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .i18n import N_, _


class NotRegularFile(OSError):
    """The path names something other than a regular file (a FIFO, a device, a folder…)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return N_("a folder")
    if stat.S_ISFIFO(mode):
        return N_("a named pipe (FIFO)")
    if stat.S_ISSOCK(mode):
        return N_("a socket")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return N_("a device")
    if stat.S_ISLNK(mode):
        return N_("a symbolic link")
    return N_("not a regular file")


def open_regular(path: Path | str, *, follow_symlinks: bool = True) -> int:
    """A read-only descriptor of a regular file; NotRegularFile or another OSError otherwise.

    O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer;
    the file type is then checked on the open descriptor itself (no race with a swap).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(_("{path} is {kind}, not a regular file").format(path=path, kind=_(_kind(mode))))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path | str, *, follow_symlinks: bool = True) -> tuple[bytes, os.stat_result]:
    """The whole content of a regular file and its stat, read through one descriptor."""
    fd = open_regular(path, follow_symlinks=follow_symlinks)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        return f.read(), st
