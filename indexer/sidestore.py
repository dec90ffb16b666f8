"""The editions and sources of every indexed version, beside the Whoosh index.

Whoosh documents cannot be changed in place, and a new English edition adds itself to some
three thousand versions it shares with the one before: kept here, one SQLite row per version,
an edition is added by updating rows instead of re-indexing documents."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

SIDESTORE = "versions.sqlite"

Membership = tuple[tuple[str, ...], tuple[str, ...]]  # (editions, sources)


def _join(values: Iterable[str]) -> str:
    return "\n".join(values)


def _split(value: str) -> tuple[str, ...]:
    return tuple(value.split("\n")) if value else ()


def write(folder: Path, rows: dict[str, Membership]) -> None:
    """Create the store of a new build: vid -> (editions, sources)."""
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        db.execute("CREATE TABLE versions (vid TEXT PRIMARY KEY, editions TEXT, sources TEXT)")
        db.executemany(
            "INSERT INTO versions VALUES (?, ?, ?)",
            ((vid, _join(e), _join(s)) for vid, (e, s) in rows.items()),
        )
        db.commit()


def read_all(folder: Path) -> dict[str, Membership]:
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        rows = db.execute("SELECT vid, editions, sources FROM versions").fetchall()
    return {vid: (_split(e), _split(s)) for vid, e, s in rows}


def update(folder: Path, changed: dict[str, Membership]) -> None:
    """Insert the new versions and replace the changed ones."""
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        db.executemany(
            "INSERT OR REPLACE INTO versions VALUES (?, ?, ?)",
            ((vid, _join(e), _join(s)) for vid, (e, s) in changed.items()),
        )
        db.commit()


class Reader:
    """Lookups for a search: opened once per engine, read-only."""

    def __init__(self, folder: Path) -> None:
        self.db = sqlite3.connect(f"file:{folder / SIDESTORE}?mode=ro", uri=True)

    def membership(self, vids: list[str]) -> dict[str, Membership]:
        found: dict[str, Membership] = {}
        for start in range(0, len(vids), 500):  # SQLite's limit on parameters
            chunk = vids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for vid, e, s in self.db.execute(
                f"SELECT vid, editions, sources FROM versions WHERE vid IN ({marks})", chunk
            ):
                found[vid] = (_split(e), _split(s))
        return found

    def vids_in(self, edition: str) -> list[str]:
        """The versions an edition carries (editions are dates: a substring is one edition)."""
        rows = self.db.execute(
            "SELECT vid FROM versions WHERE instr(editions, ?) > 0", (edition,)
        ).fetchall()
        return [vid for (vid,) in rows]

    def close(self) -> None:
        self.db.close()
