"""Words as the term base and its learner read them: one tokenizer, one stop-word list and one
stemmer per language (Whoosh's, the index's own)."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from corpus.text import fold

# A word: letters and digits, hyphenated and apostrophized compounds whole ("anti-malocchio",
# "state-based", "Urza's"), or an elided article ("l'").
TOKEN = re.compile(r"\w+(?:[-'’]\w+)*|\w+['’]")
_ELIDED = re.compile(r"\b(\w{1,4})['’](?=\w)")
_WORD = re.compile(r"\w+")


# Elided articles and prepositions that the Snowball lists lack.
EXTRA_STOP_WORDS = {
    "it": {"un", "quell", "quest", "sull", "s"},
    "fr": {"jusqu", "lorsqu", "puisqu", "quelqu"},
}


@cache
def stop_words(lang: str) -> frozenset[str]:
    """The language's stop words: the index's, the term base's and the learner's."""
    from whoosh.lang.stopwords import stoplists

    return frozenset(stoplists.get(lang, ())) | EXTRA_STOP_WORDS.get(lang, set())


def tokens(text: str, lang: str = "en") -> list[str]:
    """Lower-case words, as the learner aligns them; in French and Italian an elided article
    is a word of its own ("l'initiative": "l'", "initiative"), in English "Urza's" stays one."""
    if lang in ("fr", "it"):
        text = _ELIDED.sub(r"\1' ", text)
    return [w.lower().replace("’", "'") for w in TOKEN.findall(text)]


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
