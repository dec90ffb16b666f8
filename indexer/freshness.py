"""Is the index current? Content hashes of the sources and hashes of the code that made it.

Kept apart from the build so that a search checks freshness without importing Whoosh's
writing side. Every command asks, so a "fresh" is remembered (index/FRESH) with the size and
time of every file the fingerprint is made of: a command that finds them all as they were
hashes nothing, and loads no hashlib. That is the trust the documents' hashes already put in an
unchanged size and time (corpus.library.source_state), given to the code files too."""

from __future__ import annotations

import contextlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from corpus import paths
from corpus.library import code_version, source_state, write_atomic
from indexer.store import live_build

FRESH = "FRESH"  # in index/: the build last found fresh and the files' sizes and times then

INDEX_VERSION = "7"


@cache
def indexer_version() -> str:
    """A hash of the indexer's code: a changed schema or analyzer means a new index."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def code_stamp() -> str:
    """What a build's code was: an index from other code is rebuilt in full."""
    return f"{INDEX_VERSION}:{code_version()}:{indexer_version()}"


def fingerprint(home: Path, state: dict[str, list[Any]]) -> str:
    """Everything a build is made from: the code and its data, the documents, and the user's
    own alignment overrides (MTGRULES_HOME/alignment-overrides.tsv)."""
    import hashlib

    digest = hashlib.sha256(code_stamp().encode())
    with contextlib.suppress(OSError):  # no overrides of the user's own
        digest.update(hashlib.sha256(paths.user_overrides(home).read_bytes()).digest())
    for name in sorted(state):
        digest.update(f"{name}={state[name][2]};".encode())
    return digest.hexdigest()[:24]


def is_fresh(home: Path) -> bool:
    current = live_build(home)
    if current is None:
        return False
    seen = [current.dir, current.fingerprint, _stats(home)]
    if _remembered(home) == seen:
        return True
    fresh = current.fingerprint == fingerprint(home, source_state(home, current.files))
    if fresh:
        with contextlib.suppress(OSError):  # a read-only home: hashed again next time
            write_atomic(paths.index_root(home) / FRESH, json.dumps(seen), durable=False)
    return fresh


def _stats(home: Path) -> list[list[Any]]:
    """[path, size, mtime_ns] of every file a fingerprint reads, and more: the corpus package
    (code, data, embedded sources), the indexer's code, the documents folder's entries and the
    user's overrides (a missing one: no row)."""
    found = []
    for folder in (paths.PACKAGE, Path(__file__).parent, paths.documents(home)):
        for root, folders, files in os.walk(folder):
            folders[:] = sorted(f for f in folders if f != "__pycache__")
            for name in sorted(files):
                with contextlib.suppress(OSError):
                    stat = os.stat(os.path.join(root, name), follow_symlinks=False)
                    found.append([os.path.join(root, name), stat.st_size, stat.st_mtime_ns])
    with contextlib.suppress(OSError):
        stat = paths.user_overrides(home).stat()
        found.append([str(paths.user_overrides(home)), stat.st_size, stat.st_mtime_ns])
    return found


def _remembered(home: Path) -> Any:
    try:
        return json.loads((paths.index_root(home) / FRESH).read_text("utf-8"))
    except (OSError, ValueError):
        return None
