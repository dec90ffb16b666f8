"""The term base as a build saves it for the commands: its lookup tables in SQLite, read a key
at a time.

A search names a few concepts; unpickling the whole term base (3,200 terms and the tables of
their stems, 850 KB) cost every `mtgrules search` some 15 ms before its first word. Here each
word looks up its own rows, once (the rows read are kept), and a text's concepts the terms
that begin with its words' stems. What walks the whole term base (`term`'s rules, an added
edition's enrichment) reads that table whole, on first use. The file is written by our own
build and read by the same code (corpus/paths.py's TERMBASE_READY; the code's hash is in the
build's fingerprint)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from functools import cached_property
from pathlib import Path
from typing import Any

from corpus.terms.termbase import Term, TermBase

Key = tuple[str, tuple[str, ...]]  # (language, stems)
Form = tuple[str, tuple[str, ...]]  # (concept, the words of its term as written)

_SCHEMA = """
CREATE TABLE terms (concept TEXT, english TEXT, lang TEXT, term TEXT, source TEXT,
    period TEXT, count INTEGER, confidence REAL, general INTEGER);
CREATE TABLE english (name TEXT);
CREATE TABLE stems (lang TEXT, stems TEXT, size INTEGER, concept TEXT, first TEXT);
CREATE TABLE forms (general INTEGER, lang TEXT, stems TEXT, concept TEXT, words TEXT);
"""
_INDEXES = """
CREATE INDEX terms_concept ON terms (concept);
CREATE INDEX forms_key ON forms (lang, stems, general);
CREATE INDEX stems_first ON stems (lang, first);
"""
_TERM_COLUMNS = "english, lang, term, source, period, count, confidence, general"
_SEPARATOR = "\x1f"  # between the stems and the words of a term: none of them holds it


def _joined(words: tuple[str, ...]) -> str:
    return _SEPARATOR.join(words)


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split(_SEPARATOR))


def _term(row: tuple[Any, ...]) -> Term:
    english, lang, term, source, period, count, confidence, general = row
    return Term(english, lang, term, source, period, count, confidence, bool(general))


def _row(term: Term) -> tuple[Any, ...]:
    """A term's columns, as _TERM_COLUMNS names them."""
    return (
        term.english,
        term.lang,
        term.term,
        term.source,
        term.period,
        term.count,
        term.confidence,
        int(term.general),
    )


def to_bytes(
    terms: Iterable[Term],
    english: Iterable[str],
    by_stems: dict[Key, set[str]],
    written: dict[Key, set[Form]],
    general: dict[Key, set[Form]],
) -> bytes:
    """A term base's tables as the bytes of a SQLite database."""
    with sqlite3.connect(":memory:") as db:
        db.executescript(_SCHEMA)
        db.executemany(
            "INSERT INTO terms VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ((t.english.lower(), *_row(t)) for t in terms),
        )
        db.executemany("INSERT INTO english VALUES (?)", ((name,) for name in english))
        db.executemany(
            "INSERT INTO stems VALUES (?, ?, ?, ?, ?)",
            (
                (lang, _joined(stems), len(stems), concept, stems[0])
                for (lang, stems), concepts in by_stems.items()
                for concept in sorted(concepts)
            ),
        )
        db.executemany(
            "INSERT INTO forms VALUES (?, ?, ?, ?, ?)",
            (
                (int(is_general), lang, _joined(stems), concept, _joined(words))
                for is_general, table in ((False, written), (True, general))
                for (lang, stems), forms in table.items()
                for concept, words in sorted(forms)
            ),
        )
        db.executescript(_INDEXES)
        data = db.serialize()
    db.close()
    return data


def from_bytes(data: bytes) -> StoredTermBase:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.deserialize(data)
    return StoredTermBase(db)


def open_file(path: Path) -> StoredTermBase:
    """The term base of a build's file (sqlite3.DatabaseError, OSError when it is not one)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    try:
        db.execute("SELECT count(*) FROM english").fetchone()  # a damaged file fails here
    except sqlite3.Error:
        db.close()
        raise
    return StoredTermBase(db)


class _ReadOnFirstUse(dict[Any, Any]):
    """A lookup table whose entries are read from the database on first use, each once: `read`
    gives a key's value (a term base's forms, first stems or terms)."""

    def __init__(self, read: Callable[[Any], Any]) -> None:
        super().__init__()
        self._read = read

    def get(self, key: Any, default: object = None) -> Any:
        found = super().get(key)
        if found is None:
            found = self[key] = self._read(key)
        return found


def _forms(db: sqlite3.Connection, general: bool) -> _ReadOnFirstUse:
    """(language, stems) -> the forms of that key."""

    def read(key: Key) -> set[Form]:
        lang, stems = key
        rows = db.execute(
            "SELECT concept, words FROM forms WHERE lang = ? AND stems = ? AND general = ?",
            (lang, _joined(stems), int(general)),
        )
        return {(concept, _split(words)) for concept, words in rows}

    return _ReadOnFirstUse(read)


def _starts(db: sqlite3.Connection) -> _ReadOnFirstUse:
    """(language, first stem) -> the term keys that begin with it, shortest first: a question's
    concepts (`concepts_in`) ask a few words' rows, not the whole table."""

    def read(start: tuple[str, str]) -> list[tuple[str, ...]]:
        rows = db.execute(
            "SELECT stems FROM stems WHERE lang = ? AND first = ? ORDER BY size, rowid", start
        )
        return [_split(stems) for stems in dict.fromkeys(r for (r,) in rows)]

    return _ReadOnFirstUse(read)


def _terms_of(db: sqlite3.Connection) -> _ReadOnFirstUse:
    """A concept (lower case) -> its terms, in the term base's order."""

    def read(concept: str) -> list[Term]:
        rows = db.execute(
            f"SELECT {_TERM_COLUMNS} FROM terms WHERE concept = ? ORDER BY rowid", (concept,)
        )
        return [_term(row) for row in rows]

    return _ReadOnFirstUse(read)


class StoredTermBase(TermBase):
    """A build's term base, read from its database as it is asked (the same answers as the
    TermBase it was saved from: tests/test_term_base.py)."""

    def __init__(self, db: sqlite3.Connection) -> None:  # no super().__init__: nothing to stem
        self._db = db
        self._seen = {}
        self._forget()
        self._written = _forms(db, general=False)
        self._general = _forms(db, general=True)
        self._english_table = _terms_of(db)

    @cached_property
    def terms(self) -> tuple[Term, ...]:  # type: ignore[override]
        rows = self._db.execute(f"SELECT {_TERM_COLUMNS} FROM terms ORDER BY rowid")
        return tuple(_term(row) for row in rows)

    @cached_property
    def english(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(name for (name,) in self._db.execute("SELECT name FROM english"))

    def _starts(self) -> dict[tuple[str, str], list[tuple[str, ...]]]:
        if self._starts_table is None:
            self._starts_table = _starts(self._db)
        return self._starts_table

    def to_ready(self) -> bytes:
        return self._db.serialize()
