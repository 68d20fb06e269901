"""A new file written whole or not at all, never over anything that is there.

The bytes go to a temporary file created exclusively beside the target (never through a
symbolic link), are flushed to disk, and are then hard-linked to the target's name: link() fails
if the name exists as anything at all (a file, a symbolic link, even a dangling one, a FIFO, a
device), and never follows it; so nothing is overwritten and the name never shows half a file.
Where the filesystem has no hard links, the target itself is created exclusively (O_EXCL,
O_NOFOLLOW) and written; a failure removes it.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
from pathlib import Path

from ..errors import ActionRefused
from ..i18n import _

_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def exists_message(path: Path) -> str:
    return _("{path} already exists; freeze-list never overwrites a file: choose another --output, "
             "or move that file away first").format(path=path)


def _plain(path: Path, exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return _("{path}: the disk is full; nothing was written").format(path=path)
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return _("{path}: not allowed to write there ({why}); nothing was written").format(path=path, why=exc.strerror)
    return _("{path}: could not write it ({why}); nothing was written").format(path=path, why=exc.strerror or exc)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_leftovers(path: Path) -> None:
    """Temporary files of an earlier write of this name that was killed (our exact name pattern only,
    regular files only, never through a link)."""
    ours = re.compile(rf"\.{re.escape(path.name)}\.[0-9a-f]{{16}}\.tmp")
    try:
        entries = list(os.scandir(path.parent if str(path.parent) else "."))
    except OSError:
        return
    for entry in entries:
        try:
            if ours.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        except OSError:
            pass


def create_new(path: Path, data: bytes) -> os.stat_result:
    """Write `data` to the new file `path`; ActionRefused if the name is taken or the write fails."""
    folder = path.parent if str(path.parent) else Path(".")
    if os.path.lexists(path):
        raise ActionRefused(exists_message(path))
    if not folder.is_dir():
        if os.path.lexists(folder):
            from ..safewrite import not_a_folder

            raise ActionRefused(not_a_folder(path, folder))
        raise ActionRefused(_("{path}: the folder {folder} does not exist").format(path=path, folder=folder))
    tmp = folder / f".{path.name}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(tmp, _FLAGS, 0o644)
    except OSError as exc:
        raise ActionRefused(_plain(path, exc)) from None
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path, follow_symlinks=False)
        except FileExistsError:
            raise ActionRefused(exists_message(path)) from None
        except OSError as exc:
            if exc.errno not in _NO_LINKS:
                raise
            _create_in_place(path, data)
    except OSError as exc:
        raise ActionRefused(_plain(path, exc)) from None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    _sync_folder(folder)
    return os.stat(path, follow_symlinks=False)


def _create_in_place(path: Path, data: bytes) -> None:
    try:
        fd = os.open(path, _FLAGS, 0o644)
    except FileExistsError:
        raise ActionRefused(exists_message(path)) from None
    try:
        _write_all(fd, data)
    except BaseException:
        os.close(fd)
        os.unlink(path)
        raise
    os.close(fd)


def remove_created(path: Path, made: os.stat_result) -> None:
    """Remove the file create_new made, if the name still holds that very file."""
    try:
        now = os.stat(path, follow_symlinks=False)
        if (now.st_ino, now.st_dev) == (made.st_ino, made.st_dev):
            os.unlink(path)
    except OSError:
        pass
