"""Versions to a Whoosh index: the fields each version is searched and ranked by, the writer,
and the "did you mean" vocabulary."""

from __future__ import annotations

import contextlib
import re
import shutil
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from corpus.align.identity import Identity
from corpus.model.documents import doc_of_key
from corpus.model.text import fold
from corpus.paths import VOCABULARY
from indexer import sidestore
from indexer.schema import TERMS_FIELD, build_schema, text_field
from indexer.storage import create_index, writer
from indexer.versions import Version

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


class Early:
    """A new index whose Whoosh processes work on the documents a full build knows first (the
    English rules', once their identity is known) while the build makes the others."""

    def __init__(self, folder: Path, expected: int) -> None:
        """An empty index in `folder`; `expected`: about how many versions the build will have
        (whether two processes are worth their fork). Whoosh's processes are forked here, at
        once: the caller runs no other thread yet (a fork copies none, and a lock one held
        would stay locked in the child), and its memory is still small (a child's counts)."""
        folder.mkdir(parents=True, exist_ok=True)
        procs = 2 if expected > PARALLEL_FROM else 1
        parallel = {"procs": procs, "multisegment": True} if procs > 1 else {}
        self.adding = writer(create_index(folder, build_schema()), limitmb=128, **parallel)
        for _ in range(procs if procs > 1 else 0):
            self.adding._new_task()  # Whoosh's own start of a process, at its first batch
        self.sent: dict[str, int] = {}  # vid -> the hash of the Whoosh document handed over
        self._known = threading.Event()
        self._pool = ThreadPoolExecutor(max_workers=1)
        self._feeding: Future[None] | None = None
        self._stopped = False

    def feed(self, documents: Callable[[], dict[str, dict[str, Any]]]) -> None:
        """Hand the documents `documents` makes (vid -> `whoosh_document`, it may wait for
        them) over to Whoosh from a thread: its queue holds a few batches, the build goes on."""
        made = self._pool.submit(self._made, documents)
        # Apart, so that whatever `documents` holds is let go of once they are made.
        self._feeding = self._pool.submit(self._add, made)

    def _made(self, documents: Callable[[], dict[str, dict[str, Any]]]) -> dict[str, Any]:
        try:
            made = documents()
            self.sent = {vid: _hashed(document) for vid, document in made.items()}
            return made
        finally:
            self._known.set()

    def _add(self, made: Future[dict[str, dict[str, Any]]]) -> None:
        documents = made.result()
        while documents and not self._stopped:  # each let go of once handed over
            self.adding.add_document(**documents.popitem()[1])

    def joined(self) -> None:
        """Wait until the early versions are handed over (the writer is the caller's again)."""
        self._pool.shutdown(wait=True)
        if self._feeding is not None:
            feeding, self._feeding = self._feeding, None
            feeding.result()

    def cancel(self) -> None:
        """Stop Whoosh's processes: the build failed, or the early versions were not final.
        (Whoosh's own cancel leaves them waiting for work, and the build's end waiting on
        them.)"""
        self._stopped = True
        with contextlib.suppress(Exception):
            self.joined()  # its last batch is taken by a process still there
        for task in getattr(self.adding, "tasks", ()):
            task.terminate()
            task.join()
        with contextlib.suppress(Exception):
            self.adding.cancel()

    def holds(self, unique: list[Version]) -> bool:
        """Whether every version handed over early is one of the build's, document for
        document (an English record an alignment override keys anew would not be)."""
        self._known.wait()
        final = {v.vid: v for v in unique}
        return all(
            vid in final and _hashed(whoosh_document(final[vid])) == hashed
            for vid, hashed in self.sent.items()
        )


def _hashed(document: dict[str, Any]) -> int:
    """A document told from another (the build's documents are not kept twice to compare)."""
    return hash(tuple(document.items()))


def write_index(
    unique: list[Version],
    folder: Path,
    progress: Progress | None = None,
    alongside: Callable[[list[Version]], None] = lambda unique: None,
    rules: Identity | None = None,
    early: Early | None = None,
) -> None:
    """Index distinct versions (indexer.versions) into a new folder, with their side store.
    `alongside` (other writing the build needs) runs while Whoosh's processes analyse.
    `rules`: the rules' identity (their origins are what Whoosh keeps). `early`: the index
    started with some of the versions (`Early`); made here when not given, or when a version
    it was given is not the build's."""
    if early is not None and not early.holds(unique):  # made again, from nothing
        early.cancel()
        shutil.rmtree(folder, ignore_errors=True)
        early = None
    if early is None:
        early = Early(folder, len(unique))
    sent = early.sent
    rest = [v for v in unique if v.vid not in sent]

    def beside() -> None:
        sidestore.write(folder, unique, rules)
        alongside(unique)

    adding = early.adding
    with ThreadPoolExecutor(max_workers=1) as pool, adding:
        # Whoosh's processes are forked (Early): the main thread mostly waits on Whoosh's
        # queue, and the side store and `alongside` are written meanwhile.
        meanwhile = pool.submit(beside)
        early.joined()  # the writer is this thread's from here
        for done, version in enumerate(rest, start=len(sent) + 1):
            adding.add_document(**whoosh_document(version))
            if progress and (done % 500 == 0 or done == len(unique)):
                progress(done, len(unique))
    meanwhile.result()


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
