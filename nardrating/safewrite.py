"""Writing the files nardrating makes: whole or not at all, never through a link, never over a file
it did not make for that purpose. Every writer goes through here: the journal's append
(journal/writer.py), a file named by -o/FILE (leaderboard's xlsx, history's chart, backtest's plot),
init's files and the published site's pages (exchange/publish).

    replace_file(path, data, protect=club_files(config))   path's new content (a regular file, or none yet)
    with replacing(path, protect=...) as out: ...          the same, for a writer that streams into a file
    create_file(path, data)                                a file where nothing is, never over anything

The content goes into a new file made exclusively in the target's folder (unnamed, O_TMPFILE, where
Linux offers it, so that a killed writer leaves nothing behind), is flushed to the disk (fsync), and
only then takes the target's name: renamed over a regular file in one step, or linked to a name that
nothing holds (a link never replaces anything). A reader, a crash or a full disk sees the old file or
the new one, never a part of one. Refused before anything is written (OutputRefused, a plain
message): a target that is a symbolic link, a folder, a device, a FIFO or a socket; one of `protect`
(the club's config, journal files and lock), found by identity, so that another spelling of the path
or a hard link is caught too; a folder that does not exist. On any error the new file is removed
and the target is as it was.
"""
from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .errors import ActionRefused
from .i18n import _
from .safefile import _kind

if TYPE_CHECKING:
    from .config import ClubConfig

LOCK_NAME = ".nardrating.lock"   # the club's lock file (journal/writer.py takes it)


class OutputRefused(ActionRefused):
    """A file was not written, and the target is as it was; the message says why in plain words."""


Describe = Callable[[Path, OSError], str]   # an OSError of a write as a message
Commit = Callable[[bool], None]             # gives the new file its name: replace=True renames over it


def club_files(config: ClubConfig) -> list[Path]:
    """What no output may replace: the club's config, its journal files and its lock file."""
    return [config.path, *config.journal_paths(), config.folder / LOCK_NAME]


def failure(path: Path | str, exc: OSError) -> str:
    """An OSError of a write in plain words; the target is as it was."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return _("{path}: the disk is full; nothing was written (the file is as it was). "
                 "Free some space and run the command again.").format(path=path)
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return _("{path}: not allowed to write here ({reason}); nothing was written.").format(
            path=path, reason=exc.strerror or exc)
    return _("{path}: could not write the file ({reason}); nothing was written.").format(
        path=path, reason=exc.strerror or exc)


def not_a_folder(path: Path, folder: Path) -> str:
    """The refusal of an output whose folder is a file (or another thing that is not a folder)."""
    return _("{path}: {folder} is a file, not a folder; nothing was written.").format(path=path, folder=folder)


def check_target(path: Path, protect: Iterable[Path] = ()) -> os.stat_result | None:
    """The stat of the regular file `path` names (None: nothing there yet), or OutputRefused."""
    folder = _folder(path)
    if not folder.is_dir():
        if os.path.lexists(folder):
            raise OutputRefused(not_a_folder(path, folder))
        raise OutputRefused(_("{path}: the folder {folder} does not exist; nothing was written.").format(
            path=path, folder=folder))
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputRefused(failure(path, exc)) from None
    if stat.S_ISLNK(st.st_mode):
        raise OutputRefused(_("{path}: is a symbolic link (to {target}); nardrating never writes through a "
                              "link, so nothing was written. Give the file itself, or a new name.").format(
            path=path, target=os.readlink(path)))
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(_("{path}: is {kind}, not a regular file; nothing was written. Give a regular "
                              "file, or a new name.").format(path=path, kind=_(_kind(st.st_mode))))
    for own in protect:
        try:
            other = os.stat(own)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            raise OutputRefused(_("{path}: is the club's own file {file} (its config, a journal file or its lock), "
                                  "which an output never replaces; nothing was written. Give another name.").format(
                path=path, file=own))
    return st


@contextmanager
def replacing(path: Path | str, *, protect: Iterable[Path] = (), describe: Describe = failure) -> Iterator[IO[bytes]]:
    """A new file to write into; when the block ends without an error it replaces `path` (keeping
    its permissions), else it is removed and `path` is as it was. OSErrors become OutputRefused,
    with the message `describe` gives."""
    path = Path(path)
    protect = list(protect)
    old = check_target(path, protect)
    with _new_file(path, describe) as (out, commit):
        yield out
        check_target(path, protect)  # once more: what is there now is what is replaced
        if old is not None:
            os.fchmod(out.fileno(), stat.S_IMODE(old.st_mode))
        commit(True)


def replace_file(path: Path | str, data: bytes, *, protect: Iterable[Path] = (), describe: Describe = failure) -> None:
    """`data` as the whole new content of `path` (see `replacing`)."""
    with replacing(path, protect=protect, describe=describe) as out:
        out.write(data)


def create_file(path: Path | str, data: bytes) -> os.stat_result:
    """A new file `path` holding `data`, only where nothing is (not even a dangling link); its stat.

    The name is taken by a link, which fails if anything holds it: never a replacement."""
    path = Path(path)
    check_target(path)
    if os.path.lexists(path):
        raise OutputRefused(_("{path}: already exists; nothing was written over it.").format(path=path))
    with _new_file(path, failure) as (out, commit):
        out.write(data)
        commit(False)
        made = os.fstat(out.fileno())
    return made


def remove_created(path: Path, made: os.stat_result) -> None:
    """Undo create_file: remove `path` if it is still the very file made then."""
    try:
        st = os.lstat(path)
        if (st.st_dev, st.st_ino) == (made.st_dev, made.st_ino):
            os.unlink(path)
    except OSError:
        pass


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


_NAMED = "{name}.{token}.tmp"   # a named new file: ".NAME.XXXXXXXX.tmp" beside its target


def _named_temp(folder: Path, name: str) -> tuple[int, Path]:
    """A new file under a fresh name of its own in `folder`: created exclusively, never through a link."""
    while True:
        temp = folder / _NAMED.format(name="." + name, token=secrets.token_hex(4))
        try:
            fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        return fd, temp


def _unnamed(folder: Path) -> int | None:
    """A new file in `folder` without a name (Linux's O_TMPFILE), or None where there is none."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(folder, flag | os.O_RDWR | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            return None  # a filesystem or kernel without it
        raise


@contextmanager
def _new_file(path: Path, describe: Describe) -> Iterator[tuple[IO[bytes], Commit]]:
    """A new file in `path`'s folder and the step that gives it `path`'s name; removed on any error."""
    folder = _folder(path)
    temp: Path | None = None
    try:
        fd = _unnamed(folder)
        if fd is None:
            fd, temp = _named_temp(folder, path.name)
        out = os.fdopen(fd, "w+b")
    except OSError as exc:
        raise OutputRefused(describe(path, exc)) from None

    def commit(replace: bool) -> None:
        nonlocal temp
        out.flush()
        os.fsync(out.fileno())
        if temp is None:  # unnamed: link it in, to its name or to a temporary one to rename
            temp = _link_unnamed(out, folder, path, replace)
            if temp is None:
                return _sync_folder(folder)
        if replace:
            os.replace(temp, path)
        else:
            os.link(temp, path)
            os.unlink(temp)
        temp = None
        _sync_folder(folder)

    try:
        with out:
            yield out, commit
    except FileExistsError:
        raise OutputRefused(_("{path}: already exists; nothing was written over it.").format(path=path)) from None
    except OSError as exc:
        raise OutputRefused(describe(path, exc)) from None
    finally:
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass


def _link_unnamed(out: IO[bytes], folder: Path, path: Path, replace: bool) -> Path | None:
    """Give the unnamed file a name: `path` itself (None returned) or, to replace it, a temporary
    name to rename. Where /proc cannot link it, its bytes are copied to a named new file."""
    source = f"/proc/self/fd/{out.fileno()}"
    target = path
    if replace:
        target = folder / _NAMED.format(name="." + path.name, token=secrets.token_hex(4))
    folder_fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        # linkat(AT_SYMLINK_FOLLOW): the file behind the descriptor (with no folder descriptor
        # given, os.link calls link(), which would link the /proc entry itself and fail).
        os.link(source, target.name, dst_dir_fd=folder_fd, follow_symlinks=True)
    except OSError as exc:
        if exc.errno in (errno.EEXIST, errno.ENOSPC, errno.EDQUOT, errno.EROFS):
            raise
        return _copied(out, folder, path)
    finally:
        os.close(folder_fd)
    return target if replace else None


def _copied(out: IO[bytes], folder: Path, path: Path) -> Path:
    """The unnamed file's bytes in a named new file (removed again on any error)."""
    fd, temp = _named_temp(folder, path.name)
    try:
        with os.fdopen(fd, "wb") as copy:
            out.seek(0)
            while chunk := out.read(1 << 20):
                copy.write(chunk)
            copy.flush()
            os.fchmod(copy.fileno(), stat.S_IMODE(os.fstat(out.fileno()).st_mode))
            os.fsync(copy.fileno())
    except BaseException:
        os.unlink(temp)
        raise
    return temp


def _sync_folder(folder: Path) -> None:
    """The new name on the disk too (the rename or link is in the folder's own data)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems cannot sync a folder; the file itself is synced
    finally:
        os.close(fd)
