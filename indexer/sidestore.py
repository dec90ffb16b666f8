"""Every indexed version's record, editions and sources, and the rule numbers it cites, in
SQLite beside the Whoosh index.

Whoosh finds and ranks; this store answers everything asked by key. A rule lookup (`show
205.4d`) is one indexed SQL query and needs no Whoosh at all. And Whoosh documents cannot be
changed in place, while a new English edition adds itself to some three thousand versions it
shares with the one before: here that is an update of rows, not a re-index."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus.model.documents import is_judge_key
from corpus.model.numbers import CITATION, section_of
from corpus.model.records import StoredRecord, record_json
from corpus.model.text import fold
from corpus.paths import SIDESTORE

if TYPE_CHECKING:
    from corpus.align.identity import Identity
    from indexer.versions import Version


Membership = tuple[tuple[str, ...], tuple[str, ...]]  # (editions, sources)

_SCHEMA = """
CREATE TABLE versions (
    vid TEXT PRIMARY KEY, key TEXT, section TEXT, lang TEXT, heading TEXT,
    editions TEXT, sources TEXT, record TEXT, origin TEXT, number TEXT
);
CREATE TABLE citations (cited TEXT, key TEXT);  -- cited: the cited rule's current key
CREATE TABLE listings (item TEXT, key TEXT);
"""
_INSERT_VERSION = "INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INDEXES = """
CREATE INDEX versions_key ON versions (key);
CREATE INDEX versions_section ON versions (section);
CREATE INDEX versions_heading ON versions (heading);
CREATE INDEX versions_number ON versions (number);
CREATE INDEX citations_cited ON citations (cited);
CREATE INDEX listings_item ON listings (item);
-- The few rules a renumbering moved, which every search reads (current_keys): a scan of these
-- instead of the whole table with its records' JSON (35 ms on a full library).
CREATE INDEX versions_moved ON versions (origin, key) WHERE origin <> key;
"""


def _join(values: Iterable[str]) -> str:
    return "\n".join(values)


def _split(value: str) -> tuple[str, ...]:
    return tuple(value.split("\n")) if value else ()


def _rows(versions: Iterable[Version]) -> Iterator[tuple[str, ...]]:
    for version in versions:
        record = version.record
        yield (
            version.vid,
            record.key,
            section_of(record.key),
            record.lang,
            fold(record.title) if record.title else "",
            _join(version.editions),
            _join(version.sources),
            record_json(record).decode("utf-8"),
            version.origin,
            record.number or "",
        )


def _citations(versions: Iterable[Version], rules: Identity | None) -> Iterator[tuple[str, str]]:
    """(cited rule's current key, citing key): "see rule 725" in a 2025 text cites 726."""
    from corpus.model.citations import cited_keys as cited_by_judge  # a build's, not a lookup's

    for version in versions:
        record = version.record
        if is_judge_key(record.key):  # a judge document: its own citations
            for cited in set(cited_by_judge(record.text, record.key)):
                yield cited, record.key
            continue
        edition = rules.numbering(record) if rules is not None else None
        for cited in set(CITATION.findall(record.text)):
            current = rules.key(edition, cited) if rules is not None and edition else None
            yield current or cited, record.key


def _listings(versions: Iterable[Version]) -> Iterator[tuple[str, str]]:
    """(item, key) for every item of a rule's list: "wizard" is listed by 205.3m."""
    from corpus.model.words import list_items  # a build's, not a lookup's

    for version in versions:
        record = version.record
        if record.kind == "rule":
            for item in dict.fromkeys(fold(i) for i in list_items(record.text)):
                yield item, record.key
            if is_judge_key(record.key) and record.title and " — " in record.title:
                # An infraction is named by what follows its category ("Game Play Error —
                # Missed Trigger"): a question naming it names the section.
                yield fold(record.title.rsplit(" — ", 1)[1]), record.key


def _writing(folder: Path) -> sqlite3.Connection:
    """A connection that writes a new build's store: no journal and no waiting for the disk,
    because a build folder is only swapped in when whole (its files' CRCs are then recorded),
    and a build that dies is thrown away."""
    db = sqlite3.connect(folder / SIDESTORE)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    return db


def write(folder: Path, versions: list[Version], rules: Identity | None = None) -> None:
    """Create the store of a new build (`rules`: the identity the cited numbers follow)."""
    with closing(_writing(folder)) as db:
        db.executescript(_SCHEMA)
        db.executemany(_INSERT_VERSION, _rows(versions))
        db.executemany("INSERT INTO citations VALUES (?, ?)", _citations(versions, rules))
        db.executemany("INSERT INTO listings VALUES (?, ?)", _listings(versions))
        db.executescript(_INDEXES)
        db.commit()


def memberships(folder: Path) -> dict[str, Membership]:
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        rows = db.execute("SELECT vid, editions, sources FROM versions").fetchall()
    return {vid: (_split(e), _split(s)) for vid, e, s in rows}


def update(
    folder: Path,
    added: list[Version],
    changed: dict[str, Membership],
    rules: Identity | None = None,
    renamed: dict[str, str] | None = None,
) -> None:
    """Rename the keys a new edition's renumbering moved, insert the new versions and give the
    changed ones their new editions and sources."""
    with closing(_writing(folder)) as db:
        if renamed:
            _rename(db, renamed)
        db.executemany(_INSERT_VERSION, _rows(added))
        db.executemany("INSERT INTO citations VALUES (?, ?)", _citations(added, rules))
        db.executemany("INSERT INTO listings VALUES (?, ?)", _listings(added))
        db.executemany(
            "UPDATE versions SET editions = ?, sources = ? WHERE vid = ?",
            ((_join(e), _join(s), vid) for vid, (e, s) in changed.items()),
        )
        db.commit()


def _rename(db: sqlite3.Connection, renamed: dict[str, str]) -> None:
    """Every key (of versions, in their records, of citations and listings) renamed so."""
    import orjson

    db.execute("CREATE TEMP TABLE renamed (old TEXT PRIMARY KEY, new TEXT)")
    db.executemany("INSERT INTO renamed VALUES (?, ?)", renamed.items())
    rows = db.execute(
        "SELECT vid, key, record FROM versions WHERE key IN (SELECT old FROM renamed)"
    ).fetchall()
    updates = []
    for vid, key, text in rows:
        record = orjson.loads(text)
        record["key"] = renamed[key]  # the same field order as record_json writes
        new = renamed[key]
        updates.append((new, section_of(new), orjson.dumps(record).decode("utf-8"), vid))
    db.executemany("UPDATE versions SET key = ?, section = ?, record = ? WHERE vid = ?", updates)
    for table, column in (("citations", "key"), ("citations", "cited"), ("listings", "key")):
        db.execute(
            f"UPDATE {table} SET {column} = (SELECT new FROM renamed WHERE old = {column})"
            f" WHERE {column} IN (SELECT old FROM renamed)"
        )
    db.execute("DROP TABLE renamed")


class CurrentKeys:
    """A Whoosh key column (rule origins) read as current keys, by document number."""

    def __init__(self, column: Any, renamed: dict[str, str]) -> None:
        self.column, self.renamed = column, renamed

    def __getitem__(self, docnum: int) -> str:
        key: str = self.column[docnum]
        return self.renamed.get(key, key)


class Reader:
    """Lookups for a command: opened once per engine, read-only."""

    def __init__(self, folder: Path) -> None:
        # The web app answers in worker threads and closes a replaced build from any of them;
        # SQLite here is serialized (sqlite3.threadsafety == 3), so one read-only connection
        # may be shared.
        self.db = sqlite3.connect(
            f"file:{folder / SIDESTORE}?mode=ro", uri=True, check_same_thread=False
        )

    def _records(self, where: str, arguments: Iterable[Any]) -> list[StoredRecord]:
        rows = self.db.execute(
            f"SELECT editions, sources, record FROM versions WHERE {where}", tuple(arguments)
        )
        return [
            StoredRecord.read(json.loads(text), _split(editions), _split(sources))
            for editions, sources, text in rows
        ]

    def with_keys(self, keys: list[str], prefixes: Iterable[str] = ()) -> list[StoredRecord]:
        """Every version keyed by one of `keys` or by a key that starts with a prefix."""
        clauses = [f"key IN ({','.join('?' * len(keys))})"] if keys else []
        arguments: list[str] = list(keys)
        for prefix in prefixes:
            clauses.append("(key >= ? AND key < ?)")
            arguments += [prefix, prefix + "\U0010ffff"]
        return self._records(" OR ".join(clauses), arguments) if clauses else []

    def current_keys(self) -> dict[str, str]:
        """origin -> current key of the rules a renumbering moved (Whoosh keeps origins).
        Its WHERE is the one of the partial index versions_moved, which it reads alone."""
        rows = self.db.execute("SELECT DISTINCT origin, key FROM versions WHERE origin <> key")
        return dict(rows.fetchall())

    def gone_from(self, keys: list[str], edition: str) -> set[str]:
        """Those of `keys` with English versions, none of them in `edition`."""
        if not keys:
            return set()
        rows = self.db.execute(
            "SELECT key FROM versions WHERE lang = 'en' AND key IN"
            f" ({','.join('?' * len(keys))}) GROUP BY key HAVING max(instr(editions, ?)) = 0",
            (*keys, edition),
        )
        return {key for (key,) in rows}

    def keys_numbered(self, number: str, edition: str) -> list[str]:
        """Current keys of what an English edition numbers so (`show 725.1 --edition E`)."""
        rows = self.db.execute(
            "SELECT DISTINCT key FROM versions WHERE number = ? AND lang = 'en'"
            " AND instr(editions, ?) > 0",
            (number, edition),
        )
        return [key for (key,) in rows]

    def translated_numbering(self, number: str) -> list[StoredRecord]:
        """The translations' versions that print this number under another key (the Spanish
        CR's 310.8 is 310.9 today)."""
        return self._records("number = ? AND lang <> 'en' AND key <> ?", (number, number))

    def editions_numbering(self, number: str) -> list[str]:
        """The English editions that print this number, oldest first (`show 729.2j`: only
        2025-11-14 and before, today's numbering has none)."""
        rows = self.db.execute(
            "SELECT editions FROM versions WHERE number = ? AND lang = 'en'", (number,)
        )
        return sorted({e for (editions,) in rows for e in editions.split("\n") if e})

    def headed(self, folded_title: str) -> list[str]:
        """Keys of the versions titled so ("supertipi": 205.4), folded as corpus.model.text.fold.
        An empty title heads nothing: the untitled rules' heading is "" too."""
        if not folded_title:
            return []
        rows = self.db.execute(
            "SELECT DISTINCT key FROM versions WHERE heading = ?", (folded_title,)
        )
        return [key for (key,) in rows]

    def obsolete_entries(self) -> list[tuple[str, str]]:
        """(title, text) of the English glossary entries titled "… (Obsolete)", each as its
        newest version says it (corpus/terms/obsolete.py)."""
        rows = self.db.execute(
            "SELECT editions, record FROM versions WHERE lang = 'en' AND heading LIKE '%(obsolete)'"
        )
        newest: dict[str, str] = {}  # title -> text, the newest edition's last
        for _, text in sorted(rows, key=lambda row: max(_split(row[0]), default="")):
            record = json.loads(text)
            newest[record.get("title") or ""] = record["text"]
        return list(newest.items())

    def english_rule_texts(self, edition: str) -> list[str]:
        """The texts of an English edition's rules and examples (no glossary entries)."""
        rows = self.db.execute(
            "SELECT record FROM versions WHERE lang = 'en' AND instr(editions, ?) > 0", (edition,)
        )
        records = (json.loads(text) for (text,) in rows)
        return [r["text"] for r in records if r.get("kind") in ("rule", "example")]

    def listings(self) -> dict[str, list[str]]:
        """Every listed item (folded) with the keys whose list names it."""
        found: dict[str, list[str]] = {}
        for item, key in self.db.execute("SELECT DISTINCT item, key FROM listings"):
            found.setdefault(item, []).append(key)
        return found

    def listing(self, folded_item: str) -> list[str]:
        """Keys of the rules whose list names this item ("wizard": 205.3m)."""
        rows = self.db.execute("SELECT DISTINCT key FROM listings WHERE item = ?", (folded_item,))
        return [key for (key,) in rows]

    def in_section(self, section: str) -> list[StoredRecord]:
        return self._records("section = ?", [section])

    def citing(self, number: str) -> list[str]:
        """Keys of the versions whose text cites this rule number."""
        rows = self.db.execute("SELECT DISTINCT key FROM citations WHERE cited = ?", (number,))
        return [key for (key,) in rows]

    def has_key(self, key: str) -> bool:
        """Whether the library has a rule (any language, any edition) under this key."""
        row = self.db.execute("SELECT 1 FROM versions WHERE key = ? LIMIT 1", (key,)).fetchone()
        return row is not None

    def has_edition(self, edition: str) -> bool:
        """Whether any version belongs to this edition (English or a dated translation)."""
        row = self.db.execute(
            "SELECT 1 FROM versions WHERE instr(editions, ?) > 0 LIMIT 1", (edition,)
        ).fetchone()
        return row is not None

    def keys_under(self, prefix: str) -> list[str]:
        """The distinct keys that start with `prefix`, without reading their records."""
        rows = self.db.execute(
            "SELECT DISTINCT key FROM versions WHERE key >= ? AND key < ?",
            (prefix, prefix + "\U0010ffff"),
        )
        return [key for (key,) in rows]

    def judge_editions(self) -> dict[str, list[str]]:
        """Each judge document's editions (mtr -> its dates, oldest first)."""
        rows = self.db.execute(
            "SELECT DISTINCT substr(key, 1, 3), editions FROM versions "
            "WHERE substr(key, 1, 4) IN ('MTR ', 'IPG ', 'JAR ')"
        )
        found: dict[str, set[str]] = {}
        for name, editions in rows:
            found.setdefault(name.lower(), set()).update(_split(editions))
        return {doc: sorted(dates) for doc, dates in found.items()}

    def vids_in(self, edition: str) -> list[str]:
        """The versions an edition carries (editions are dates: a substring is one edition)."""
        rows = self.db.execute(
            "SELECT vid FROM versions WHERE instr(editions, ?) > 0", (edition,)
        ).fetchall()
        return [vid for (vid,) in rows]

    def close(self) -> None:
        self.db.close()
