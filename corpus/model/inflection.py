"""When two written words are one word of a language, inflected: "leggendario" and "leggendari",
"actions" and "action", but not "magia" and "mago" or "deserter" and "desert", which a stemmer
merges. A term of the term base matches a text only where each of its words is written alike."""

from __future__ import annotations

from functools import lru_cache

from corpus.model.languages import LANGUAGES
from corpus.model.text import fold

# What may follow a word's common part in each language: plural and gender endings, and the
# verb endings rules text uses ("stazionare", "stazionato"). Derivations ("-er", "-ia") are
# other words.
_ENDINGS = {code: lang.inflection_endings for code, lang in LANGUAGES.items()}
_SHORTEST_COMMON = 3
# Verb endings that make a verb of a bare word ("déserter" of "désert"): a French word with one
# is an inflection only of a word with an ending too ("piocher" of "piochez", "pioche").
_VERB_OF_BARE = {"fr": frozenset(["er", "ez", "ent"])}
# A Spanish or Portuguese participle ("marcadas", marked) is an inflection of its verb's forms
# ("marcar", "marcado"), not of a noun of the same stem ("marco", a frame).
_PARTICIPLES = frozenset(["ado", "ada", "ados", "adas"])
_VERBAL = _PARTICIPLES | {"ar", "er", "ir"}
_PARTICIPLE_OF_VERB = {"es": _PARTICIPLES, "pt": _PARTICIPLES}


@lru_cache(maxsize=100_000)
def inflected_alike(written: str, term: str, lang: str) -> bool:
    """Whether `written` can be an inflection of the term's word `term` (accents and case
    folded; both end in one of the language's inflection endings after a common part)."""
    a, b = fold(written), fold(term)
    if a == b:
        return True
    if lang == "es" and written.endswith("ó"):
        # A preterite ("olvidó", "marcó") is its verb's, as its participle is ("olvidado"):
        # the accent tells it from the noun folded alike ("olvido", "marco").
        a = a[:-2] + "er" if written.endswith("ió") else a[:-1] + "ar"
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    endings = _FOLDED.get(lang, _FOLDED["en"])
    verbs = _VERB_OF_BARE.get(lang, frozenset())
    # The common part may end inside both endings ("pioche-r", "pioche-z": "pioch" + er, ez).
    for end in range(common, _SHORTEST_COMMON - 1, -1):
        ends = {a[end:], b[end:]}
        noun_of_participle = ends & _PARTICIPLE_OF_VERB.get(lang, frozenset()) and not (
            ends <= _VERBAL
        )
        if ends <= endings and not ("" in ends and ends & verbs) and not noun_of_participle:
            return True
    return False


# Compared as folded, like the words ("é" is "e").
_FOLDED = {lang: frozenset(fold(e) for e in endings) for lang, endings in _ENDINGS.items()}
