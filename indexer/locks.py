"""One exclusive flock, retried for a while: the build's lock and the meaning daemon's. Its own
module so that a process that only takes a lock (a starting daemon) imports nothing else."""

from __future__ import annotations

import errno
import fcntl
import time
from typing import Any


def take_lock(handle: Any, wait_seconds: float) -> bool:
    """An exclusive flock on an open file, retried until `wait_seconds` have passed: whether
    this process holds it (False: another one does)."""
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EACCES):
                raise
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
