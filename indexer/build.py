"""Carry out a build plan (indexer/plan.py): nothing, new English editions added to a copy of
the live index (indexer/incremental.py), or a full build: every source parsed, its records
enriched with the term base learned from them and aligned, written to records.jsonl (the
hand-off) and indexed into a new folder. CURRENT is swapped only when the folder is whole."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from corpus import library, paths
from corpus.align.alignment import align_documents, overrides
from corpus.align.editions import by_edition
from corpus.align.following import edition_numbers, followings
from corpus.align.identity import Identity, identity
from corpus.model.documents import doc_of_key, is_english_edition
from corpus.model.records import Document, Record, collector_paused
from corpus.paths import TERMBASE, TERMBASE_READY
from corpus.terms.enrichment import with_terms
from corpus.terms.learning import learning_records, prepare
from corpus.terms.termbase import TermBase
from indexer.aside import aside
from indexer.freshness import code_stamp
from indexer.incremental import prepare_additions, write_additions
from indexer.integrity import checksums
from indexer.masks import write_outdated
from indexer.plan import Plan, plan
from indexer.state import BuildState, by_source, chunk, write_records
from indexer.store import Current, build_lock, cannot_write, write_current
from indexer.versions import Version, versions
from indexer.writing import (
    Early,
    Progress,
    vocabulary_counts,
    whoosh_document,
    write_index,
    write_vocabulary,
)


@dataclass(frozen=True)
class BuildResult:
    folder: Path
    records: int
    versions: int
    failures: tuple[str, ...]
    seconds: float
    built: bool
    added_editions: bool = False  # new English editions added to the live index, not rebuilt


def build(
    home: Path,
    *,
    force: bool = False,
    progress: Progress | None = None,
    verified: str | None = None,
) -> BuildResult:
    """Plan and carry out a build of `home`'s library, under its build lock. `verified`: the
    live build folder the caller has just checked whole (`indexer.integrity.live_damage`)."""
    with build_lock(home), collector_paused():
        result = apply(plan(home, force, verified), progress)
    # The lexical index is live: now its vectors (in the background unless MTGRULES_MEANING
    # says otherwise); also when the build was current but an embedder died before finishing.
    from indexer.vectors import after_build

    after_build(home, result.folder)
    return result


def apply(plan: Plan, progress: Progress | None = None) -> BuildResult:
    """Carry out a plan: the live build when current; new editions added to a copy of it
    when that gives what a full build would; else a full build."""
    started = time.monotonic()
    home, current = plan.home, plan.current
    if plan.action == "current" and current is not None:
        live = paths.index_root(home) / current.dir
        return BuildResult(live, current.records, current.versions, (), 0.0, False)
    if plan.action == "add-editions" and current is not None:
        additions = prepare_additions(plan)  # or why a full build is needed after all
        if not isinstance(additions, str):
            folder, records, count = write_additions(plan, additions)
            _remove_stale_builds(home, keep=folder.name)
            seconds = time.monotonic() - started
            return BuildResult(folder, records, count, current.failures, seconds, True, True)
    for folder in (home, paths.documents(home), paths.parse_cache(home)):
        library.remove_leftovers(folder, older_than=0 if folder == home else 600.0)
    loaded = library.load(home)
    library.prune_cache(home)
    failures, documents = loaded.failures, list(loaded.documents)
    del loaded  # the build lets go of each stage's records once the next stage has them
    folder = _new_folder(plan)
    full: FullBuild | None = None
    try:
        full = _prepare_full(plan, documents, folder)
        records_count, count = _write_full(plan, full, failures, progress, folder)
    except BaseException:
        if full is not None and full.early is not None:
            full.early.cancel()
        shutil.rmtree(folder, ignore_errors=True)  # never leave half a build behind
        raise
    _remove_stale_builds(home, keep=folder.name)
    return BuildResult(folder, records_count, count, failures, time.monotonic() - started, True)


def _give_back_memory() -> None:
    """Return the heap's free pages to the system (glibc's malloc_trim; elsewhere nothing).
    The build's threads each allocate from their own heap, and what the early index's thread
    and the stages before the writing let go of stayed counted in the process's size: some
    10 MB at the build's peak."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)


ASIDE_FROM = 4  # English editions: fewer are not worth a process


@dataclass
class FullBuild:
    """A full build, made in memory: the records to index and the state kept beside them."""

    records: list[Record]  # enriched and aligned, in library order
    unique: list[Version]  # their distinct versions (indexer/versions.py)
    saved: BuildState
    termbase: TermBase
    english: dict[str, list[str]]  # edition -> its documents
    early: Early | None  # the index, started with the English rules' versions
    counted: Counter[tuple[str, str]]  # the words of some versions (the English ones')
    uncounted: list[Version]  # the versions whose words are still to count
    translations: dict[str, str]  # translated document -> its language (CURRENT's)


def _new_folder(plan: Plan) -> Path:
    """A fresh folder for the build: the live build is never written into or removed here."""
    try:
        paths.index_root(plan.home).mkdir(parents=True, exist_ok=True)
        prefix = f"build-{plan.fingerprint[:8]}-"
        return Path(tempfile.mkdtemp(prefix=prefix, dir=paths.index_root(plan.home)))
    except OSError as error:
        raise cannot_write(plan.home, error) from None


def _prepare_full(plan: Plan, documents: list[Document], folder: Path) -> FullBuild:
    """Parsed documents (the list is emptied: a full library's records are held several times
    over in a build, and each copy is let go of as soon as the next exists) to the records of
    a new build, term base learned and translations aligned; nothing written."""
    home = plan.home
    english: dict[str, list[str]] = {}
    translations: dict[str, str] = {}  # whole translations' languages, for `add`'s note
    for document in sorted(documents, key=lambda d: d.source):
        if is_english_edition(document):
            english.setdefault(str(document.edition), []).append(document.source)
        elif library.is_translation(document):
            translations[document.source] = document.lang
    raw = list(library.records(tuple(documents)))
    documents.clear()
    # Which rule each English rule is, through every renumbering: in a process of its own
    # for a large library (it reads every English rule and answers a table of numbers),
    # started first: the stages up to the learner's run on one core.
    english_rules = by_edition([r for r in raw if doc_of_key(r.key) == "cr"], "en")
    find_rules = partial(_english_first, english_rules, raw)
    rules_found = aside(find_rules) if len(english_rules) >= ASIDE_FROM else find_rules
    follows = followings(raw)
    learning = learning_records(raw, follows)
    prepared = prepare(learning, follows)
    english_raw = [r for r in raw if r.lang == "en"]
    # The index, its Whoosh processes started before this build's threads; they index the
    # English rules as soon as the rules' identity is known, while the rest is made.
    early = Early(folder, len({(r.lang, r.text) for r in raw}))
    first_known: Future[EnglishFirst] = Future()
    early.feed(partial(_documents_of, rules_found, first_known, english_raw))
    # The learner's aligner is a program of its own: meanwhile the English texts, whose
    # concepts do not depend on what it finds, are read with the English side of the term base.
    with ThreadPoolExecutor(max_workers=1) as pool:
        learned = pool.submit(
            TermBase.from_records, learning, follows, paths.terms_cache(home), prepared
        )
        english_concepts: dict[bytes, tuple[str, ...]] = {}
        english_enriched = with_terms(
            english_raw, TermBase.english_side(prepared), english_concepts
        )
        termbase = learned.result()
    first = first_known.result()
    rules = first.rules
    del first_known
    del english_rules, find_rules, rules_found, english_raw
    english_final = [rules.rekeyed(r) for r in english_enriched]
    references = [r for r in learning if r.lang == "en"]
    del learning, prepared
    numbers = edition_numbers(raw)
    translated_raw = [r for r in raw if r.lang != "en"]
    in_english, translated = iter(english_enriched), iter(with_terms(translated_raw, termbase))
    enriched = [next(in_english) if r.lang == "en" else next(translated) for r in raw]
    del raw, in_english, translated
    records = align_documents(enriched, follows, overrides(paths.user_overrides(home)))
    # The alignment leaves English records as they are, but for an override that keys one anew.
    overridden = any(a is not b for a, b in zip(records, enriched, strict=True) if b.lang == "en")
    in_english = iter(english_final)
    for at, record in enumerate(records):
        # In place: each record moved is let go of at once. English ones are rekeyed above.
        rekeyed = record.lang == "en" and not overridden
        records[at] = next(in_english) if rekeyed else rules.rekeyed(record)
    translated_records = [r for r in records if r.lang != "en"]
    # Versions group by language: the English ones are known unless overridden.
    if overridden:
        counted, uncounted = Counter[tuple[str, str]](), versions(records, rules)
        unique = uncounted
    else:
        counted, uncounted = first.vocabulary, versions(translated_records, rules)
        unique = first.versions_of(english_final) + uncounted
    del first
    del enriched, english_enriched, english_final, in_english
    saved = BuildState(
        translated_raw=translated_raw,
        translated=translated_records,
        references=references,
        english=english,
        termbase=termbase.to_json(),
        numbers=numbers,
        followed={source: f.edition for source, f in follows.items()},
        english_concepts=english_concepts,
        identity=rules,
    )
    return FullBuild(
        records, unique, saved, termbase, english, early, counted, uncounted, translations
    )


@dataclass(frozen=True)
class EnglishFirst:
    """What the index is given of the English records, made before their concepts are found
    (which change none of it): final unless an alignment override keys an English record anew
    (then a full build's index is made again: indexer.writing.Early.holds)."""

    rules: Identity
    # Each English version: vid, its first record's place among the English records, its
    # editions, its sources and its origin (indexer.versions.Version without the record).
    versions: list[tuple[str, int, tuple[str, ...], tuple[str, ...], str]]
    vocabulary: Counter[tuple[str, str]]  # their words (indexer.writing.vocabulary_counts)

    def versions_of(
        self, english: list[Record], record: Callable[[Record], Record] = lambda r: r
    ) -> list[Version]:
        """The versions, each with `record` of its first record in `english` (the same records,
        enriched or not)."""
        return [Version(vid, record(english[at]), e, s, o) for vid, at, e, s, o in self.versions]


def _english_first(english_rules: dict[str, list[Record]], records: list[Record]) -> EnglishFirst:
    """The rules' identity, then what the index is given of the English records: for a large
    library, made in a process of its own beside the build (indexer/aside.py)."""
    rules = identity(english_rules)
    english = [rules.rekeyed(r) for r in records if r.lang == "en"]
    place = {id(record): at for at, record in enumerate(english)}
    unique = versions(english, rules)
    return EnglishFirst(
        rules,
        [(v.vid, place[id(v.record)], v.editions, v.sources, v.origin) for v in unique],
        vocabulary_counts(unique),
    )


def _documents_of(
    first: Callable[[], EnglishFirst], known: Future[EnglishFirst], english: list[Record]
) -> dict[str, dict[str, Any]]:
    """The Whoosh documents (vid -> document) of the English records' versions, once `first`
    makes them (it may wait), `known` given what it made."""
    try:
        found = first()
    except BaseException as error:
        known.set_exception(error)
        raise
    known.set_result(found)
    # Only each version's first record is rekeyed: the rest are the same rule's other editions.
    return {v.vid: whoosh_document(v) for v in found.versions_of(english, found.rules.rekeyed)}


def _write_full(
    plan: Plan, full: FullBuild, failures: tuple[str, ...], progress: Progress | None, folder: Path
) -> tuple[int, int]:
    """A new build folder with the prepared records indexed, the hand-off file, and CURRENT
    swapped to it."""
    home, records, saved, english = plan.home, full.records, full.saved, full.english

    def alongside(unique: list[Version]) -> None:
        """While Whoosh indexes: the hand-off file (written for inspection and for other
        tools; the index is built from the very same records, not read back) and the
        vocabulary."""
        write_records(home, ((s, chunk(group)) for s, group in by_source(records)), saved)
        saved.vocabulary = full.counted + vocabulary_counts(full.uncounted)
        full.uncounted = []

    _give_back_memory()
    try:
        unique = full.unique
        write_index(unique, folder, progress, alongside, saved.identity, full.early)
        full.early = None
        # Indexed and written out: the records and versions are let go of before the state
        # is pickled (the build's peak memory was there, with both still held).
        records_count, versions_count = len(records), len(unique)
        records.clear()
        del unique
        full.unique = []
        write_outdated(folder, sorted(english))
        write_vocabulary(saved.vocabulary, folder)
        (folder / TERMBASE).write_text(saved.termbase, "utf-8")  # the one the records used
        (folder / TERMBASE_READY).write_bytes(full.termbase.to_ready())
        _give_back_memory()  # before the state's pickling, the build's last peak
        saved.save(folder)
        write_current(
            home,
            Current(
                dir=folder.name,
                fingerprint=plan.fingerprint,
                code=code_stamp(),
                files=plan.state,
                records=records_count,
                versions=versions_count,
                failures=failures,
                english_editions=tuple(sorted(english)),
                english_sources={e: tuple(english[e]) for e in sorted(english)},
                translations=full.translations,
                built=time.strftime("%Y-%m-%dT%H:%M:%S"),
                # What the build wrote, to tell damage from it (indexer/integrity.py).
                checksums=checksums(folder),
                # The CRC write_records took while writing it: not read again.
                records_checksum=(paths.records_file(home).stat().st_size, saved.checksum),
            ),
        )
    except OSError as error:
        raise cannot_write(home, error) from None
    return records_count, versions_count


def _remove_stale_builds(home: Path, keep: str) -> None:
    for path in paths.index_root(home).iterdir():
        if path.is_dir() and path.name != keep:
            shutil.rmtree(path, ignore_errors=True)
