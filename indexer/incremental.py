"""Add new English editions to a built library without rebuilding it.

A new edition shares most of its rules with the one before: only its new versions are
indexed, into a copy of the live index (hard links: Whoosh never rewrites a segment file), and
the versions it shares gain the edition in the side store. Translations are re-aligned only
when the new edition becomes the one they follow. The result is the same as a full build
(tests/test_incremental.py compares the two); whenever that could not be so (another change,
a new translation, a term base that would change) this returns None and the caller builds in
full."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
import zlib
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from corpus import paths
from corpus.align.alignment import align_documents, overrides
from corpus.align.editions import by_edition
from corpus.align.following import by_numbering, edition_numbers, followings, rule_numbers
from corpus.align.identity import Identity
from corpus.model.dates import in_effect
from corpus.model.records import Record
from corpus.paths import (
    MEANING_READY,
    MEANING_ROWS,
    MEANING_VECTORS,
    OUTDATED,
    SIDESTORE,
    STATE,
    TERMBASE,
    TERMBASE_READY,
    VOCABULARY,
)
from corpus.terms.enrichment import with_terms
from corpus.terms.termbase import TermBase
from indexer import sidestore
from indexer.integrity import checksums
from indexer.masks import write_outdated
from indexer.plan import Plan
from indexer.sidestore import Membership
from indexer.state import BuildState, by_source, chunk, write_records
from indexer.storage import open_index, writer
from indexer.store import cannot_write, write_current
from indexer.versions import Version, versions
from indexer.writing import vocabulary_counts, whoosh_document, write_vocabulary

# Written anew in each build folder, never through a hard link.
# The vectors too: embedded afterwards for the new folder, mostly from the cache.
OWN_FILES = {TERMBASE, TERMBASE_READY, VOCABULARY, STATE, OUTDATED}
OWN_FILES |= {MEANING_VECTORS, MEANING_ROWS, MEANING_READY}


@dataclass(frozen=True)
class Additions:
    """Adding the new editions, decided: what to write, nothing of it written yet."""

    live: Path  # the live build's folder
    saved: BuildState  # the live build's state, as it was
    old_records: bytes  # records.jsonl, as the live build wrote it
    termbase: TermBase
    english: dict[str, list[str]]  # edition -> its documents, the new ones included
    new_english: list[Record]  # the new editions' records, with their terms
    translated: list[Record]  # the translations, re-aligned where they follow a new edition
    references: list[Record]
    numbers: dict[str, frozenset[str]]
    followed: dict[str, str]
    added: list[Version]  # versions to index
    changed: dict[str, Membership]  # known versions' new memberships
    rules: Identity  # the rules' identity, the new editions added
    renamed: dict[str, str]  # keys the new editions renumber (old -> new)


def add_editions(plan: Plan) -> tuple[Path, int, int] | None:
    """Carry out an "add-editions" plan: (new build folder, records, versions), or None when
    a full build is needed after all."""
    additions = prepare_additions(plan)
    return None if isinstance(additions, str) else write_additions(plan, additions)


def prepare_additions(plan: Plan) -> Additions | str:
    """Every decision of adding the plan's editions, with nothing written: what to write, or
    why a full build is needed after all."""
    home, current, new_documents = plan.home, plan.current, plan.new_editions
    assert current is not None and new_documents
    live = paths.index_root(home) / current.dir
    saved = BuildState.load(live)
    if saved is None or not (live / SIDESTORE).exists():
        return "a build of older code, or damaged"  # a full build replaces it
    try:
        old_records = paths.records_file(home).read_bytes()
    except OSError:
        return "records.jsonl cannot be read"
    if not plan.live_verified and zlib.crc32(old_records) != saved.checksum:
        return "records.jsonl is not the one the live build wrote"
    new_raw = [r for d in sorted(new_documents, key=lambda d: d.source) for r in d.records]
    rules = saved.identity
    renamed = _renumbered(rules, new_raw)
    if renamed is None:
        return "an edition older than the newest loaded: every chain could change"
    saved.translated = [_renamed(r, renamed) for r in saved.translated]
    numbers = {**saved.numbers, **edition_numbers(new_raw)}
    if _numbering_moves(saved, numbers):
        return "a translation now follows another edition by its numbering"
    follows = followings(saved.translated_raw, numbers)
    followed = {source: f.edition for source, f in follows.items()}
    references = [
        r
        for r in _in_library_order(saved.references + new_raw)
        if r.edition in set(followed.values())
    ]
    termbase = None
    if followed == saved.followed:
        # The term base learns from the translations and the editions they follow: the
        # same as the live build's.
        termbase = TermBase.read(live / TERMBASE_READY, live / TERMBASE)
    if termbase is None:
        learning = _in_library_order(saved.translated_raw + references)
        termbase = TermBase.from_records(learning, follows, cache=paths.terms_cache(home))
        if termbase.to_json() != saved.termbase:
            return "the term base changes"  # every record's terms could change

    english = dict(saved.english)
    for document in new_documents:
        english[str(document.edition)] = [document.source]
    new_english = [rules.rekeyed(r) for r in with_terms(new_raw, termbase, saved.english_concepts)]
    forced = overrides(paths.user_overrides(home))
    translated = _realigned(saved, english, new_english, termbase, numbers, forced)
    if translated is None:
        return "a translation would follow an edition by its numbering"

    merged = _merged_versions(sidestore.memberships(live), new_english, rules)
    if merged is None:
        return "a new edition is older than a document it shares versions with"
    changed, added = merged
    old_translated = {v.vid for v in versions(saved.translated, rules)}
    new_translated = {v.vid: v for v in versions(translated, rules)}
    if old_translated - set(new_translated):
        # Whoosh counts deleted documents in its statistics until segments merge: a removed
        # version would leave scores a little different from a full build's.
        return "a translated version would be removed"
    added += [v for vid, v in new_translated.items() if vid not in old_translated]
    changed.update(
        {vid: (v.editions, v.sources) for vid, v in new_translated.items() if vid in old_translated}
    )
    return Additions(
        live,
        saved,
        old_records,
        termbase,
        english,
        new_english,
        translated,
        references,
        numbers,
        followed,
        added,
        changed,
        rules,
        renamed,
    )


def write_additions(plan: Plan, work: Additions) -> tuple[Path, int, int]:
    """Write what `prepare_additions` decided: a new build folder (the live one's Whoosh files
    linked, the new versions added), records.jsonl, and CURRENT swapped to it."""
    home, current, live, saved = plan.home, plan.current, work.live, work.saved
    assert current is not None
    saved.vocabulary += vocabulary_counts(work.added)
    folder: Path | None = None
    try:
        folder = Path(
            tempfile.mkdtemp(prefix=f"build-{plan.fingerprint[:8]}-", dir=paths.index_root(home))
        )
        # records.jsonl while the index is written, as a full build does (its writing is
        # mostly the disk's). It sets saved's offsets, saved last.
        with ThreadPoolExecutor(max_workers=1) as beside:
            rewriting = beside.submit(
                _rewrite_records,
                home,
                saved,
                work.old_records,
                work.new_english,
                work.translated,
                work.renamed,
            )
            _link_index(live, folder)
            shutil.copy2(live / SIDESTORE, folder / SIDESTORE)
            _write_whoosh(folder, work.added)
            sidestore.update(folder, work.added, work.changed, work.rules, work.renamed)
            write_outdated(folder, sorted(work.english))
            write_vocabulary(saved.vocabulary, folder)
            (folder / TERMBASE).write_text(saved.termbase, "utf-8")  # unchanged, checked above
            (folder / TERMBASE_READY).write_bytes(work.termbase.to_ready())
            rewriting.result()
        records = current.records + len(work.new_english)
        saved.translated = work.translated
        saved.references = work.references
        saved.english = work.english
        saved.numbers = work.numbers
        saved.followed = work.followed
        saved.save(folder)
        count = current.versions + len(work.added)
        write_current(
            home,
            replace(
                current,
                dir=folder.name,
                fingerprint=plan.fingerprint,
                files=plan.state,
                records=records,
                versions=count,
                english_editions=tuple(sorted(work.english)),
                english_sources={e: tuple(work.english[e]) for e in sorted(work.english)},
                built=time.strftime("%Y-%m-%dT%H:%M:%S"),
                # What the build wrote, to tell damage from it (indexer/integrity.py).
                checksums=checksums(folder, live, current.checksums),
                records_checksum=(paths.records_file(home).stat().st_size, saved.checksum),
            ),
        )
    except OSError as error:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        raise cannot_write(home, error) from None
    return folder, records, count


def _renumbered(rules: Identity, new_raw: list[Record]) -> dict[str, str] | None:
    """The new editions added to the rules' identity, newest last: every key they rename
    (old -> new), or None when one is older than the newest loaded (a full build)."""
    renamed: dict[str, str] = {}
    by_date = by_edition(new_raw, "en")
    if rules.newest is not None and min(by_date, default="9") <= rules.newest:
        return None
    for edition, records in by_date.items():
        step = rules.extended(edition, records)
        renamed = {old: step.get(new, new) for old, new in renamed.items()}
        renamed.update({old: new for old, new in step.items() if old not in renamed})
    return {old: new for old, new in renamed.items() if old != new}


def _renamed(record: Record, renamed: dict[str, str]) -> Record:
    key = renamed.get(record.key)
    return record if key is None else record.but(key=key)


def _merged_versions(
    rows: dict[str, Membership], new_english: list[Record], rules: Identity
) -> tuple[dict[str, Membership], list[Version]] | None:
    """The new editions' versions merged into the index's: (the changed memberships of known
    versions, the versions to add), or None when a full build is needed."""
    changed: dict[str, Membership] = {}
    added: list[Version] = []
    for version in versions(new_english, rules):
        if version.vid not in rows:
            added.append(version)
            continue
        editions, sources = rows[version.vid]
        if version.sources[0] < sources[0]:
            # A full build shows the record of the first document in library order (an older
            # edition's, when one is added): that document would have to change.
            return None
        changed[version.vid] = (
            tuple(sorted({*editions, *version.editions})),
            tuple(sorted({*sources, *version.sources})),
        )
    return changed, added


def _in_library_order(records: Iterable[Record]) -> list[Record]:
    """As a full build sees them: documents by name, records in document order."""
    return sorted(records, key=lambda r: (r.source, r.seq))


def _numbering_moves(saved: BuildState, numbers: dict[str, frozenset[str]]) -> bool:
    """Whether a translation that follows an edition by its numbering follows another now."""
    numbered_like = saved.numbered_like
    if any(r.original for r in saved.translated_raw):
        return True  # a catalogue follows by its text, which only a full build compares
    for source, group in by_source(saved.translated_raw):
        if source in numbered_like:
            again = by_numbering(rule_numbers(group), numbers)
            if again is None or again.edition != numbered_like[source]:
                return True
    return False


def _realigned(
    saved: BuildState,
    english: dict[str, list[str]],
    new_english: list[Record],
    termbase: TermBase,
    numbers: dict[str, frozenset[str]],
    forced: dict[tuple[str, str], str],
) -> list[Record] | None:
    """The translated records as a full build would key them now: re-aligned when the new
    edition is the one a document follows, as they were otherwise; None when a document would
    now follow an edition by its numbering (a full build decides that)."""
    before = sorted(saved.english)
    after = sorted(english)
    numbered_like = saved.numbered_like
    moved = {
        source
        for source, group in by_source(saved.translated_raw)
        if source not in numbered_like
        and in_effect(before, group[0].edition) != in_effect(after, group[0].edition)
    }
    if not moved:
        return saved.translated
    followed = {in_effect(after, r.edition) for r in saved.translated_raw if r.source in moved}
    reference = [r for r in new_english if r.edition in followed]
    raw = [r for r in saved.translated_raw if r.source in moved]
    follows = followings(raw + reference, numbers)
    if any(f.method == "numbering" for f in follows.values()):
        return None
    realigned = [
        saved.identity.rekeyed(r)
        for r in align_documents(with_terms(raw, termbase) + reference, follows, forced)
        if r.lang != "en"
    ]
    kept = [r for r in saved.translated if r.source not in moved]
    return _in_library_order(kept + realigned)


def _link_index(live: Path, folder: Path) -> None:
    """The live Whoosh files in the new folder. Whoosh writes new segment and table-of-contents
    files and never changes one in place, so hard links are safe; copies where links fail."""
    for path in live.iterdir():
        if not path.is_file() or path.name in OWN_FILES or path.name == SIDESTORE:
            continue
        if path.name.endswith("WRITELOCK"):
            continue  # the writer makes its own; a shared one would tie the two folders
        try:
            os.link(path, folder / path.name)
        except OSError:
            shutil.copy2(path, folder / path.name)


def _write_whoosh(folder: Path, added: list[Version]) -> None:
    ix = open_index(folder)
    with writer(ix) as adding:
        for version in added:
            adding.add_document(**whoosh_document(version))


def _rewrite_records(
    home: Path,
    saved: BuildState,
    old: bytes,
    new_english: list[Record],
    translated: list[Record],
    renamed: dict[str, str],
) -> None:
    """records.jsonl with the new editions' lines and the translations' current ones; every
    other document's lines copied as they were, under their renamed keys."""
    fresh = {source: chunk(group) for source, group in by_source(translated)}
    fresh.update({source: chunk(group) for source, group in by_source(new_english)})
    previous = dict(saved.offsets)
    sources = sorted({*previous, *fresh})
    keys = _keys_like(renamed) if renamed else None

    def data(source: str) -> bytes:
        if source in fresh:
            return fresh[source]
        start, length = previous[source]
        lines = old[start : start + length]
        return keys.sub(lambda m: _renamed_key(m, renamed), lines) if keys else lines

    write_records(home, ((s, data(s)) for s in sources), saved)


# A record's key in its records.jsonl line: right after its lines (record_json's field order),
# where no text can put the same characters (a quote in a text is escaped).
_KEY = re.compile(rb'(,"lines":\[\d+,\d+\],"key":")([^"]*)(")')


def _keys_like(renamed: dict[str, str]) -> re.Pattern[bytes]:
    """`_KEY`, for only the keys that start as a renamed one does (its part before the first
    dot: 722 for 722.1a): the other lines, most of them, are never handed to Python. What
    it matches is renamed as `_KEY` would rename it, and `_KEY` renames nothing else."""
    heads = sorted({old.partition(".")[0].encode("utf-8") for old in renamed}, key=len)
    either = b"|".join(re.escape(head) for head in reversed(heads))
    return re.compile(rb'(,"lines":\[\d+,\d+\],"key":")((?:' + either + rb')(?:\.[^"]*)?)(")')


def _renamed_key(match: re.Match[bytes], renamed: dict[str, str]) -> bytes:
    key = renamed.get(match[2].decode("utf-8"))
    return match[0] if key is None else match[1] + key.encode("utf-8") + match[3]
