"""Where the index lives in MTGRULES_HOME, which build is current, and the build lock.

Layout: index/CURRENT (JSON: the live build's folder and fingerprint), index/<build>/ (Whoosh
files), index/.lock. A build writes a new folder and swaps CURRENT atomically."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corpus import paths
from corpus.library import write_atomic
from indexer.locks import take_lock


class IndexError_(RuntimeError):
    """The index cannot be read or built; the message says what to do."""


def cannot_write(home: Path, error: OSError) -> IndexError_:
    return IndexError_(
        f"cannot write the index in {home} ({error.strerror}); "
        "free some space or set MTGRULES_HOME to a writable directory"
    )


Files = dict[str, list[Any]]  # library path -> [size, mtime_ns, sha256]


@dataclass(frozen=True)
class Current:
    """index/CURRENT: which build is live and what it was made from."""

    dir: str  # the live build's folder under index/
    fingerprint: str  # of everything the build was made from (indexer/freshness.py)
    code: str  # the code stamp it was built with
    files: Files  # every source it read
    records: int
    versions: int
    failures: tuple[str, ...]  # sources that could not be read
    english_editions: tuple[str, ...]
    built: str  # local time, ISO 8601
    checksums: dict[str, Any]  # what the build wrote, to tell damage from it (integrity.py)
    records_checksum: tuple[int, int] | None  # records.jsonl: (size, CRC-32)
    # English edition -> the documents that carry it: what `add` checks a new copy against
    english_sources: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Translated CR document -> its language: what `add` tells a second translation against
    translations: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Current:
        """CURRENT as written; a field an older build did not write is empty."""
        checksum = data.get("records_checksum")
        return cls(
            dir=str(data["dir"]),
            fingerprint=str(data.get("fingerprint", "")),
            code=str(data.get("code", "")),
            files=dict(data.get("files") or {}),
            records=int(data.get("records", 0)),
            versions=int(data.get("versions", 0)),
            failures=tuple(data.get("failures") or ()),
            english_editions=tuple(data.get("english_editions") or ()),
            built=str(data.get("built", "")),
            checksums=dict(data.get("checksums") or {}),
            records_checksum=(int(checksum[0]), int(checksum[1])) if checksum else None,
            english_sources={
                str(e): tuple(map(str, s)) for e, s in (data.get("english_sources") or {}).items()
            },
            translations={
                str(s): str(lang) for s, lang in (data.get("translations") or {}).items()
            },
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "dir": self.dir,
            "fingerprint": self.fingerprint,
            "code": self.code,
            "files": self.files,
            "records": self.records,
            "versions": self.versions,
            "failures": list(self.failures),
            "english_editions": list(self.english_editions),
            "built": self.built,
            "checksums": self.checksums,
            "records_checksum": list(self.records_checksum) if self.records_checksum else None,
            "english_sources": {e: list(s) for e, s in self.english_sources.items()},
            "translations": dict(self.translations),
        }


def live_build(home: Path) -> Current | None:
    """The live build's CURRENT; None when there is none, it cannot be read, or its folder is
    gone."""
    data = read_current(home)
    try:
        return Current.from_json(data) if data is not None else None
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def read_current(home: Path) -> dict[str, Any] | None:
    """CURRENT as its JSON (for tools and tests; the build reads `live_build`). Read again
    when the folder it names is gone: a build swapped itself in and removed the one read
    (between the two, the library has an index: "no index yet" was said during a rebuild)."""
    for _ in range(3):
        try:
            data = json.loads((paths.index_root(home) / "CURRENT").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        if (paths.index_root(home) / str(data.get("dir", ""))).is_dir():
            return data
    return None


def write_current(home: Path, current: Current) -> None:
    """Make `current` the live build (an atomic swap of CURRENT)."""
    write_atomic(
        paths.index_root(home) / "CURRENT", json.dumps(current.to_json(), ensure_ascii=False)
    )


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
    signal = sys.modules["signal"]  # imported by build_lock, as ctypes
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()


def _die_with_parent() -> None:
    """PR_SET_PDEATHSIG: the kernel kills this process when the one that forked it dies.
    ctypes is imported by `build_lock`, in the parent, not here: this runs in a freshly forked
    child, where an import can wait forever on a lock another thread held at the fork (and a
    command that builds nothing does not load it). The process's own symbols include libc's
    (no ctypes.util: it imports subprocess, and its find_library runs ldconfig)."""
    with contextlib.suppress(OSError, AttributeError, KeyError):
        libc = sys.modules["ctypes"].CDLL(None, use_errno=True)
        libc.prctl(1, sys.modules["signal"].SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG


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
    try:
        if not take_lock(handle, wait_seconds):
            raise IndexError_(
                "another mtgrules index build is still running; try again when it ends"
            )
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        # Before any fork: a forked worker's _in_forked_child uses them (a command that builds
        # nothing loads neither).
        import ctypes  # noqa: F401
        import signal  # noqa: F401

        _held.append(handle.fileno())
        yield
    finally:
        with contextlib.suppress(ValueError):
            _held.remove(handle.fileno())
        handle.close()
