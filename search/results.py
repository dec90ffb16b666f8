"""Results: records grouped under one English key, their JSON shape, their order, and the
filters a search or lookup applies."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from corpus.align.following import followed
from corpus.model.documents import DOCUMENTS, doc_of_key, is_judge_key
from corpus.model.languages import SHOWN_ORDER
from corpus.model.mechanics import by_english
from corpus.model.numbers import sort_key
from corpus.model.records import StoredRecord


@dataclass
class Result:
    key: str
    score: float
    records: list[StoredRecord] = field(default_factory=list)
    in_effect: str | None = None  # the English edition the translations correspond to
    asked: str | None = None  # the English edition shown beside them: --edition's, or the newest
    loaded: tuple[str, ...] = ()  # its document's English editions in the library, oldest first
    # A judge document's part: its title and penalty, also when --kind left its text out.
    part_title: str | None = None
    part_penalty: str | None = None

    def title(self, langs: Sequence[str] = ()) -> str | None:
        """The title its records give (the first of `langs` that has one, when given: "205.4 —
        Supertipi" for --show it), or its part's."""
        titled = [r for r in self.records if r.title]
        preferred = [r for lang in langs for r in titled if r.lang == lang]
        return next((r.title for r in [*preferred, *titled]), None) or self.part_title

    def penalty(self) -> str | None:
        """An IPG infraction's penalty."""
        return next((r.penalty for r in self.records if r.penalty), None) or self.part_penalty

    def english(self) -> dict[str, Any]:
        english = [r for r in self.records if r.lang == "en" and r.kind in ("rule", "glossary")]
        chosen = [r for r in english if self.in_effect in r.editions] or english[-1:]
        mechanic = by_english(self.key)
        terms: dict[str, None] = {}
        # The concepts of the English text shown, where there is one: a translation's are found
        # through learned pairs that a function word can fool (Spanish "si" is "as though" on
        # the cards' lines, so nearly every Spanish rule had "as though" among its words).
        ruled = any(r.lang == "en" and r.terms for r in self.records)
        for record in self.records:
            # An older English text's words are not today's ("converted mana cost" in 202.3).
            shown = not self.in_effect or self.in_effect in record.editions
            english_shown = record.lang == "en" and (shown or not record.editions)
            if english_shown or (record.lang != "en" and not ruled):
                terms.update(dict.fromkeys(record.terms))
        summary: dict[str, Any] = {
            "rule": mechanic.rule if mechanic else self.key,
            "edition": self.in_effect if chosen and self.in_effect else None,
            "terms": list(terms)[:12],
            "text": chosen[0].text if chosen else None,
        }
        # The translations follow an older edition: today's English (or --edition's) too, so
        # that a script reading `text` alone is not left with an outdated rule unawares.
        current = [r for r in english if self.asked in r.editions]
        if chosen and current and self.asked != self.in_effect and current[0] is not chosen[0]:
            summary["current"] = {"edition": self.asked, "text": current[0].text}
        return summary

    def to_json(self, show: Iterable[str] = ()) -> dict[str, Any]:
        """The JSON shape of PRODUCT.md; `show` keeps only those languages' records."""
        wanted = set(show)
        shown = [r for r in self.records if not wanted or r.lang in wanted]
        out = {
            "key": self.key,
            "english": self.english(),
            "score": round(self.score, 3),
            "document": doc_of_key(self.key),  # cr, mtr, ipg or jar
            "records": [r.shown_json() for r in shown],
        }
        if note := self.printed_otherwise(shown):
            out["renumbered"] = note
        if is_judge_key(self.key):  # a judge part's, as `--brief` prints it: no record to read
            out["title"] = self.title()
            if penalty := self.penalty():
                out["penalty"] = penalty
        return out

    def printed_otherwise(self, records: Iterable[StoredRecord] | None = None) -> str | None:
        """One line when records print a number other than their rule's current key (the same
        rule, renumbered since), else None: "printed 724.1 in en 2025-11-14, es (follows
        2025-11-14); 725.1 now". A heading's subrules and a mechanic's rules print their own
        keys: they are not renumbered; a subrule that was says its own key ("(725.1 now)")."""
        where: dict[tuple[str, str], list[str]] = {}
        misprints: list[str] = []
        for record in self.records if records is None else records:
            if record.kind != "rule" or not record.number or record.number == record.key:
                continue
            if record.align.method != "number":
                continue  # aligned by content or forced: its label says so
            if "misnumbered" in record.flags:  # corpus/align/misnumbered.py
                misprints.append(
                    f"{record.lang} prints {record.number}, a number it gives two rules: "
                    f"a misprint, read as {record.key}"
                )
                continue
            if record.lang == "en":
                label = f"en {record.edition}"
            elif record.follows:
                label = f"{record.lang} (follows {record.follows})"
            else:
                label = record.lang
            labels = where.setdefault((record.number, record.key), [])
            if label not in labels:
                labels.append(label)
        if not where:
            return "; ".join(misprints) or None
        from corpus.align.identity import gone_place  # a renumbered rule's only

        gone = gone_place(self.key)
        now = f"gone from the newest edition (key {self.key})" if gone else f"{self.key} now"
        parts = [
            f"{number} in {', '.join(labels)}" + ("" if key == self.key else f" ({key} now)")
            for (number, key), labels in where.items()
        ]
        # Only subrules renumbered (each says its key): the result's own key is no news.
        own = any(key == self.key for _, key in where)
        said = f"printed {'; '.join(parts)}" + (f"; {now}" if own or gone else "")
        return "; ".join([said, *misprints])


@dataclass(frozen=True)
class SearchOutcome:
    """What a search answers: the results, the words that matched (folded and stemmed, for
    highlighting) and, when no rule had every word, the words found nowhere."""

    results: list[Result]
    matched: frozenset[str] = frozenset()
    missing: tuple[str, ...] = ()
    partial: bool = False  # ranked on some of the words only
    by_meaning: bool = False  # no rule has any of the words: ranked by the encoder alone
    judged: bool = False  # a tournament's question, or one naming a judge document's part

    def followed_by(self, rest: SearchOutcome, limit: int, first: int) -> SearchOutcome:
        """This outcome's best `first` results, then `rest`'s others, `limit` in all; the words
        are `rest`'s (searched among every document)."""
        head = self.results[:first]
        shown = {result.key for result in head}
        results = head + [result for result in rest.results if result.key not in shown]
        return replace(rest, results=results[:limit])

    def copied(self) -> SearchOutcome:
        """A copy whose results can be changed (presenting them picks records, sets the edition
        in effect) without changing this one. The records are frozen: shared, not copied
        (copy.deepcopy copied them all, half the time of a repeated search)."""
        return replace(self, results=[replace(r, records=list(r.records)) for r in self.results])


def order_records(records: Iterable[StoredRecord]) -> list[StoredRecord]:
    def position(record: StoredRecord) -> tuple[Any, ...]:
        if is_judge_key(record.key):  # a judge document's part: as printed
            return (SHOWN_ORDER.index(record.lang), "", (record.parent is not None,), record.seq)
        number = record.number or record.parent or ""
        # Rule order before the document: a heading's subrules come a, b, c… though an unchanged
        # one is the version of an older edition's file.
        return (
            SHOWN_ORDER.index(record.lang),
            sort_key(number) if number else (0, 0, 0, ""),
            record.source,
            record.seq,
        )

    return sorted(records, key=position)


def select_english(result: Result, english_editions: tuple[str, ...], edition: str | None) -> None:
    """Keep the English versions a reader needs: the one each translation corresponds to and the
    newest (or the one of --edition); the rule's whole history is `mtgrules history`."""
    if doc_of_key(result.key) != "cr":  # a judge document's editions are its own
        english_editions = tuple(sorted({e for r in result.records for e in r.editions}))
        edition = edition if edition in english_editions else None
    result.loaded = english_editions
    newest = english_editions[-1] if english_editions else None
    editions = list(english_editions)
    follows = [followed(editions, r) for r in result.records if r.lang != "en"]
    result.asked = edition or newest
    result.in_effect = follows[0] if follows else result.asked
    targets = {*follows, result.asked}
    english = [r for r in result.records if r.lang == "en"]
    keep = {id(r) for r in [r for r in english if targets & set(r.editions)] or english[-1:]}
    result.records = [r for r in result.records if r.lang != "en" or id(r) in keep]


@dataclass(frozen=True)
class Filters:
    langs: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    edition: str | None = None
    all_editions: bool = False  # rank on every English edition's text, not the newest only
    docs: tuple[str, ...] = ()  # cr, mtr, ipg, jar (corpus/model/documents.py); empty: all
    # With an edition: each judge document's edition in effect on that date (its newest on or
    # before it; Engine.with_edition). The judge documents' dates are their own, not the CR's.
    in_effect: tuple[tuple[str, str], ...] = ()
    # And each judge document asked of that had no edition yet then, with its oldest edition.
    not_yet: tuple[tuple[str, str], ...] = ()
    asked_edition: str | None = None  # the date asked for, before it was read as an edition

    @property
    def edition_note(self) -> str | None:
        """What a date that is no edition was read as ("2025-01-01: the rules in effect then,
        English 2024-11-08"), and which judge documents had no edition yet then, or None."""
        asked, edition = self.asked_edition, self.edition
        if not asked or not edition or asked == "latest":
            return None
        notes = []
        if asked != edition and (not self.docs or "cr" in self.docs):
            notes.append(f"{asked} is no edition here: the rules in effect then, English {edition}")
        not_yet = [(d, oldest) for d, oldest in self.not_yet if not self.docs or d in self.docs]
        if len(not_yet) == 1:
            [(doc, oldest)] = not_yet
            notes.append(
                f"no {doc.upper()} here was in effect on {asked} (its oldest edition here: "
                f"{oldest})"
            )
        elif not_yet:
            # One clause for them all: a CR question of 2019 read three of these.
            names = listed([doc.upper() for doc, _ in not_yet], " or ")
            oldest = ", ".join(f"{doc.upper()} {date}" for doc, date in not_yet)
            notes.append(
                f"no {names} here was in effect on {asked} (their oldest editions here: {oldest})"
            )
        return "; ".join(notes) or None

    def edition_of(self, key: str) -> str | None:
        """The edition asked for a key's document: the CR's date, or the judge document's
        edition in effect then (None: that document had no edition yet)."""
        doc = doc_of_key(key)
        if doc == "cr" or not self.edition:
            return self.edition
        return dict(self.in_effect).get(doc)

    def _of_edition(self, record: StoredRecord) -> bool:
        edition = self.edition_of(record.key)
        # None: a judge document with no edition yet on the date asked; not a record's
        # missing `follows` (an English text follows nothing).
        return edition is not None and edition in (*record.editions, record.follows)

    def whoosh(self):
        """The language and kind filters as a Whoosh query (the edition is the engine's)."""
        from whoosh.query import And, Or, Term

        parts = []
        if self.langs:
            parts.append(Or([Term("lang", lang) for lang in self.langs]))
        if self.kinds:
            parts.append(Or([Term("kind", kind) for kind in self.kinds]))
        if self.docs and set(self.docs) != set(DOCUMENTS):
            parts.append(Or([Term("doc", doc) for doc in self.docs]))
        return And(parts) if parts else None

    def keep(self, record: StoredRecord) -> bool:
        return (
            (not self.langs or record.lang in self.langs)
            and (not self.kinds or record.kind in self.kinds)
            and (not self.edition or self._of_edition(record))
            and (not self.docs or doc_of_key(record.key) in self.docs)
        )


def listed(names: Sequence[str], last: str = " and ") -> str:
    """Names as a sentence lists them: "MTR, IPG and JAR"."""
    return last.join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
