"""Words as the term base and its learner read them: one tokenizer, one stop-word list and one
stemmer per language (Whoosh's, the index's own)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from corpus.model.languages import LANGUAGES
from corpus.model.text import fold

# A word: letters and digits, hyphenated and apostrophized compounds whole ("anti-malocchio",
# "state-based", "Urza's"), or an elided article ("l'").
TOKEN = re.compile(r"\w+(?:[-'’]\w+)*|\w+['’]")
_ELIDED = re.compile(r"\b(\w{1,4})['’](?=\w)")
_WORD = re.compile(r"\w+")


@cache
def stop_words(lang: str) -> frozenset[str]:
    """The language's stop words: the index's, the term base's and the learner's."""
    from whoosh.lang.stopwords import stoplists

    extra = LANGUAGES[lang].extra_stop_words if lang in LANGUAGES else frozenset()
    return frozenset(stoplists.get(lang, ())) | extra


def tokens(text: str, lang: str = "en") -> list[str]:
    """Lower-case words, as the learner aligns them; in French and Italian an elided article
    is a word of its own ("l'initiative": "l'", "initiative"), in English "Urza's" stays one."""
    return list(_tokens(text, lang in LANGUAGES and LANGUAGES[lang].elides))


def forget_tokens() -> None:
    _tokens.cache_clear()


@lru_cache(maxsize=50_000)  # the learner reads each text of the parallel text several times
def _tokens(text: str, elided: bool) -> tuple[str, ...]:
    if elided:
        text = _ELIDED.sub(r"\1' ", text)
    return tuple(w.lower().replace("’", "'") for w in TOKEN.findall(text))


def content_words(text: str, lang: str) -> list[tuple[str, str]]:
    """(stem, word as written, lower case) of each content word, as the term base compares
    them: "tipo di terra" and "tipos de tierra" both have two; "sur-type" is one, surtype."""
    stop = stop_words(lang)
    words = _WORD.findall(text.replace("-", "").lower())
    return [(stem(word, lang), word) for word in words if word not in stop]


def plain_words(text: str) -> list[str]:
    """The lower-case letter runs of a text ("types d'artefacts": types, d, artefacts)."""
    return _WORD.findall(text.lower())


@lru_cache(maxsize=200_000)
def stem(word: str, lang: str) -> str:
    from whoosh.lang import stemmer_for_language

    return stemmer_for_language(lang)(fold(word))


# A list at the end of a rule: "I tipi di carta sono artefatto, battaglia, ... e vanguard."
_LIST_INTRO = re.compile(r"(?:\b(?:sono|are|sont|son)\b|:)\s+(?P<items>[^:]+?)\.?\s*$")
_AND_OR = r"(?:e|ed|and|et|y|o|or|ou)"  # the conjunctions a list ends with, in every language
_LAST_ITEM = re.compile(rf",?\s+{_AND_OR}\s+(?=[^,]+$)")
_CONJUNCTION = re.compile(rf"(\s+{_AND_OR}\s+)")  # kept by re.split: each pair as written
_LEADING_CONJUNCTION = re.compile(rf"^\s*{_AND_OR}\s+")


def list_items(text: str) -> list[str]:
    """The items of the first enumeration in a rule ("... sono: a, b, c e d."), or []."""
    for sentence in re.sub(r"\([^)]*\)", "", text).split(". "):
        match = _LIST_INTRO.search(sentence)
        if not match:
            continue
        items = [i.strip(' ."“”«»') for i in _split_items(match["items"])]
        if len(items) >= 3 and all(i and len(i.split()) <= 4 for i in items):
            return items
    return []


def _split_items(run: str) -> list[str]:
    """A list's items: at its commas, and at the conjunction before its last item. When its
    items are pairs joined by the conjunction themselves (105.5's color pairs: "white and blue,
    …, green and white, and green and blue"), the last part is one pair ("and green and blue")
    or, without a comma before it, two ("verde y blanco y verde y azul"), not four colors."""
    parts = run.split(",")
    pairs = sum(1 for part in parts[:-1] if _CONJUNCTION.search(f" {part.strip()} "))
    if len(parts) < 3 or pairs * 2 < len(parts) - 1:
        return _LAST_ITEM.sub(", ", run).split(",")
    # word, conjunction, word, conjunction, word, ...: a pair is three pieces, then a joint.
    pieces = _CONJUNCTION.split(_LEADING_CONJUNCTION.sub("", parts[-1]).strip())
    return [*parts[:-1], *("".join(pieces[i : i + 3]) for i in range(0, len(pieces), 4))]


def english_key(words: Sequence[str]) -> str:
    """One key for an English term and its plural: "keyword abilities" = "keyword ability"."""
    return " ".join(singular(w) for w in words)


def singular_name(name: str) -> str:
    """A term's name as the term base gives it: "state-based actions" -> "state-based
    action" (the last word only: "rules of engagement" stays)."""
    words = name.split(" ")
    return " ".join([*words[:-1], singular(words[-1])])


def singular(word: str) -> str:
    """An English plural's singular: abilities, ability; actions, action; Plains stays."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(_NOT_PLURAL) and len(word) > 3:
        return word[:-1]
    return word


def plural(name: str) -> str:
    """The plural of a term's name, as headings write it: "state-based action" -> "state-based
    actions", "ability" -> "abilities"."""
    if name.endswith("y") and name[-2:-1] not in "aeiou":
        return name[:-1] + "ies"
    return name if name.endswith("s") else name + "s"


_NOT_PLURAL = ("ss", "'s", "us", "is", "plains", "status")


_ARTICLES = frozenset({"the", "a", "an"})


@lru_cache(maxsize=20_000)
def whole_phrase(concept: str) -> re.Pattern[str] | None:
    """For an English concept that its content words alone would misname (one content word left:
    "level up" is not every "level", "in play" not every "play", "any target" not every
    "target"), the pattern of its words as written, each content word inflected; else None."""
    words = [w for w in tokens(re.sub(r"\([^)]*\)", " ", concept)) if w]
    while words and words[0] in _ARTICLES:
        words = words[1:]
    stop = stop_words("en")
    content = [w for w in words if w not in stop]
    if len(content) != 1 or len(words) < 2:
        return None
    parts = [re.escape(w) + ("" if w in stop else r"\w*") for w in words]
    return re.compile(r"\b" + r"\W+".join(parts) + r"\b", re.IGNORECASE)


def concept_name(english: str) -> str:
    """Common nouns in lower case (forest = Forest); proper names and mechanics keep theirs."""
    return english if english[:1].isupper() and " " in english else english.lower()
