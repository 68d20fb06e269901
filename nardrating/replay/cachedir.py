"""Where the cache lives, and the only ways it is written, read and deleted.

A club's cache is a folder of the user's own cache directory,
`$XDG_CACHE_HOME/nardrating/<key>/` (else `~/.cache/nardrating/<key>/`), the key
being a hash of the club config's resolved path: it never travels with a club
folder. Every operation goes through a descriptor of that folder, opened
without following a symlink and checked to be this user's folder: files are
created with O_EXCL|O_NOFOLLOW, renamed inside it, deleted by exact name, and
read only if they are regular files that are not symlinks.
"""
from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..safefile import open_regular, read_regular

if TYPE_CHECKING:
    from array import array
    from ..config import ClubConfig

_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
# (O_NONBLOCK: a FIFO in a file's place makes the open fail at once, not wait for a reader)
_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
# Every name this program creates in a cache folder; nothing else is ever read or deleted.
TOKEN = re.compile(r"[0-9a-f]{12}")
OWN_NAME = re.compile(r"manifest\.json|config\.json|journal-[0-9a-f]{12}\.json|matches-[0-9a-f]{12}\.bin|tournaments-[0-9a-f]{16}\.json"
                      r"|result-[0-9a-f]{16}\.state|result-[0-9a-f]{16}-[0-9a-f]{12}\.bin|standings-[0-9a-f]{16}\.json|standings-state-[0-9a-f]{16}\.json|standings-delta-[0-9a-f]{16}\.json|history-[0-9a-f]{16}\.bin|dated-[0-9a-f]{16}\.json"
                      r"|\.tmp-[0-9a-f]{16}")


def root() -> Path:
    """The user's cache directory for nardrating (XDG base directory rules)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
        if not os.path.isabs(base):  # no home directory known: no cache, rather than one in "./~"
            raise FileNotFoundError("no home directory for a cache")
    return Path(base) / "nardrating"


def club_key(config: ClubConfig) -> str:
    return hashlib.sha256(str(config.path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:32]


class CacheFolder:
    """An open, verified cache folder of one club (use as a context manager)."""

    def __init__(self, config: ClubConfig, create: bool) -> None:
        self.path = root() / club_key(config)
        if create:
            _make_private(self.path)
        self.fd = os.open(self.path, _FOLDER_FLAGS)  # FileNotFoundError when there is none yet
        try:
            st = os.fstat(self.fd)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
                raise PermissionError(f"{self.path} is not a private folder of this user")
        except BaseException:
            os.close(self.fd)
            raise

    def __enter__(self) -> "CacheFolder":
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)

    def read(self, name: str) -> tuple[bytes, os.stat_result]:
        return read_regular(self._own(name), follow_symlinks=False)

    def open(self, name: str) -> int:
        return open_regular(self._own(name), follow_symlinks=False)

    def write(self, name: str, data: bytes | Iterable[bytes | array[Any] | memoryview]) -> os.stat_result:
        """Replace `name` atomically with `data` (or its parts, written one by one: bytes, or a
        contiguous array or view written as it lies, not copied into bytes first); returns the new
        file's stat (to bind readers to it)."""
        tmp = f".tmp-{os.urandom(8).hex()}"
        fd = os.open(tmp, _NEW_FILE_FLAGS, 0o600, dir_fd=self.fd)
        try:
            with os.fdopen(fd, "wb") as out:
                for part in [data] if isinstance(data, bytes) else data:
                    out.write(part)
            os.replace(tmp, self._own(name, path=False), src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self.remove(tmp)
            raise
        return os.stat(name, dir_fd=self.fd, follow_symlinks=False)

    def append(self, name: str, file: tuple[int, int], size: int, data: Iterable[bytes]) -> os.stat_result:
        """Append `data` to `name`, if it is still the regular file `file` (st_dev, st_ino) of `size`
        bytes; raises otherwise, or on any error (what was appended then is a reader's to refuse)."""
        fd = os.open(self._own(name, path=False), _APPEND_FLAGS, dir_fd=self.fd)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != file or st.st_size != size:
                raise FileExistsError(f"{name} is not the file read")
            for part in data:
                view = memoryview(part)
                while view:
                    view = view[os.write(fd, view):]
            return os.fstat(fd)
        finally:
            os.close(fd)

    def remove(self, name: str) -> None:
        """Delete one of our own files by exact name; never a symlink, a folder or anything else."""
        try:
            if OWN_NAME.fullmatch(name) and stat.S_ISREG(os.stat(name, dir_fd=self.fd, follow_symlinks=False).st_mode):
                os.unlink(name, dir_fd=self.fd)
        except OSError:
            pass

    def names(self) -> list[str]:
        return [name for name in os.listdir(self.fd) if OWN_NAME.fullmatch(name)]

    def age_s(self, name: str, now: float) -> float:
        return now - os.stat(name, dir_fd=self.fd, follow_symlinks=False).st_mtime

    def _own(self, name: str, path: bool = True) -> Path | str:
        if not OWN_NAME.fullmatch(name):
            raise ValueError(f"not a cache file name: {name!r}")
        return self.path / name if path else name


def write_manifest(folder: CacheFolder, manifest: dict[str, Any]) -> None:
    """The manifest of the club's snapshot (cache.py), stamped with the time it is written."""
    import json
    import time

    manifest["written_ns"] = time.time_ns()
    folder.write("manifest.json", json.dumps(manifest).encode("utf-8"))


def _make_private(path: Path) -> None:
    """Create the folder and missing parents with mode 0700 (XDG: user-only)."""
    missing = []
    for folder in (path, *path.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
