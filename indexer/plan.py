"""What a build will do, decided before it does anything: nothing (the index is current), add
new English editions to a copy of the live index, or build in full, and why.

`indexer.build.apply` carries a plan out. Adding editions may still end in a full build when
the work itself shows that the result could differ from one (indexer/incremental.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from corpus import library
from corpus.align.alignment import overrides
from corpus.library import source_state
from corpus.model.documents import doc_of_layout
from corpus.model.records import Document
from corpus.paths import user_overrides
from corpus.read.ingest import IngestError
from indexer.freshness import code_stamp, fingerprint
from indexer.store import Current, live_build

MAX_NEW_EDITIONS = 3  # past this a full build, parsing in two processes, is as quick

Action = Literal["current", "add-editions", "full"]


@dataclass(frozen=True)
class Plan:
    home: Path
    action: Action
    why: str  # in a few words, for logs and tests
    state: dict[str, list[Any]]  # every source: [size, mtime_ns, sha256]
    fingerprint: str  # of everything the build is made from (indexer/freshness.py)
    current: Current | None  # the live build's CURRENT, if there is one
    new_editions: tuple[Document, ...] = ()  # parsed, for "add-editions"
    live_verified: bool = False  # the live build's files and records.jsonl were just checked


def plan(home: Path, force: bool = False, verified: str | None = None) -> Plan:
    """Compare the library with the live build: what changed, and what a build should do.
    `verified`: the live build folder the caller has just checked whole (by CRC)."""
    current = live_build(home)
    live_verified = current is not None and current.dir == verified
    state = source_state(home, current.files if current else None)
    print_ = fingerprint(home, state)

    def decided(action: Action, why: str, new: tuple[Document, ...] = ()) -> Plan:
        return Plan(home, action, why, state, print_, current, new, live_verified)

    if current is None:
        return decided("full", "no index yet")
    if force:
        return decided("full", "a rebuild was asked for")
    if current.fingerprint == print_:
        return decided("current", "nothing changed")
    new, why = _new_english_editions(home, current, state)
    if not new:
        return decided("full", why)
    return decided("add-editions", "only new English editions", new)


def _new_english_editions(
    home: Path, current: Current, state: dict[str, list[Any]]
) -> tuple[tuple[Document, ...], str]:
    """The documents added since the live build, parsed, when that is the only change and
    they are English editions a copy of the live index can take; else why not."""
    before = current.files
    if current.code != code_stamp():
        return (), "the code or its data changed"
    if any(name not in state or state[name][2] != entry[2] for name, entry in before.items()):
        return (), "a document changed or was removed"
    new_names = [name for name in state if name not in before]
    if not 0 < len(new_names) <= MAX_NEW_EDITIONS:
        if not new_names:
            return (), "the alignment overrides changed"
        return (), f"more than {MAX_NEW_EDITIONS} new documents"
    documents = []
    for name in new_names:
        try:
            document = library.parse_source(
                home, library.user_source(home, name.removeprefix("documents/"))
            )
        except (IngestError, OSError):
            return (), f"{name} cannot be read"  # the full build reports it
        if document.lang != "en" or not document.edition:
            return (), f"{name} is not an English edition"
        if doc_of_layout(document.layout) != "cr":
            return (), f"{name} is a judge document, not a CR edition"
        documents.append(document)
    dates = [d.edition for d in documents]
    known = set(current.english_editions)
    if len(set(dates)) < len(dates) or known & set(dates):
        return (), "a second copy of an edition"  # it changes what the translations follow
    sources = {d.source for d in documents}
    if any(source in sources for source, _ in overrides(user_overrides(home))):
        return (), "an alignment override names a new document"
    return tuple(documents), ""
