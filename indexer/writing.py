"""Versions to a Whoosh index: the fields each version is searched and ranked by, the writer,
and the "did you mean" vocabulary."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from corpus.align.identity import Identity
from corpus.model.documents import doc_of_key
from corpus.model.records import Record
from corpus.model.text import fold
from corpus.paths import VOCABULARY
from indexer import sidestore
from indexer.schema import TERMS_FIELD, build_schema, text_field
from indexer.storage import create_index, writer
from indexer.versions import Version, versions

Progress = Callable[[int, int], None]


def whoosh_document(version: Version) -> dict[str, Any]:
    """What Whoosh searches and ranks. The record itself, its editions and sources are in the
    side store (indexer/sidestore.py): editions change as they are added."""
    record = version.record
    text = (
        f"{record.title} {record.text}"
        if record.title and record.title != record.text
        else record.text
    )
    return {
        # An example or note is evidence for its rule, but weaker than the rule's own text.
        "_boost": 0.6 if record.kind in ("example", "note") else 1.0,
        # The rule's origin, which a newer edition's renumbering leaves as it is: the search
        # reads the current key beside it (indexer.sidestore.Reader.current_keys).
        "key": version.origin,
        "lang": record.lang,
        "vid": version.vid,
        "kind": record.kind,
        "doc": doc_of_key(record.key),
        # An English record's concepts are its own words, already in its text.
        TERMS_FIELD: " ".join(record.terms) if record.lang != "en" else "",
        text_field(record.lang): text,
    }


def write_index(
    records: list[Record],
    folder: Path,
    progress: Progress | None = None,
    alongside: Callable[[list[Version]], None] = lambda unique: None,
    rules: Identity | None = None,
) -> list[Version]:
    """Index the records' distinct versions into a new folder, with their side store.
    `alongside` (other writing the build needs) runs while Whoosh's processes analyse.
    `rules`: the rules' identity (their origins are what Whoosh keeps)."""
    folder.mkdir(parents=True, exist_ok=True)
    ix = create_index(folder, build_schema())
    unique = versions(records, rules)

    def beside() -> None:
        sidestore.write(folder, unique, rules)
        alongside(unique)

    # Two processes analyse a large library (the machines have two cores); a small one is not
    # worth the fork.
    procs = 2 if len(unique) > PARALLEL_FROM else 1
    parallel = {"procs": procs, "multisegment": True} if procs > 1 else {}
    with ThreadPoolExecutor(max_workers=1) as pool, writer(ix, limitmb=128, **parallel) as adding:
        meanwhile = None
        for done, version in enumerate(unique, start=1):
            adding.add_document(**whoosh_document(version))
            if meanwhile is None and (done > procs * BATCH or done == len(unique)):
                # Whoosh forks its processes with its first batches; a thread only after
                # them (a fork copies no other thread). The main thread mostly waits on
                # Whoosh's queue: the side store and `alongside` are written meanwhile.
                meanwhile = pool.submit(beside)
            if progress and (done % 500 == 0 or done == len(unique)):
                progress(done, len(unique))
    if meanwhile is None:
        beside()
    else:
        meanwhile.result()
    return unique


PARALLEL_FROM = 3000  # distinct versions
BATCH = 100  # documents per job Whoosh's writer hands a process (MpWriter's batchsize)


_WORD = re.compile(r"[^\W\d_]{3,}")


def vocabulary_counts(unique: Iterable[Version]) -> Counter[tuple[str, str]]:
    """How often each folded word is in each language's texts: (language, word) -> count."""
    counts: Counter[tuple[str, str]] = Counter()
    for version in unique:
        lang = version.record.lang
        counts.update((lang, word) for word in _WORD.findall(fold(version.record.text)))
    return counts


def write_vocabulary(counts: Counter[tuple[str, str]], folder: Path) -> None:
    """Every folded word of the texts, most frequent first, each with the languages whose texts
    have it ("fornire\tit"): the "did you mean" candidates, offered in the query's language."""
    totals: Counter[str] = Counter()
    langs: dict[str, set[str]] = {}
    for (lang, word), n in counts.items():
        if n > 0:
            totals[word] += n
            langs.setdefault(word, set()).add(lang)
    ordered = sorted(totals, key=lambda w: (-totals[w], w))
    lines = (f"{word}\t{' '.join(sorted(langs[word]))}" for word in ordered)
    (folder / VOCABULARY).write_text("\n".join(lines), "utf-8")
