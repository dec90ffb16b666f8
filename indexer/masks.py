"""Which indexed versions a default search leaves out: English texts no longer in the newest
loaded edition (a rule gone since, or another rule's old text under a number). Computed when a
build is written, stored as the document numbers, read in a fraction of a millisecond."""

from __future__ import annotations

import sqlite3
from array import array
from contextlib import closing
from pathlib import Path

from corpus.paths import OUTDATED, SIDESTORE


def write_outdated(folder: Path, editions: list[str]) -> None:
    """Store the document numbers of English versions that are not in the newest edition."""
    from indexer.storage import Storage

    numbers = array("I")
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        rows = (
            db.execute(
                "SELECT vid FROM versions WHERE lang = 'en' AND instr(editions, ?) = 0"
                f" AND substr(key, 1, 4) NOT IN {JUDGE_PREFIXES}",
                (max(editions),),
            ).fetchall()
            if editions
            else []
        )
        rows += _judge_outdated(db)
    outdated = {vid for (vid,) in rows}
    if outdated:
        # Read, not mapped: mapping the segments put them in the build's resident memory (21 MB,
        # at the build's peak) for one column's few pages.
        reader = Storage(str(folder), supports_mmap=False).open_index().reader()
        try:
            column = reader.column_reader("vid")
            numbers.extend(d for d, vid in enumerate(column) if vid in outdated)
        finally:
            reader.close()
    (folder / OUTDATED).write_bytes(numbers.tobytes())


JUDGE_PREFIXES = (
    "('MTR ', 'IPG ', 'JAR ')"  # corpus/model/documents.py: the judges' documents' keys
)


def _judge_outdated(db: sqlite3.Connection) -> list[tuple[str]]:
    """A judge document's versions not in that document's newest edition (its editions are its
    own: the MTR's dates are not the CR's)."""
    newest: dict[str, str] = {}
    rows = db.execute(
        f"SELECT vid, substr(key, 1, 3), editions FROM versions WHERE substr(key, 1, 4) IN "
        f"{JUDGE_PREFIXES}"
    ).fetchall()
    for _, doc, editions in rows:
        for edition in editions.split("\n"):
            newest[doc] = max(newest.get(doc, ""), edition)
    return [(vid,) for vid, doc, editions in rows if newest[doc] not in editions.split("\n")]


def read_outdated(folder: Path) -> set[int] | None:
    """The stored document numbers, or None when the build has none stored."""
    try:
        data = (folder / OUTDATED).read_bytes()
    except OSError:
        return None
    numbers = array("I")
    numbers.frombytes(data)
    return set(numbers)
