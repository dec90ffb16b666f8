"""Build the index from the records: one Whoosh document per distinct record version, with the
editions and sources it belongs to. Builds go to a new folder; CURRENT is swapped on success."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus.records import Record, write_jsonl
from corpus.text import fold
from indexer.freshness import fingerprint, source_state
from indexer.store import IndexError_, build_lock, index_root, read_current, write_current

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Version:
    """One distinct text of one record, and every edition and source that carries it."""

    record: Record
    editions: tuple[str, ...]
    sources: tuple[str, ...]

    @property
    def vid(self) -> str:
        r = self.record
        ident = "\x1f".join(
            [r.lang, r.key, r.number or "", r.kind, r.parent or "", r.text, str(r.inferred)]
        )
        return hashlib.sha1(ident.encode("utf-8")).hexdigest()[:20]


def versions(records: Iterable[Record]) -> list[Version]:
    grouped: dict[str, tuple[Record, set[str], list[str]]] = {}
    for record in records:
        vid = Version(record, (), ()).vid
        if vid not in grouped:
            grouped[vid] = (record, set(), [])
        _, editions, sources = grouped[vid]
        if record.edition:
            editions.add(record.edition)
        if record.source not in sources:
            sources.append(record.source)
    return [Version(r, tuple(sorted(e)), tuple(sorted(s))) for r, e, s in grouped.values()]


def section_of(key: str) -> str:
    head = key.split(".")[0]
    return head if head.isdigit() else ""


def whoosh_document(version: Version) -> dict[str, Any]:
    from indexer.schema import text_field

    record = version.record
    payload = record.to_dict()
    payload["editions"] = list(version.editions)
    payload["sources"] = list(version.sources)
    text = (
        f"{record.title} {record.text}"
        if record.title and record.title != record.text
        else record.text
    )
    return {
        # An example or note is evidence for its rule, but weaker than the rule's own text.
        "_boost": 0.6 if record.kind in ("example", "note") else 1.0,
        "key": record.key,
        "section": section_of(record.key),
        "lang": record.lang,
        "kind": record.kind,
        "heading": fold(record.title) if record.title else "",
        "editions": ",".join(version.editions),
        "terms": " ".join(record.terms),
        "payload": json.dumps(payload, ensure_ascii=False),
        text_field(record.lang): text,
    }


def write_index(records: list[Record], folder: Path, progress: Progress | None = None) -> int:
    from whoosh import index

    from indexer.schema import build_schema

    folder.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(folder), build_schema())
    unique = versions(records)
    # Two processes analyse a large library (the machines have two cores); a small one is not
    # worth the fork.
    parallel = {"procs": 2, "multisegment": True} if len(unique) > PARALLEL_FROM else {}
    with ix.writer(limitmb=128, **parallel) as writer:
        for done, version in enumerate(unique, start=1):
            writer.add_document(**whoosh_document(version))
            if progress and (done % 500 == 0 or done == len(unique)):
                progress(done, len(unique))
    write_vocabulary(unique, folder)
    return len(unique)


VOCABULARY = "vocabulary.txt"
TERMBASE = "termbase.json"
PARALLEL_FROM = 3000  # distinct versions


def write_vocabulary(unique: list[Version], folder: Path) -> None:
    """Every folded word of the texts, most frequent first: the "did you mean" candidates."""
    import re

    from corpus.text import fold

    word = re.compile(r"[^\W\d_]{3,}")
    counts: Counter[str] = Counter()
    for version in unique:
        counts.update(word.findall(fold(version.record.text)))
    (folder / VOCABULARY).write_text("\n".join(w for w, _ in counts.most_common()), "utf-8")


@dataclass(frozen=True)
class BuildResult:
    folder: Path
    records: int
    versions: int
    failures: tuple[str, ...]
    seconds: float
    built: bool


def records_path(home: Path) -> Path:
    return home / "records.jsonl"


def build(home: Path, *, force: bool = False, progress: Progress | None = None) -> BuildResult:
    """Ingest every source, write records.jsonl (the hand-off), index it aside, then swap."""
    from corpus import library
    from corpus.align import aligned
    from corpus.terms import TermBase

    started = time.monotonic()
    with build_lock(home):
        current = read_current(home)
        state = source_state(home, current.get("files") if current else None)
        print_ = fingerprint(state)
        if current and current.get("fingerprint") == print_ and not force:
            live = index_root(home) / current["dir"]
            return BuildResult(live, current["records"], current["versions"], (), 0.0, False)
        loaded = library.load()
        records = aligned(library.records(loaded.documents))
        folder: Path | None = None
        try:
            # The hand-off file is written for inspection and for other tools; the index is
            # built from the very same records, not read back.
            with (home / ".records.jsonl.tmp").open("w", encoding="utf-8") as out:
                write_jsonl(records, out)
            (home / ".records.jsonl.tmp").replace(records_path(home))
            # A fresh folder every time: the live build is never written into or removed here.
            index_root(home).mkdir(parents=True, exist_ok=True)
            folder = Path(tempfile.mkdtemp(prefix=f"build-{print_[:8]}-", dir=index_root(home)))
            name = folder.name
            count = write_index(records, folder, progress)
            (folder / TERMBASE).write_text(TermBase.from_records(records).to_json(), "utf-8")
            write_current(
                home,
                {
                    "dir": name,
                    "fingerprint": print_,
                    "files": state,
                    "records": len(records),
                    "versions": count,
                    "failures": list(loaded.failures),
                    "english_editions": sorted(
                        {d.edition for d in loaded.documents if d.lang == "en" and d.edition}
                    ),
                    "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
                },
            )
        except OSError as error:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)  # never leave half a build behind
            raise IndexError_(
                f"cannot write the index in {home} ({error.strerror}); "
                "free some space or set MTGRULES_HOME to a writable directory"
            ) from None
        _remove_stale_builds(home, keep=name)
        return BuildResult(
            folder, len(records), count, loaded.failures, time.monotonic() - started, True
        )


def _remove_stale_builds(home: Path, keep: str) -> None:
    for path in index_root(home).iterdir():
        if path.is_dir() and path.name != keep:
            shutil.rmtree(path, ignore_errors=True)
