"""Is the index current? Content hashes of the sources and hashes of the code that made it.

Kept apart from the build so that a search checks freshness without importing Whoosh's
writing side."""

from __future__ import annotations

import contextlib
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from corpus import paths
from corpus.library import code_version, source_state
from indexer.store import live_build

INDEX_VERSION = "7"


@cache
def indexer_version() -> str:
    """A hash of the indexer's code: a changed schema or analyzer means a new index."""
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
    return current.fingerprint == fingerprint(home, source_state(home, current.files))
