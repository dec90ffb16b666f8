#!/usr/bin/env python3
"""Derive the MTGJSON part of the term base, corpus/data/terms-mtgjson.tsv, from the MTGJSON set
files: term pairs learned with the term base's own learner (corpus/term_learning.py) from each
card's English type line, keyword line and rules text beside its Italian, French and Spanish
printings ("Creature — Human Wizard" / "Creatura — Umano Mago", "Flying, deathtouch" /
"Volare, tocco letale", "Return target creature card from your graveyard" / "Fai tornare una
carta creatura bersaglio dal tuo cimitero"), for the English terms an English CR names (its
glossary headwords, headings and list items) and the words of card types. Only the pairs are
kept (which term translates which, how often, how sure): the card text is not.

Learned once, here, rather than at each build: the lines do not change, and eflomal samples at
random, so the term base of the embedded corpus is the same on every machine.

Usage: scripts/derive-terms [MTGJSON_DIR] [ENGLISH_CR]
(defaults: ../shared/data/terms/mtgjson and the newest ../shared/data/cr/en/*.txt). The set
files and the CR are third-party data and are never committed; the derived file is.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from corpus.ingest import ingest_bytes
from corpus.term_learning import Pair, english_terms, extract, word_links
from corpus.words import english_key, tokens

DATA = Path(__file__).resolve().parent.parent / "corpus" / "data"

LANGS = {"Italian": "it", "French": "fr", "Spanish": "es"}
REMINDER = re.compile(r"\s*\([^()]*\)")


def keyword_line(text: str | None, keywords: set[str]) -> str | None:
    """The card's first line when it holds only keywords ("Flying, deathtouch"), else None."""
    first = REMINDER.sub("", (text or "").split("\n")[0]).strip()
    items = [i.strip().lower() for i in first.split(",")]
    return first if first and all(i in keywords for i in items) else None


def lines(card: dict) -> list[tuple[str, str, str, str]]:
    """(lang, field, English line, foreign line) for the card's type line and keyword line."""
    out = []
    keywords = {k.lower() for k in card.get("keywords", [])}
    english_keywords = keyword_line(card.get("text"), keywords)
    for foreign in card.get("foreignData", []):
        lang = LANGS.get(foreign.get("language", ""))
        if not lang:
            continue
        if card.get("type") and foreign.get("type"):
            out.append((lang, "type", card["type"], foreign["type"]))
        if english_keywords and foreign.get("text"):
            first = REMINDER.sub("", foreign["text"].split("\n")[0]).strip()
            if first.count(",") == english_keywords.count(","):
                out.append((lang, "keyword", english_keywords, first))
    return out


def text_pairs(card: dict) -> list[Pair]:
    """The card's rules text, line by line, beside each printing's (when as many lines)."""
    english = [REMINDER.sub("", line).strip() for line in (card.get("text") or "").split("\n")]
    pairs = []
    for foreign in card.get("foreignData", []):
        lang = LANGS.get(foreign.get("language", ""))
        theirs = [
            REMINDER.sub("", line).strip() for line in (foreign.get("text") or "").split("\n")
        ]
        if lang and len(theirs) == len(english):
            pairs.extend(
                Pair(lang, a, b, "MTGJSON card text")
                for a, b in zip(english, theirs, strict=True)
                if a and b
            )
    return pairs


def english_cr_terms(path: Path) -> dict[str, str]:
    document = ingest_bytes(path.read_bytes(), path.name)
    return english_terms(document.records, [])


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/terms/mtgjson")
    files = sorted(folder.glob("*.json"))
    if not files:
        sys.exit(f"no MTGJSON set files in {folder}; give the folder that holds them")
    crs = sorted(Path("../shared/data/cr/en").glob("*.txt"))
    cr = Path(sys.argv[2]) if len(sys.argv) > 2 else (crs[-1] if crs else None)
    if cr is None or not cr.is_file():
        sys.exit("no English CR; give one as the second argument")
    cards: Counter[tuple[str, str, str, str]] = Counter()
    texts: list[Pair] = []
    for path in files:
        data = json.loads(path.read_text("utf-8"))["data"]
        for card in data["cards"]:
            for row in lines(card):
                cards[row] += 1
            texts.extend(text_pairs(card))
    pairs = [*line_pairs(cards), *texts]
    terms = english_cr_terms(cr)
    for pair in pairs:  # card types and keywords are terms too
        if pair.source == "MTGJSON type lines" or pair.title:
            for word in pair.english.replace("—", " ").split():
                terms.setdefault(english_key(tokens(word)), word.lower())
            if pair.title:
                terms.setdefault(english_key(tokens(pair.english)), pair.english.lower())
    learned = []
    for lang in ("it", "fr", "es"):
        mine = [p for p in pairs if p.lang == lang]
        learned.extend(extract(mine, word_links(mine), terms))
    with open(DATA / "terms-mtgjson.tsv", "w", encoding="utf-8") as out:
        out.write(
            f"# Learned by scripts/derive-terms from the type, keyword and rules text lines of "
            f"{', '.join(p.stem for p in files)}, for the terms of {cr.name}.\n"
        )
        out.write("english\tlang\tterm\tcount\tconfidence\n")
        for t in learned:
            out.write(f"{t.english}\t{t.lang}\t{t.term}\t{t.count}\t{t.confidence}\n")


def line_pairs(cards: Counter[tuple[str, str, str, str]]) -> list[Pair]:
    """Type lines weighted by the cards that print them; a keyword line's items one by one."""
    pairs = []
    for (lang, field, english, foreign), count in sorted(cards.items()):
        if field == "keyword":
            mine = [i.strip(" .") for i in foreign.split(",")]
            for item, theirs in zip(mine, english.split(","), strict=False):
                pairs.append(Pair(lang, theirs.strip(), item, "MTGJSON keyword lines", True, count))
        else:
            pairs.append(Pair(lang, english, foreign, "MTGJSON type lines", weight=count))
    return pairs


if __name__ == "__main__":
    main()
