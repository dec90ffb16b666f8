#!/usr/bin/env python3
"""Derive the MTGJSON part of the term base: English type-line and keyword words aligned with
their Italian, French and Spanish equivalents by co-occurrence over every card of the set files.

Usage: scripts/derive-terms [MTGJSON_DIR] > corpus/data/terms-mtgjson.tsv
(default MTGJSON_DIR: ../shared/data/terms/mtgjson). The set files are third-party data and are
never committed; the derived word list (facts: which word translates which) is.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from whoosh.lang import stemmer_for_language

LANGS = {"Italian": "it", "French": "fr", "Spanish": "es"}
WORD = re.compile(r"[^\W\d_][\w'’-]*")
# Words that only glue a type line together ("Créature : oiseau et soldat").
GLUE = {"et", "y", "e", "de", "del", "di", "du", "des", "le", "la", "el", "il", "lo", "the", "of"}
MIN_CARDS = 2
MIN_DICE = 0.5


STEMMERS = {lang: stemmer_for_language(lang) for lang in ("en", "it", "fr", "es")}
SURFACE: dict[tuple[str, str], Counter[str]] = {}


def words(text: str, lang: str = "en") -> set[str]:
    """Stems of a line's words (leggendario and leggendaria are one), remembering the forms."""
    out = set()
    for word in WORD.findall(text):
        word = word.lower()
        if word in GLUE:
            continue
        stem = STEMMERS[lang](word) if lang != "en" else word
        SURFACE.setdefault((lang, stem), Counter())[word] += 1
        out.add(stem)
    return out


def keyword_line(text: str) -> str:
    first = (text or "").split("\n")[0]
    return re.sub(r"\(.*?\)", "", first)


def pairs(card: dict) -> list[tuple[str, str, set[str], set[str]]]:
    """(lang, field, English words, foreign words) for the card's type line and keyword line."""
    out = []
    keywords = {k.lower() for k in card.get("keywords", []) if " " not in k}
    english_first = words(keyword_line(card.get("text", "")))
    for foreign in card.get("foreignData", []):
        lang = LANGS.get(foreign.get("language", ""))
        if not lang:
            continue
        out.append(
            (lang, "type", words(card.get("type", "")), words(foreign.get("type", ""), lang))
        )
        if keywords and english_first and english_first <= keywords:
            foreign_first = words(keyword_line(foreign.get("text", "")), lang)
            out.append((lang, "keyword", english_first, foreign_first))
    return out


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/terms/mtgjson")
    files = sorted(folder.glob("*.json"))
    if not files:
        sys.exit(f"no MTGJSON set files in {folder}; give the folder that holds them")
    english: Counter[tuple[str, str, str]] = Counter()
    foreign: Counter[tuple[str, str, str]] = Counter()
    both: Counter[tuple[str, str, str, str]] = Counter()
    sets: dict[tuple[str, str, str, str], set[str]] = {}
    for path in files:
        data = json.loads(path.read_text("utf-8"))["data"]
        for card in data["cards"]:
            for lang, field, en_words, fo_words in pairs(card):
                for e in en_words:
                    english[lang, field, e] += 1
                for f in fo_words:
                    foreign[lang, field, f] += 1
                for e in en_words:
                    for f in fo_words:
                        both[lang, field, e, f] += 1
                        sets.setdefault((lang, field, e, f), set()).add(data["code"])
    print("english\tlang\tterm\tfield\tcards\tdice\tsets")
    scored = {
        key: 2 * count / (english[key[:3]] + foreign[key[0], key[1], key[3]])
        for key, count in both.items()
        if count >= MIN_CARDS
    }
    # Competitive linking: a foreign word translates only the English word it fits best.
    best: dict[tuple[str, str, str], float] = {}
    for (lang, field, _e, f), dice in scored.items():
        best[lang, field, f] = max(best.get((lang, field, f), 0.0), dice)
    rows = []
    for (lang, field, e, f), dice in scored.items():
        if dice >= MIN_DICE and dice >= best[lang, field, f]:
            cards = both[lang, field, e, f]
            where = ",".join(sorted(sets[lang, field, e, f]))
            for form, seen in SURFACE[lang, f].most_common():
                if seen >= MIN_CARDS:
                    rows.append((e, lang, form, field, cards, round(dice, 3), where))
    for row in sorted(rows):
        print("\t".join(str(v) for v in row))


if __name__ == "__main__":
    main()
