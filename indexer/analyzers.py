"""Per-language analyzers: tokenize, lowercase, that language's stop words (and only its own),
accent and quote folding, then that language's Snowball stemmer."""

from __future__ import annotations

from functools import cache

from whoosh.analysis import (
    Analyzer,
    CharsetFilter,
    IntraWordFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.lang.stopwords import stoplists
from whoosh.support.charset import accent_map

# Words split on apostrophes (l'artefatto, l’artefatto -> l / artefatto); rule numbers such as
# 205.4d stay one token; hyphenated words are kept whole here and split below.
TOKEN_PATTERN = r"\w+(?:[-.]\w+)*"

# Elided articles and prepositions that the Snowball lists lack.
EXTRA_STOP_WORDS = {
    "it": {"un", "quell", "quest", "sull", "s"},
    "fr": {"jusqu", "lorsqu", "puisqu", "quelqu"},
    "es": set(),
    "en": set(),
}


@cache
def stop_words(lang: str) -> frozenset[str]:
    return frozenset(stoplists[lang]) | EXTRA_STOP_WORDS[lang]


@cache
def analyzer(lang: str) -> Analyzer:
    stop = stop_words(lang)
    return (
        RegexTokenizer(TOKEN_PATTERN)
        # sur-type -> type + surtype: "sur" is a French stop word, "surtype" is the concept.
        | IntraWordFilter(delims="-", splitnums=False, mergewords=True, mergenums=False)
        | LowercaseFilter()
        | StopFilter(stoplist=stop, minsize=1)
        | CharsetFilter(accent_map)
        | StemFilter(lang=lang, cachesize=-1)
    )


@cache
def folding_analyzer() -> Analyzer:
    """No stemming, no stop words: for exact-ish fields such as titles and English keys."""
    return RegexTokenizer(r"\w+(?:\.\w+)*") | LowercaseFilter() | CharsetFilter(accent_map)


def stems(text: str, lang: str) -> list[str]:
    return [token.text for token in analyzer(lang)(text)]
