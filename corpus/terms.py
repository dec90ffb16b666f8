"""The term base: English concepts and their Italian, French and Spanish terms, with sources.

Sources: the word list derived from MTGJSON (scripts/derive-terms), a small curated file, the
mechanics table, and the English names the Italian CR prints in parentheses ("Clue (Indizio)")."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from functools import cache, lru_cache
from importlib import resources

from corpus.dates import in_effect
from corpus.mechanics import mechanics
from corpus.records import Record
from corpus.text import fold


@dataclass(frozen=True)
class Term:
    english: str
    lang: str
    term: str
    source: str
    period: str | None = None


def _rows(name: str) -> list[list[str]]:
    text = resources.files("corpus").joinpath(f"data/{name}").read_text("utf-8")
    return [
        row
        for row in csv.reader(text.splitlines(), delimiter="\t")
        if row and not row[0].startswith("#")
    ]


@cache
def static_terms() -> tuple[Term, ...]:
    terms = []
    for english, lang, term, _field, cards, _dice, sets in _rows("terms-mtgjson.tsv")[1:]:
        terms.append(Term(english, lang, term, f"MTGJSON {sets} ({cards} cards)"))
    for english, lang, term, period, source in _rows("terms-curated.tsv"):
        terms.append(
            Term(english, lang, term, f"curated: {source}", None if period == "-" else period)
        )
    for mechanic in mechanics():
        for lang, names in mechanic.names.items():
            terms.extend(Term(mechanic.english, lang, n, "mechanics table") for n in names)
    return tuple(terms)


# "Clue (Indizio)", "Equipment (Equipaggiamento, vedi regola 301.5)", "Avventura (Adventure)".
_PAIR = re.compile(
    r"(?P<outer>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*) \((?P<inner>[A-Z][\w'’ -]*?)(?:,[^()]*)?\)"
)
_VOWELS = tuple("aeiouàèéìòù")


def parenthesized_terms(record: Record) -> list[Term]:
    """English names the translated CR prints beside its own, in either order.

    Within one list the same order holds; the side whose words end in vowels more often is
    the Italian (Statuetta, Sangue, Indizio against Bobblehead, Blood, Clue)."""
    if record.lang != "it" or record.kind != "rule":
        return []
    pairs = [(m["outer"], m["inner"]) for m in _PAIR.finditer(record.text)]
    pairs = [(a, b) for a, b in pairs if a.lower() != b.lower()]
    if not pairs:
        return []

    def vowel_share(words: Iterable[str]) -> float:
        words = list(words)
        return sum(w.lower().endswith(_VOWELS) for w in words) / max(len(words), 1)

    list_english_first = vowel_share(a for a, _ in pairs) <= vowel_share(b for _, b in pairs)
    source = f"{record.source} {record.number} (parentheses)"
    terms = []
    for a, b in pairs:
        a_share, b_share = vowel_share(a.split()), vowel_share(b.split())
        # A pair overrides its list's order only when it is unmistakable (Undercity against
        # Sottocittà); Powerstone against Pietra del Potere follows the list.
        clear = {a_share, b_share} == {0.0, 1.0}
        english_first = a_share < b_share if clear else list_english_first
        english, italian = (a, b) if english_first else (b, a)
        terms.append(Term(english, "it", italian, source))
    return terms


# A list at the end of a rule: "I tipi di carta sono artefatto, battaglia, ... e vanguard."
_LIST_INTRO = re.compile(r"(?:\b(?:sono|are|sont|son)\b|:)\s+(?P<items>[^:]+?)\.?\s*$")
_LAST_ITEM = re.compile(r",?\s+(?:e|ed|and|et|y|o|or|ou)\s+(?=[^,]+$)")


def list_items(text: str) -> list[str]:
    """The items of the first enumeration in a rule ("... sono: a, b, c e d."), or []."""
    for sentence in re.sub(r"\([^)]*\)", "", text).split(". "):
        match = _LIST_INTRO.search(sentence)
        if not match:
            continue
        items = [i.strip(' ."“”«»') for i in _LAST_ITEM.sub(", ", match["items"]).split(",")]
        if len(items) >= 3 and all(i and len(i.split()) <= 4 for i in items):
            return items
    return []


def enumeration_terms(
    records: list[Record], numbered_like: Mapping[str, str] | None = None
) -> list[Term]:
    """A translated rule's list and its English counterpart's, item by item, when both have
    the same number of items (Italian 205.2a card types against English 205.2a). The
    counterpart is in the edition in effect at the translation's date, or, for an undated
    document, the edition its numbering follows (`numbered_like`: source -> edition)."""
    numbered_like = numbered_like or {}
    english: dict[str, list[Record]] = {}
    for record in records:
        if record.lang == "en" and record.kind == "rule" and record.number:
            english.setdefault(record.number, []).append(record)
    terms: list[Term] = []
    for record in records:
        if record.lang == "en" or record.kind != "rule" or record.align.method != "number":
            continue
        candidates = {r.edition: r for r in english.get(record.key, []) if r.edition}
        follows = numbered_like.get(record.source) if record.edition is None else None
        follows = (
            follows if follows in candidates else in_effect(sorted(candidates), record.edition)
        )
        if follows is None:
            continue
        counterpart = candidates[follows]
        mine, theirs = list_items(record.text), list_items(counterpart.text)
        if not mine or len(mine) != len(theirs):
            continue
        source = f"aligned lists: {record.source} {record.number} / {counterpart.source}"
        terms.extend(
            Term(concept_name(en), record.lang, item, source)
            for item, en in zip(mine, theirs, strict=True)
            if item.lower() != en.lower()
        )
    return terms


_WORD = re.compile(r"\w+")
LANGS = ("it", "fr", "es", "en")


def stems(text: str, lang: str) -> list[str]:
    """Folded, stemmed content words (no articles or prepositions), as the term base compares
    them: "tipo di terra" and "tipos de tierra" both have two."""
    return [stem for stem, _ in content_words(text, lang)]


def content_words(text: str, lang: str) -> list[tuple[str, str]]:
    """(stem, word as written, lower case) of each content word."""
    stop = _stop_words(lang)
    words = _WORD.findall(text.replace("-", "").lower())  # sur-type is one word: surtype
    return [(_stem(word, lang), word) for word in words if word not in stop]


def written_alike(written: str, term: str) -> bool:
    """Whether a word that stems like a term's word can be that word: not when it carries an
    accent the term's word lacks (French "basé" is not "base", the word for basic, though both
    fold and stem alike). A missing accent is only sloppy writing, and inflections differ in
    more than accents."""
    for form in (written, written[:-1] if written.endswith(("s", "x")) else ""):
        if form and len(form) == len(term) and fold(form) == fold(term) and form != term:
            return not any(a != b and fold(a) == b for a, b in zip(form, term, strict=True))
    return True


@cache
def _stop_words(lang: str) -> frozenset[str]:
    from whoosh.lang.stopwords import stoplists

    return frozenset(stoplists.get(lang, ()))


@lru_cache(maxsize=200_000)
def _stem(word: str, lang: str) -> str:
    from whoosh.lang import stemmer_for_language

    return stemmer_for_language(lang)(fold(word))


def concept_name(english: str) -> str:
    """Common nouns in lower case (forest = Forest); proper names and mechanics keep theirs."""
    return english if english[:1].isupper() and " " in english else english.lower()


class TermBase:
    """English concept <-> terms in each language, matched on stemmed words."""

    MAX_WORDS = 5

    def __init__(self, terms: Iterable[Term], weak: Iterable[Term] = ()) -> None:
        """`weak` terms (names in parentheses) never override a word the others already map:
        "Earth (Terra)" must not make every "terra" mean Earth."""
        strong, weak = tuple(terms), tuple(dict.fromkeys(weak))
        self.strong, self.weak = strong, weak
        self.terms = strong + weak
        self._by_stems: dict[tuple[str, tuple[str, ...]], set[str]] = {}
        self._written: dict[tuple[str, tuple[str, ...]], set[tuple[str, ...]]] = {}
        for group in (strong, weak):
            additions: dict[tuple[str, tuple[str, ...]], set[str]] = {}
            for term in group:
                words = content_words(term.term, term.lang)
                key = (term.lang, tuple(stem for stem, _ in words))
                if key[1] and len(key[1]) <= self.MAX_WORDS and key not in self._by_stems:
                    additions.setdefault(key, set()).add(concept_name(term.english))
                    self._written.setdefault(key, set()).add(tuple(w for _, w in words))
            self._by_stems.update(additions)
        for concepts in list(self._by_stems.values()):
            for concept in concepts:
                self._by_stems.setdefault(("en", tuple(stems(concept, "en"))), set()).add(concept)

    @classmethod
    def from_records(
        cls, records: Iterable[Record], numbered_like: Mapping[str, str] | None = None
    ) -> TermBase:
        """Static terms, names in parentheses and aligned lists; `numbered_like`: the English
        edition each undated translation follows by its numbering."""
        records = list(records)
        found = [t for record in records for t in parenthesized_terms(record)]
        return cls(static_terms(), [*found, *enumeration_terms(records, numbered_like)])

    def to_json(self) -> str:
        return json.dumps(
            {"strong": [asdict(t) for t in self.strong], "weak": [asdict(t) for t in self.weak]},
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> TermBase:
        data = json.loads(text)
        return cls([Term(**t) for t in data["strong"]], [Term(**t) for t in data["weak"]])

    def concepts_in(self, text: str, lang: str) -> list[str]:
        """English concepts the text mentions, once per mention, in order."""
        written = content_words(text, lang)
        words = [stem for stem, _ in written]
        starts = self._starts()
        found = []
        for start, word in enumerate(words):
            for key in starts.get((lang, word), ()):  # the terms that begin with this word
                end = start + len(key)
                if tuple(words[start:end]) == key and self._is_written(
                    lang, key, [w for _, w in written[start:end]]
                ):
                    found.extend(sorted(self._by_stems[lang, key]))
        return found

    def _is_written(self, lang: str, key: tuple[str, ...], words: list[str]) -> bool:
        forms = self._written.get((lang, key))
        if not forms:
            return True
        return any(
            all(written_alike(w, t) for w, t in zip(words, form, strict=True)) for form in forms
        )

    @cache  # noqa: B019 - one term base per build, kept for its lifetime
    def _starts(self) -> dict[tuple[str, str], list[tuple[str, ...]]]:
        """(language, first stem) -> every term key that begins with it, shortest first."""
        starts: dict[tuple[str, str], list[tuple[str, ...]]] = {}
        for lang, key in sorted(self._by_stems, key=lambda k: len(k[1])):
            starts.setdefault((lang, key[0]), []).append(key)
        return starts

    def english_for(self, phrase: str) -> set[str]:
        """English concepts a word or phrase in any of the translated languages names."""
        concepts: set[str] = set()
        for lang in ("it", "fr", "es"):
            concepts |= self._named(lang, phrase)
        return concepts

    def _named(self, lang: str, phrase: str) -> set[str]:
        """The concepts a whole word or phrase of one language names (as concepts_in finds
        them in a text: by stems, written alike)."""
        written = content_words(phrase, lang)
        key = tuple(stem for stem, _ in written)
        if not self._is_written(lang, key, [word for _, word in written]):
            return set()
        return self._by_stems.get((lang, key), set())

    def lookup(self, phrase: str) -> list[Term]:
        """Every term of the concepts a word or phrase names, in any language."""
        wanted = {c.lower() for c in self.english_for(phrase) | self._english(phrase)}
        wanted = wanted or self.composed(phrase)
        by_english = self._by_english()
        return [t for concept in sorted(wanted) for t in by_english.get(concept, ())]

    @cache  # noqa: B019 - one term base per build, kept for its lifetime
    def _by_english(self) -> dict[str, list[Term]]:
        found: dict[str, list[Term]] = {}
        for term in self.terms:
            found.setdefault(term.english.lower(), []).append(term)
        return found

    def composed(self, phrase: str) -> set[str]:
        """A two-word phrase whose words name two concepts that together name a third:
        "types d'artefacts" -> type + artifact -> "artifact type" (head first or last)."""
        words = [w for w in _WORD.findall(phrase.lower()) if len(w) > 1]
        words = [w for w in words if not any(w in _stop_words(lang) for lang in LANGS)]
        if len(words) != 2:
            return set()
        first, second = (self.english_for(w) | self._english(w) for w in words)
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
        return self._named("en", phrase)
