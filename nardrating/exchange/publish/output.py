"""Writing the site: into a fresh folder beside OUTDIR, swapped in whole; OUTDIR is never written into.

The pages go into a new folder made next to OUTDIR (private while it is filled, so nothing else can
put a link into it), with the files of OUTDIR that publish did not write (a CNAME, a .git folder,
what --force wrote over) linked in beside them; then the new folder takes OUTDIR's place in one
step (Linux's renameat2 RENAME_EXCHANGE; elsewhere two renames, the first undone if the second
fails). A failure before that step removes the new folder: OUTDIR is as it was, and nothing was
written. After it, what was OUTDIR is removed: the pages an earlier publish wrote whose content is
still what it wrote (the marker lists each file's SHA-256, as `sha256sum` does), and the links of
what was carried over. A page of an earlier publish that someone changed since, or a file publish did
not write where a page now goes, is never replaced without --force. A symbolic link is never
followed: not OUTDIR itself, not a folder or marker in it.
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from ...datarecords import datarecord, field
from ...errors import ActionRefused
from ...i18n import _
from ...safefile import read_regular
from ...safewrite import OutputRefused

MARKER = ".nardrating-site"
# A page's path relative to OUTDIR: plain names, no leading dot, no "..", a few folders deep.
PAGE = re.compile(r"(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}/){0,3}[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")
_MARKER_LINE = re.compile(r"([0-9a-f]{64})  (\S+)")
_HEADING = "# the files nardrating publish wrote here: check them with `sha256sum -c .nardrating-site`\n"


@datarecord
class Old:
    """What OUTDIR holds now, by path relative to it (entries of folders included)."""
    ours: dict[str, os.stat_result] = field(default_factory=dict)     # pages as publish wrote them
    others: dict[str, os.stat_result] = field(default_factory=dict)   # anything else (folders too)
    made_by_publish: bool = False


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_outdir(outdir: Path, protect: Iterable[Path]) -> None:
    """Refuse an OUTDIR that is a link or not a folder, or that holds the club's own files."""
    try:
        st = os.lstat(outdir)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        blocking = next((p for p in reversed(outdir.parents) if os.path.lexists(p) and not p.is_dir()), outdir.parent)
        raise ActionRefused(_("{outdir}: {file} is a file, not a folder, so the site cannot be made there; nothing "
                              "was written").format(outdir=outdir, file=blocking)) from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise ActionRefused(_("{outdir} is a symbolic link (to {target}); publish never writes through a link, so "
                              "nothing was written. Give the folder itself.").format(
            outdir=outdir, target=os.readlink(outdir)))
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise ActionRefused(_("{outdir} is not a folder").format(outdir=outdir))
    if st is not None and st.st_dev != os.stat(outdir.absolute().parent).st_dev:
        raise ActionRefused(_("{outdir} is a mount point (a filesystem of its own); publish swaps the folder in "
                              "whole, which a mount point cannot be, so nothing was written. Publish into a "
                              "folder inside it.").format(outdir=outdir))
    root = os.path.realpath(outdir)
    for own in protect:
        real = os.path.realpath(own)
        if os.path.commonpath([root, real]) == root:
            raise ActionRefused(_("{outdir} holds the club's own file {file}; publish replaces its folder whole, "
                                  "so nothing was written. Publish into a folder of its own, e.g. {example}.").format(
                outdir=outdir, file=own, example=outdir / "site"))


@contextmanager
def locked(outdir: Path) -> Iterator[None]:
    """One publish at a time into OUTDIR: a lock on the folder itself (flock of its descriptor, so
    nothing is made for it), taken again on the new folder if another publish swapped one in while
    this one waited. (Two publishes that both create OUTDIR: the second finds it made and fails.)"""
    import fcntl

    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        try:
            fd = os.open(outdir, flags)
        except OSError:
            yield  # no folder yet (or not one: check_outdir says so)
            return
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.stat(outdir, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                break
        except OSError:
            pass
        os.close(fd)
    try:
        yield
    finally:
        os.close(fd)


def survey(outdir: Path) -> Old:
    """Every entry of OUTDIR, never through a link; a page counts as publish's if the marker lists
    it with the SHA-256 of what it holds now."""
    old = Old()
    if not outdir.is_dir():
        return old
    listed = _marker(outdir)
    old.made_by_publish = listed is not None
    for folder, dirs, files in os.walk(outdir):  # os.walk does not follow links to folders
        for name in dirs + files:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, outdir).replace(os.sep, "/")
            st = os.lstat(path)
            if relative == MARKER and old.made_by_publish:
                old.ours[relative] = st
            elif listed and relative in listed and stat.S_ISREG(st.st_mode) and _holds(path, listed[relative]):
                old.ours[relative] = st
            else:
                old.others[relative] = st
    return old


def _marker(outdir: Path) -> dict[str, str] | None:
    """The marker's files and their SHA-256, or None where there is no marker (a link is none)."""
    try:
        raw, _st = read_regular(outdir / MARKER, follow_symlinks=False)
    except OSError:
        return None
    listed = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        m = _MARKER_LINE.fullmatch(line)
        if m and PAGE.fullmatch(m[2]):
            listed[m[2]] = m[1]
    return listed


def _holds(path: str, sha256: str) -> bool:
    try:
        data, _st = read_regular(path, follow_symlinks=False)
    except OSError:
        return False
    return digest(data) == sha256


def folders_of(files: Iterable[str]) -> set[str]:
    return {"/".join(f.split("/")[:k]) for f in files for k in range(1, f.count("/") + 1)}


def check_conflicts(outdir: Path, old: Old, pages: Iterable[str] | None, force: bool) -> None:
    """Refuse (unless forced) a folder publish did not make, and to write over what publish did not
    write or over its page changed since (`pages`: the paths about to be written; None: not yet known)."""
    if force:
        return
    if old.others and not old.made_by_publish:
        raise ActionRefused(_("{outdir} is not empty and was not made by nardrating publish (no {marker} in it); "
                              "choose an empty or new folder, or add --force to write into it anyway").format(
            outdir=outdir, marker=MARKER))
    if pages is None:
        return
    pages = set(pages)
    needed = folders_of(pages)
    clash = sorted(p for p, st in old.others.items()
                   if p in pages or p in needed and not stat.S_ISDIR(st.st_mode))
    if clash:
        shown = ", ".join(clash[:5]) + (", …" if len(clash) > 5 else "")
        raise ActionRefused(_("{outdir}: {files}: not as publish wrote it (changed since, or not its own); publish "
                              "would replace it, so nothing was written. Move it away, or add --force.").format(
            outdir=outdir, files=shown))


def write_site(outdir: Path, pages: Mapping[str, bytes], old: Old) -> list[str]:
    """The new site in a fresh folder beside OUTDIR, swapped in; (notes about what was left)."""
    for relative in pages:
        if not PAGE.fullmatch(relative) or relative == MARKER:
            raise ActionRefused(_("{page!r} is not a file name publish writes").format(page=relative))
    made_parents = [p for p in outdir.parents if not os.path.lexists(p)]
    try:
        outdir.parent.mkdir(parents=True, exist_ok=True)
        new = Path(tempfile.mkdtemp(prefix=f".{outdir.name}.publish-", dir=outdir.parent))
    except OSError as exc:
        _remove_folders(made_parents)
        raise OutputRefused(failure(outdir, exc)) from None
    try:
        _fill(new, outdir, pages, old)
        os.chmod(new, stat.S_IMODE(old_mode(outdir)))
        swapped = _swap(new, outdir)
    except BaseException as exc:
        shutil.rmtree(new, ignore_errors=True)
        _remove_folders(made_parents)
        if isinstance(exc, OSError):
            raise OutputRefused(failure(outdir, exc)) from None
        raise
    return [] if swapped is None else _remove_old(swapped, outdir, old, pages)


def failure(outdir: Path, exc: OSError) -> str:
    """An OSError while writing the site, in plain words: OUTDIR is as it was."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return _("{outdir}: the disk is full; nothing was written, the site is as it was. Free some space and "
                 "run the command again.").format(outdir=outdir)
    return _("{outdir}: could not write the site ({reason}); nothing was written, the site is as it was.").format(
        outdir=outdir, reason=exc.strerror or exc)


def old_mode(outdir: Path) -> int:
    try:
        return os.stat(outdir).st_mode
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o777 & ~mask


def _fill(new: Path, outdir: Path, pages: Mapping[str, bytes], old: Old) -> None:
    """The pages, the marker and the links of what OUTDIR holds besides, each file synced."""
    made = []
    needed = folders_of(pages)
    for relative, st in sorted(old.others.items()):  # parents before what they hold
        parts = relative.split("/")
        if relative == MARKER or relative in pages or relative in needed and not stat.S_ISDIR(st.st_mode) or \
                any("/".join(parts[:k]) in pages for k in range(1, len(parts))):
            continue  # written over (--force)
        if not (new / relative).parent.is_dir():
            continue  # inside a link or file that a page's folder replaced
        _carry(outdir / relative, new / relative, st)
    for sub in sorted(needed):
        (new / sub).mkdir(exist_ok=True)
    listing = _HEADING + "".join(f"{digest(data)}  {relative}\n" for relative, data in sorted(pages.items()))
    try:
        for relative, data in [*pages.items(), (MARKER, listing.encode("utf-8"))]:
            made.append(_create(new / relative, data))
        for fd in made:  # synced together at the end: the disk writes them meanwhile
            os.fsync(fd)
    finally:
        for fd in made:
            os.close(fd)
    for sub in sorted(needed, reverse=True):
        _sync(new / sub)
    _sync(new)


def _create(path: Path, data: bytes) -> int:
    """A new file in the fresh folder (exclusively, never through a link); its open descriptor."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BaseException:
        os.close(fd)
        raise
    return fd


def _carry(source: Path, target: Path, st: os.stat_result) -> None:
    """An entry of OUTDIR that is not publish's, into the new site: a folder made anew, anything
    else hard-linked (the same file, never copied through a link), a copy where it cannot be."""
    if stat.S_ISDIR(st.st_mode):
        target.mkdir()
        os.chmod(target, stat.S_IMODE(st.st_mode))
        return
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        if stat.S_ISLNK(st.st_mode):
            os.symlink(os.readlink(source), target)
        elif stat.S_ISREG(st.st_mode):
            shutil.copy2(source, target, follow_symlinks=False)
        else:
            raise


def _swap(new: Path, outdir: Path) -> Path | None:
    """Put `new` in OUTDIR's place; where the old OUTDIR went (None: there was none)."""
    if not os.path.lexists(outdir):
        os.rename(new, outdir)  # (fails if a folder with something in it appeared meanwhile)
        return None
    if _exchange(new, outdir):
        return new
    aside = Path(tempfile.mkdtemp(prefix=f".{outdir.name}.old-", dir=outdir.parent))
    os.rename(outdir, aside)  # replaces the empty folder just made
    try:
        os.rename(new, outdir)
    except BaseException:
        os.rename(aside, outdir)
        raise
    return aside


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where it is not offered."""
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_cwd, rename_exchange = -100, 2
    if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove_old(old_site: Path, outdir: Path, old: Old, pages: Mapping[str, bytes]) -> list[str]:
    """What OUTDIR held, now beside it: removed where it is what the survey saw (publish's pages, the
    links of what was carried over, what --force wrote over); anything else is left, and said."""
    expected = {**old.others, **old.ours}
    for folder, dirs, files in os.walk(old_site, topdown=False):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, old_site).replace(os.sep, "/")
            seen = expected.get(relative)
            try:
                st = os.lstat(path)
                if seen is not None and (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns) == \
                        (seen.st_ino, seen.st_dev, seen.st_size, seen.st_mtime_ns):
                    os.unlink(path)
            except OSError:
                pass
        try:
            os.rmdir(folder)
        except OSError:
            pass
    if os.path.lexists(old_site):
        return [_("{folder}: what {outdir} held before was left there (it changed while publishing); "
                  "look through it and remove it").format(folder=old_site, outdir=outdir)]
    return []


def _sync(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_folders(folders: list[Path]) -> None:
    for folder in folders:  # the deepest first; only while empty
        try:
            folder.rmdir()
        except OSError:
            pass
