"""Which language a document is written in, from the function words it uses."""

from __future__ import annotations

import re
from collections import Counter

from corpus.model.languages import LANGUAGES

_WORD = re.compile(r"[^\W\d_]+")


def language_scores(text: str) -> Counter[str]:
    """Count, per language, the words that only that language's marker list holds."""
    owners: dict[str, list[str]] = {}
    for code, language in LANGUAGES.items():
        for word in language.marker_words:
            owners.setdefault(word, []).append(code)
    scores: Counter[str] = Counter({code: 0 for code in LANGUAGES})
    for word in _WORD.findall(text.lower()):
        codes = owners.get(word)
        if codes and len(codes) == 1:
            scores[codes[0]] += 1
    return scores


SAMPLE = 60_000  # characters: plenty to tell the table's languages apart


def detect_language(text: str) -> str | None:
    """The best-scoring language, or None when the text has too few clues."""
    scores = language_scores(text[:SAMPLE])
    (best, top), (_, second) = scores.most_common(2)
    if top < 2 or top < 1.5 * second:
        return None
    return best
