"""Where the index lives in MTGRULES_HOME, which build is current, and the build lock.

Layout: index/CURRENT (JSON: the live build's folder and fingerprint), index/<build>/ (Whoosh
files), index/.lock. A build writes a new folder and swaps CURRENT atomically."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from corpus import paths
from corpus.library import write_atomic


class IndexError_(RuntimeError):
    """The index cannot be read or built; the message says what to do."""


def cannot_write(home: Path, error: OSError) -> IndexError_:
    return IndexError_(
        f"cannot write the index in {home} ({error.strerror}); "
        "free some space or set MTGRULES_HOME to a writable directory"
    )


def read_current(home: Path) -> dict[str, Any] | None:
    try:
        data: dict[str, Any] = json.loads((paths.index_root(home) / "CURRENT").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not (paths.index_root(home) / str(data.get("dir", ""))).is_dir():
        return None
    return data


def write_current(home: Path, data: dict[str, Any]) -> None:

    write_atomic(paths.index_root(home) / "CURRENT", json.dumps(data, ensure_ascii=False))


# The lock a build holds, for the processes it forks (parsers, Whoosh's writers): flock locks
# belong to the open file, which a fork shares, so a worker that outlived a killed build would
# keep the library locked. A forked worker drops its copy, dies with the build (Linux) and
# leaves Ctrl-C to the build.
_held: list[int] = []


def _in_forked_child() -> None:
    if not _held:
        return
    for descriptor in _held:
        with contextlib.suppress(OSError):
            os.close(descriptor)
    _held.clear()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()


def _die_with_parent() -> None:
    """PR_SET_PDEATHSIG: the kernel kills this process when the one that forked it dies.
    ctypes is imported at the top of this module, not here: this runs in a freshly forked
    child, where an import can wait forever on a lock another thread held at the fork. The
    process's own symbols include libc's (no ctypes.util: it imports subprocess, and its
    find_library runs ldconfig)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG


os.register_at_fork(after_in_child=_in_forked_child)


@contextmanager
def build_lock(home: Path, wait_seconds: float = 120.0) -> Iterator[None]:
    """One build at a time: a second one waits for the first, then gives up with a message."""
    root = paths.index_root(home)
    try:
        root.mkdir(parents=True, exist_ok=True)
        handle = open(root / ".lock", "a+")  # noqa: SIM115 - held for the whole block
    except OSError as error:
        raise IndexError_(
            f"cannot write the index in {root} ({error.strerror}); "
            "set MTGRULES_HOME to a writable directory"
        ) from None
    deadline = time.monotonic() + wait_seconds
    try:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() > deadline:
                    raise IndexError_(
                        "another mtgrules index build is still running; try again when it ends"
                    ) from None
                time.sleep(0.1)
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        _held.append(handle.fileno())
        yield
    finally:
        with contextlib.suppress(ValueError):
            _held.remove(handle.fileno())
        handle.close()
