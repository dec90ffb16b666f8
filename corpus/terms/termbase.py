"""The term base: English concepts and their Italian, French and Spanish terms, with sources.

Most terms are learned from the library's parallel text at build time (corpus/terms/learning.py);
a small curated file holds what cannot be learned, and the mechanics table names the set
mechanics. A term matches a text only where its words are written alike: inflected, never
merely stemmed alike (corpus/model/inflection.py)."""

from __future__ import annotations

import contextlib
import csv
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from corpus.model.inflection import inflected_alike
from corpus.model.languages import CODES, TRANSLATED
from corpus.model.lemmas import LANGS as LEMMA_LANGS
from corpus.model.lemmas import Lemmas
from corpus.model.mechanics import mechanics
from corpus.model.records import Record
from corpus.model.text import fold
from corpus.model.words import (
    concept_name,
    content_words,
    english_key,
    plain_words,
    stop_words,
    tokens,
    whole_phrase,
)
from corpus.paths import DATA

if TYPE_CHECKING:
    from corpus.align.following import Following
    from corpus.terms.learning import Learned, Prepared


@dataclass(frozen=True)
class Term:
    english: str
    lang: str
    term: str
    source: str
    period: str | None = None
    count: int = 0  # learned: times the aligned text pairs them
    confidence: float | None = None  # learned: their share of the English term's occurrences
    # A word of the game's general vocabulary ("turno": turn): it translates a query's word but
    # is no concept of a record (every rule has a player and a turn: concepts that all records
    # share would make unrelated rules look alike to the aligner).
    general: bool = False

    @property
    def shown(self) -> bool:
        """Whether `term` shows it: not a learned pair too unsure to be a term."""
        return self.confidence is None or self.confidence >= SHOWN_CONFIDENCE

    @property
    def obsolete(self) -> bool:
        """A term no longer in use: its period ends ("2003-2021")."""
        return bool(self.period) and not str(self.period).endswith("-")


def _rows(name: str) -> list[list[str]]:
    text = (DATA / name).read_text("utf-8")
    return [
        row
        for row in csv.reader(text.splitlines(), delimiter="\t")
        if row and not row[0].startswith("#")
    ]


# Words in a text that are not the game's: web addresses and the publisher's name.
NOT_THE_GAMES = re.compile(
    r"\b(?:https?://)?[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|gg|io)\b(?:/\S*)?"
    r"|\bWizards of the Coast\b",
    re.IGNORECASE,
)
# What every such text has, found without backtracking: most texts have none.
MAYBE_NOT_THE_GAMES = re.compile(r"\.(?:com|org|net|gg|io)\b|://|wizards of the coast", re.I)
SHOWN_CONFIDENCE = 0.1
"""Learned pairs below this share of their English term's occurrences are not shown by `term`.
The aligner keeps nothing below 0.25 (MIN_CONFIDENCE), so only keyword lines paired item by item
fall under it, and of those the misreadings of a line seen once or twice sit at 0.022 or below
("menace" it "menace" 0.006, "flying" fr "défenseur ciblée" 0.001, "suspend" fr "suspend"
0.022), the least sure real name at 0.18 ("myriad" fr "myriade", 3 of 17 lines)."""


@cache
def static_terms() -> tuple[Term, ...]:
    """What the library's own parallel text may not teach: pairs learned offline from MTGJSON
    card text (scripts/derive-terms), the curated rows and the mechanics table."""
    learned = []
    for name, general in (("terms-mtgjson.tsv", False), ("terms-mtgjson-general.tsv", True)):
        for row in _rows(name)[1:]:
            english, lang, term, count, confidence = row[:5]
            first, last = [*row[5:7], "", ""][:2]  # release dates of the sets that print it
            learned.append(
                (
                    Term(
                        english,
                        lang,
                        term,
                        f"learned from MTGJSON card text{' (a general word)' if general else ''}"
                        f": {count} aligned lines, confidence {float(confidence):.2f}"
                        + (f", printed {first[:4]}-{last[:4]}" if first else ""),
                        count=int(count),
                        confidence=float(confidence),
                        general=general,
                    ),
                    first,
                    last,
                )
            )
    curated = [
        Term(english, lang, term, f"curated: {source}", None if period == "-" else period)
        for english, lang, term, period, source in _rows("terms-curated.tsv")
    ]
    terms = [*_dated(learned, curated), *curated]
    for mechanic in mechanics():
        for lang, names in mechanic.names.items():
            terms.extend(Term(mechanic.english, lang, n, "mechanics table") for n in names)
    return tuple(terms)


DATED_COUNT = 10  # lines a learned term and its successor must each be seen on to date it


def _dated(learned: list[tuple[Term, str, str]], curated: list[Term]) -> list[Term]:
    """The learned terms, those no longer in use with their period: a term whose cards stop
    printing it before another term of the same concept and language starts ("mana value" it
    "costo di mana convertito" on cards 2003-2021, "valore di mana" since 2021; "any target" fr
    "cible créature ou joueur" 2003-2018, "importe quelle cible" since) is obsolete. Both must be
    seen on DATED_COUNT lines, or a pair seen on a few cards of one set would date its rival.
    A curated row's period ("2021-") says the year its term started: a term last printed that
    year or before is replaced by it. Periods are shown in years."""
    starts: dict[tuple[str, str], list[tuple[str, str]]] = {}  # -> [(first date, term)]
    for term, first, _ in learned:
        if first and term.count >= DATED_COUNT:
            starts.setdefault((term.lang, term.english.lower()), []).append((first, term.term))
    for row in curated:
        if row.period and row.period[:4].isdigit():
            # After the year's last day: a term last printed that year or before is replaced.
            start = (row.period[:4] + "-13", row.term)
            starts.setdefault((row.lang, row.english.lower()), []).append(start)
    dated = []
    for term, first, last in learned:
        later = [
            other
            for start, other in starts.get((term.lang, term.english.lower()), [])
            if last and start > last and not _alike(other, term.term, term.lang)
        ]
        if later and term.count >= DATED_COUNT and term.shown:
            term = replace(term, period=f"{first[:4]}-{last[:4]}")
        dated.append(term)
    return dated


def _alike(a: str, b: str, lang: str) -> bool:
    """Whether two terms are the same words, inflected or not ("Terraferma", "terraferma")."""
    first, second = a.lower().split(), b.lower().split()
    return len(first) == len(second) and all(
        inflected_alike(x, y, lang) for x, y in zip(first, second, strict=True)
    )


def unlearned(curated: Iterable[Term], learned: Sequence[Term]) -> list[Term]:
    """The curated rows the learned ones do not reproduce (same language, same English term,
    the same words inflected): a curated row is for what the library cannot teach. A pair
    learned too unsure to be shown reproduces none: Spanish contrarrestar, learned for counter at
    0.02 beside contadores, hid the curated row that says it is 701.6's keyword action."""
    known: dict[tuple[str, str], list[str]] = {}
    for term in learned:
        if not term.shown:
            continue
        known.setdefault((term.lang, english_key(tokens(term.english))), []).append(term.term)

    def reproduced(row: Term) -> bool:
        words = row.term.lower().split()
        return any(
            len(words) == len(other.split())
            and all(
                inflected_alike(a, b, row.lang) for a, b in zip(words, other.split(), strict=True)
            )
            for other in known.get((row.lang, english_key(tokens(row.english))), ())
        )

    return [row for row in curated if row.source == "mechanics table" or not reproduced(row)]


def whole_terms(learned: Sequence[Term], known: Sequence[Term]) -> list[Term]:
    """The learned terms that are not a part of a longer term of the same concept: from a few
    pairs the aligner may link "state-based action" to "stato" alone, and "stato" is in every
    "è stato"; "azione generata dallo stato" is the term."""
    longer: dict[tuple[str, str], list[list[str]]] = {}
    for term in known:
        longer.setdefault((term.lang, term.english), []).append(term.term.lower().split())

    def part(term: Term) -> bool:
        words = term.term.lower().split()
        return any(
            len(other) > len(words)
            and any(other[i : i + len(words)] == words for i in range(len(other) - len(words) + 1))
            for other in longer.get((term.lang, term.english), ())
        )

    return [term for term in learned if not part(term)]


def english_concepts(prepared: Prepared) -> list[str]:
    """The English concepts a term base built from `prepared` knows in English: those of every
    static row and every English term the learner looks for, translated or not (so that the
    English side does not depend on what the aligner finds)."""
    return [*(concept_name(t.english) for t in static_terms()), *prepared[1].values()]


def glossary_terms(records: Iterable[Record], known: Sequence[Term]) -> list[Term]:
    """A translated glossary's headwords, each the term of the English headword its entry is
    keyed by (the Brazilian catalogue's "Atropelar" for Trample, whose cards the MTGJSON files
    do not print in Portuguese): what the term base has not already. Headwords with a comma or
    a bracket ("Kicker, Kicked", "Bury (Obsolete)") name more than one term: left out."""
    have = {(t.lang, t.english.lower(), t.term.lower()) for t in known}
    found: dict[tuple[str, str, str], Term] = {}
    for record in records:
        title, english = record.title or "", record.key
        if record.kind != "glossary" or record.lang not in TRANSLATED or not title:
            continue
        if any(mark in title + english for mark in ",()") or title.lower() == english.lower():
            continue
        at = (record.lang, english.lower(), title.lower())
        if at not in have and at not in found:
            source = f"glossary of {record.source}: “{title}” is its entry for {english}"
            found[at] = Term(english.lower(), record.lang, title, source)
    return list(found.values())


def learned_term(learned: Learned) -> Term:
    where = "; ".join(learned.sources)
    return Term(
        learned.english,
        learned.lang,
        learned.term,
        f"learned: {learned.count} aligned pairs, confidence {learned.confidence:.2f} ({where})",
        count=learned.count,
        confidence=learned.confidence,
    )


@lru_cache(maxsize=100_000)
def written_alike(written: str, term: str) -> bool:
    """Whether a word that stems like a term's word can be that word: not when it carries an
    accent the term's word lacks (French "basé" is not "base", the word for basic, though both
    fold and stem alike). A missing accent is only sloppy writing, and inflections differ in
    more than accents."""
    for form in (written, written[:-1] if written.endswith(("s", "x")) else ""):
        if form and len(form) == len(term) and fold(form) == fold(term) and form != term:
            return not any(a != b and fold(a) == b for a, b in zip(form, term, strict=True))
    return True


class TermBase:
    """English concept <-> terms in each language, matched on stemmed words."""

    MAX_WORDS = 5

    def __init__(self, terms: Iterable[Term], english: Iterable[str] = ()) -> None:
        """`english`: more English concepts, known in English though no translation of them
        is known (every English term the learner looks for)."""
        self.terms = tuple(terms)
        self.english = tuple(english)
        # (language, stems) -> the concepts of that key, each with the words of its term as
        # written: a text or query names a concept only when written like its term.
        self._seen: dict[tuple[str, tuple[str, ...], tuple[str, ...], bool], set[str]] = {}
        self._forget()
        self._by_stems: dict[tuple[str, tuple[str, ...]], set[str]] = {}
        self._written: dict[tuple[str, tuple[str, ...]], set[tuple[str, tuple[str, ...]]]] = {}
        # The general words', apart: looked up for a query, never found as a record's concepts.
        self._general: dict[tuple[str, tuple[str, ...]], set[tuple[str, tuple[str, ...]]]] = {}
        for term, words in self._spellings():
            key = (term.lang, tuple(stem for stem, _ in words))
            if key[1] and len(key[1]) <= self.MAX_WORDS:
                concept = concept_name(term.english)
                form = (concept, tuple(w for _, w in words))
                if term.general:
                    self._general.setdefault(key, set()).add(form)
                    in_english = content_words(concept, "en")
                    english_key = ("en", tuple(stem for stem, _ in in_english))
                    english_form = (concept, tuple(w for _, w in in_english))
                    self._general.setdefault(english_key, set()).add(english_form)
                    continue
                self._by_stems.setdefault(key, set()).add(concept)
                self._written.setdefault(key, set()).add(form)
        named = {concept for concepts in self._by_stems.values() for concept in concepts}
        for concept in sorted(named | {concept_name(name) for name in self.english}):
            words = content_words(concept, "en")
            key = ("en", tuple(stem for stem, _ in words))
            if not key[1]:
                continue  # only function words ("all")
            self._by_stems.setdefault(key, set()).add(concept)
            self._written.setdefault(key, set()).add((concept, tuple(w for _, w in words)))

    def _spellings(self) -> Iterator[tuple[Term, list[tuple[str, str]]]]:
        """Each term's content words; a hyphenated one's also as separate words: the Brazilian
        glossary writes "ação baseada-no-estado", a query "ação baseada no estado". Not when a
        part is a stop word and the rest one word: "sur-type" is no "type"."""
        for term in self.terms:
            joined = content_words(term.term, term.lang)
            yield term, joined
            if "-" in term.term:
                apart = content_words(term.term.replace("-", " "), term.lang)
                if len(apart) > len(joined):
                    yield term, apart

    @classmethod
    def from_records(
        cls,
        records: Sequence[Record],
        follows: Mapping[str, Following] | None = None,
        cache: Path | None = None,
        prepared: Prepared | None = None,
    ) -> TermBase:
        """The curated terms and those learned from the records' parallel text. `follows`:
        source -> the English edition a translation follows (corpus.align.following); `cache`:
        where learned terms are kept (see term_learning.learn)."""
        from corpus.terms.learning import learn, prepare  # a build's work, not a search's

        prepared = prepared or prepare(records, follows or {})
        learned = [learned_term(t) for t in learn(records, follows or {}, cache, prepared)]
        # A curated row gives way to a learned term that reproduces it and is kept: "battaglia",
        # learned from a few pairs, is dropped as a part of a longer term of battle's, and the
        # curated "battaglia" (the card type) was dropped for it, leaving neither.
        whole = whole_terms(learned, [*static_terms(), *learned])
        curated = unlearned(static_terms(), whole)
        known = [*curated, *whole]
        return cls([*known, *glossary_terms(records, known)], english=english_concepts(prepared))

    @classmethod
    def english_side(cls, prepared: Prepared) -> TermBase:
        """A term base with the English side of `from_records` (for the same `prepared`), known
        before any word is aligned: English texts can be read with it while the learner runs."""
        return cls(static_terms(), english=english_concepts(prepared))

    def to_ready(self) -> bytes:
        """The term base with its lookup tables computed, for a command to read what it asks
        instead of stemming every term again (SQLite: corpus/terms/stored.py)."""
        from corpus.terms.stored import to_bytes

        return to_bytes(self.terms, self.english, self._by_stems, self._written, self._general)

    @staticmethod
    def from_ready(data: bytes) -> TermBase:
        from corpus.terms.stored import from_bytes

        return from_bytes(data)

    @classmethod
    def read(cls, ready: Path, saved: Path) -> TermBase | None:
        """A build's term base: the ready tables, else (a build of older code, or a damaged
        file) the JSON; None when neither can be read."""
        import sqlite3

        from corpus.terms.stored import open_file

        with contextlib.suppress(OSError, sqlite3.Error):
            return open_file(ready)
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            return cls.from_json(saved.read_text("utf-8"))
        return None

    def to_json(self) -> str:
        terms = [asdict(t) for t in self.terms]
        return json.dumps({"terms": terms, "english": list(self.english)}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> TermBase:
        data = json.loads(text)
        return cls([Term(**t) for t in data["terms"]], data["english"])

    def concepts_in(self, text: str, lang: str) -> list[str]:
        """English concepts the text mentions, once per mention, in order (not in a web
        address or the publisher's name: "wpn.wizards.com" names no Wizard)."""
        if MAYBE_NOT_THE_GAMES.search(text):  # the full pattern backtracks: a tenth of a build
            text = NOT_THE_GAMES.sub(" ", text)
        written = content_words(text, lang)
        stems = [stem for stem, _ in written]
        words = tuple(word for _, word in written)
        starts = self._starts()
        found = []
        for start, stem in enumerate(stems):
            for key in starts.get((lang, stem), ()):  # the terms that begin with this word
                end = start + len(key)
                if tuple(stems[start:end]) == key:
                    found.extend(sorted(self._written_as(lang, key, words[start:end])))
        if lang == "en" and found:
            found = [c for c in found if self._as_phrase(c, text)]
        return found

    def _as_phrase(self, concept: str, text: str) -> bool:
        """Whether an English text names a concept its content words alone would misname
        ("level up") by its whole phrase; any other concept, as its words found it."""
        pattern = whole_phrase(concept)
        return pattern is None or pattern.search(text) is not None

    def _written_as(
        self, lang: str, key: tuple[str, ...], words: tuple[str, ...], general: bool = False
    ) -> set[str]:
        """The concepts of a key whose term the words are: each word an inflection of the
        term's (not "deserter" for "desert"), with no accent the term lacks. With `general`,
        the general words' too (a query's word, not a record's text)."""
        found = self._seen.get((lang, key, words, general))
        if found is None:
            forms = self._written.get((lang, key), set())
            if general:
                forms = forms | self._general.get((lang, key), set())
            found = self._seen[lang, key, words, general] = {
                concept
                for concept, form in forms
                if all(
                    inflected_alike(w, t, lang) and written_alike(w, t)
                    for w, t in zip(words, form, strict=True)
                )
            }
        return found

    def _forget(self) -> None:
        """The lookup tables made on first use, kept on the instance (a functools.cache on a
        method would keep every term base alive for the process: `serve` makes one per
        rebuild)."""
        self._starts_table: dict[tuple[str, str], list[tuple[str, ...]]] | None = None
        self._english_table: dict[str, list[Term]] | None = None
        self._lemma_seen: dict[tuple[str, str], set[str]] = {}

    def _starts(self) -> dict[tuple[str, str], list[tuple[str, ...]]]:
        """(language, first stem) -> every term key that begins with it, shortest first."""
        if self._starts_table is None:
            starts: dict[tuple[str, str], list[tuple[str, ...]]] = {}
            for lang, key in sorted(self._by_stems, key=lambda k: len(k[1])):
                starts.setdefault((lang, key[0]), []).append(key)
            self._starts_table = starts
        return self._starts_table

    def english_for(self, phrase: str) -> set[str]:
        """English concepts a word or phrase in any of the translated languages names."""
        concepts: set[str] = set()
        for lang in TRANSLATED:
            concepts |= self._named(lang, phrase)
        return concepts

    def _named(self, lang: str, phrase: str) -> set[str]:
        """The concepts a whole word or phrase of one language names (as concepts_in finds
        them in a text: by stems, written alike)."""
        written = content_words(phrase, lang)
        key = tuple(stem for stem, _ in written)
        return self._written_as(lang, key, tuple(word for _, word in written), general=True)

    def named_by(self, phrase: str) -> set[str]:
        """The English concepts a whole word or phrase names, in any language."""
        return self.english_for(phrase) | self._english(phrase)

    def languages_of(self, word: str) -> set[str]:
        """The translated languages in which a word is (part of) a term."""
        return {lang for lang in TRANSLATED if self._named(lang, word)}

    def lookup(
        self, phrase: str, lemmas: Lemmas | None = None, languages: Iterable[str] = ()
    ) -> list[Term]:
        """Every term of the concepts a word or phrase names, in any language. With `lemmas`, a
        word that names none as written is read as its lemma ("piochent": piocher, whose form
        "piochez" is a term), in `languages` (the query's, when known) or else in every
        language that has lemmas."""
        wanted = {c.lower() for c in self.named_by(phrase)}
        wanted = wanted or self.composed(phrase)
        if not wanted and lemmas is not None:
            wanted = {c.lower() for c in self.named_by_lemma(phrase, lemmas, languages)}
        by_english = self._by_english()
        return [t for concept in sorted(wanted) for t in by_english.get(concept, ())]

    def named_by_lemma(self, word: str, lemmas: Lemmas, languages: Iterable[str] = ()) -> set[str]:
        """The concepts a word names through its lemma: a term of the word's language is one of
        the lemma's forms ("morire": "muore"; "arrollar": "arrolla"; "pesco": "pesca"). One word
        only: a phrase's terms are matched word by word already (corpus/model/inflection.py)."""
        if len(plain_words(word)) != 1:
            return set()
        asked = [lang for lang in languages if lang in LEMMA_LANGS]
        found = self._by_lemma_in(word, lemmas, asked or LEMMA_LANGS)
        if not found and asked:
            # The query's language is decided by most of its words, each word's by itself: an
            # Italian verb in a query taken for French ("sacrificare un permanente") is read
            # as the lemma of whichever language has it.
            found = self._by_lemma_in(
                word, lemmas, [lang for lang in LEMMA_LANGS if lang not in asked]
            )
        return found

    def _by_lemma_in(self, word: str, lemmas: Lemmas, languages: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for lang in languages:
            # Remembered once the language's tables are read: the words of questions recur
            # ("succede", "joueur"), and a word the query's language lacks is read in two more.
            asked = (word, lang)
            concepts = self._lemma_seen.get(asked)
            if concepts is None:
                concepts = {
                    concept
                    for lemma in lemmas.lemmas(word, lang)
                    for form in lemmas.forms(lemma, lang)
                    for concept in self._written_exactly(lang, form)
                }
                if lang in lemmas.loaded:
                    self._lemma_seen[asked] = concepts
            found |= concepts
        return found

    def _written_exactly(self, lang: str, word: str) -> set[str]:
        """The concepts whose term is this one word, case aside (a lemma's form must be the
        term itself: a stem shared with it is not enough, nor the same letters without their
        accents: Italian "abilita", enables, is not "abilità")."""
        written = content_words(word, lang)
        if len(written) != 1:
            return set()
        ((stem, form),) = written
        # A query's word: the general words' terms too ("perdono": perdere, whose form "perde"
        # is lose's), as a query's words written alike are (`_named`).
        key = (lang, (stem,))
        forms = self._written.get(key, set()) | self._general.get(key, set())
        return {concept for concept, words in forms if words[0] == form}

    def terms_of(self, english: str) -> list[Term]:
        """Every term of an English concept (lower case), in the term base's order."""
        return list(self._by_english().get(english, ()))

    def _by_english(self) -> dict[str, list[Term]]:
        if self._english_table is None:
            found: dict[str, list[Term]] = {}
            for term in self.terms:
                found.setdefault(term.english.lower(), []).append(term)
            self._english_table = found
        return self._english_table

    def composed(self, phrase: str) -> set[str]:
        """A two-word phrase whose words name two concepts that together name a third:
        "types d'artefacts" -> type + artifact -> "artifact type" (head first or last)."""
        words = [w for w in plain_words(phrase) if len(w) > 1]
        words = [w for w in words if not any(w in stop_words(lang) for lang in CODES)]
        if len(words) != 2:
            return set()
        first, second = (self.named_by(w) for w in words)
        found = set()
        for a in first:
            for b in second:
                for candidate in (f"{a} {b}", f"{b} {a}"):
                    found |= {c.lower() for c in self._english(candidate)}
        return found

    def names_english_concept(self, word: str) -> bool:
        """Whether a word is (part of) an English concept's name: "types", "creature"."""
        return bool(self._english(word))

    def _english(self, phrase: str) -> set[str]:
        return {c for c in self._named("en", phrase) if self._as_phrase(c, phrase)}
