#!/usr/bin/env python3
"""Derive the MTGJSON part of the term base, corpus/data/terms-mtgjson.tsv, from the MTGJSON set
files: term pairs learned with the term base's own learner (corpus/terms/learning.py) from each
card's English type line, keyword line and rules text beside its Italian, French and Spanish
printings ("Creature — Human Wizard" / "Creatura — Umano Mago", "Flying, deathtouch" /
"Volare, tocco letale", "Return target creature card from your graveyard" / "Fai tornare una
carta creatura bersaglio dal tuo cimitero"), for the English terms an English CR names (its
glossary headwords, headings and list items) and the words of card types. Every line that holds
only keywords is paired keyword by keyword ("Madness {1}{B}" / "Follia {1}{B}"). Only the pairs
are kept (which term translates which, how often, how sure, and the release dates of the first
and last set whose cards pair them, which date the terms no longer in use): the card text is not.
It prints the share of the CR's keyword headings (701 keyword actions, 702 keyword abilities)
that have a learned name, per language.

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
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from corpus.model.records import Record
from corpus.model.words import english_key, singular, stop_words, tokens
from corpus.read.ingest import ingest_bytes
from corpus.terms.learning import Learned, Pair, english_terms, extract, word_links

DATA = Path(__file__).resolve().parent.parent / "corpus" / "data"

LANGS = {"Italian": "it", "French": "fr", "Spanish": "es"}
REMINDER = re.compile(r"\s*\([^()]*\)")


# What may follow a keyword on its line: a cost or a number ("Madness {1}{B}", "Bushido 2");
# a dash ends the keywords ("Evoke—Exile a white card", "Escape—{2}{B}{B}, Exile four ...").
PARAMETER = r"(?:\s*(?:\{[^}]*\})+|\s+(?:X|\d+)\b)?"
FOREIGN_PARAMETER = re.compile(r"\s*(?:\{|\bX\b|\d).*$")
DASH = re.compile(r"\s*[—–].*$")


def keyword_items(line: str, keywords: set[str]) -> list[str] | None:
    """The keywords of a line that holds only keywords ("Flying, deathtouch", "Madness {1}{B}",
    "Scry 2."), each without its parameter; None for any other line."""
    items = [i.strip() for i in DASH.sub("", line).strip().rstrip(".").split(",")]
    found = []
    for item in items:
        match = next(
            (k for k in keywords if re.fullmatch(re.escape(k) + PARAMETER, item, re.IGNORECASE)),
            None,
        )
        if match is None:
            return None
        found.append(item[: len(match)])
    return found or None


def foreign_items(line: str) -> list[str]:
    """A printing's keyword line, item by item, without parameters ("Follia {1}{B}" ->
    "Follia", "Apparire—Esilia ..." -> "Apparire")."""
    items = DASH.sub("", line).strip().rstrip(".").split(",")
    return [FOREIGN_PARAMETER.sub("", i).strip(" .") for i in items]


def split_lines(text: str | None) -> list[str]:
    """The lines of a card's text without reminder text. Some printings lose the line break
    after a reminder ("Vacuità (Questa carta non ha colore.)Ingerire (...)"): put it back."""
    text = re.sub(r"\)(?=[^\s.,;:)])", ")\n", text or "")
    return [REMINDER.sub("", line).strip() for line in text.split("\n")]


def lines(card: dict) -> list[tuple[str, str, str, str]]:
    """(lang, field, English, foreign) for the card's type line and each of its keyword lines
    (keywords joined by ", "), beside the printing's line at the same place."""
    out = []
    keywords = {k.lower() for k in card.get("keywords", [])}
    english = split_lines(card.get("text"))
    found = [keyword_items(line, keywords) if keywords else None for line in english]
    for foreign in card.get("foreignData", []):
        lang = LANGS.get(foreign.get("language", ""))
        if not lang:
            continue
        if card.get("type") and foreign.get("type"):
            out.append((lang, "type", card["type"], foreign["type"]))
        theirs = split_lines(foreign.get("text"))
        if len(theirs) != len(english):
            continue
        for items, line in zip(found, theirs, strict=True):
            mine = foreign_items(line) if items else []
            if items and len(mine) == len(items) and all(mine):
                out.append((lang, "keyword", ", ".join(items), ", ".join(mine)))
    return out


def text_pairs(card: dict, date: str) -> list[Pair]:
    """The card's rules text, line by line, beside each printing's (when as many lines). Not
    its keyword lines: those pair keyword by keyword (`lines`), and aligned word by word they
    would teach "landcycling" the French of "Basic landcycling" less its first word."""
    english = split_lines(card.get("text"))
    keywords = {k.lower() for k in card.get("keywords", [])}
    plain = [not keywords or keyword_items(line, keywords) is None for line in english]
    pairs: list[Pair] = []
    for foreign in card.get("foreignData", []):
        lang = LANGS.get(foreign.get("language", ""))
        theirs = split_lines(foreign.get("text"))
        if lang and len(theirs) == len(english):
            pairs.extend(
                Pair(lang, a, b, "MTGJSON card text", first=date, last=date)
                for a, b, keep in zip(english, theirs, plain, strict=True)
                if a and b and keep
            )
    return pairs


Line = tuple[str, str, str, str]  # (lang, field, English, foreign)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/terms/mtgjson")
    files = sorted(folder.glob("*.json"))
    if not files:
        sys.exit(f"no MTGJSON set files in {folder}; give the folder that holds them")
    crs = sorted(Path("../shared/data/cr/en").glob("*.txt"))
    cr = Path(sys.argv[2]) if len(sys.argv) > 2 else (crs[-1] if crs else None)
    if cr is None or not cr.is_file():
        sys.exit("no English CR; give one as the second argument")
    started = time.monotonic()
    records = ingest_bytes(cr.read_bytes(), cr.name).records
    learned = derive(files, records)
    with open(DATA / "terms-mtgjson.tsv", "w", encoding="utf-8") as out:
        out.write(
            f"# Learned by scripts/derive-terms from the type, keyword and rules text lines of "
            f"{', '.join(p.stem for p in files)}, for the terms of {cr.name}. first/last: the "
            f"release dates of the earliest and latest set whose cards pair them.\n"
        )
        out.write("english\tlang\tterm\tcount\tconfidence\tfirst\tlast\n")
        for t in learned:
            out.write(
                f"{t.english}\t{t.lang}\t{t.term}\t{t.count}\t{t.confidence}\t{t.first}\t{t.last}\n"
            )
    print(f"{len(learned)} pairs from {len(files)} set files in {time.monotonic() - started:.0f} s")
    headings = keyword_headings(records)
    print(f"{cr.name}: {len(headings)} keyword headings (701 keyword actions, 702 abilities)")
    for lang, (named, missing) in coverage(learned, headings).items():
        print(
            f"  {lang}: {len(named)}/{len(headings)} ({len(named) / len(headings):.0%}) named"
            f"; none for {len(missing)}, e.g. {', '.join(missing[:6])}"
        )


def derive(files: list[Path], records: Sequence[Record]) -> list[Learned]:
    """The learned pairs of the set files, for the English terms of the CR's records."""
    cards: Counter[Line] = Counter()
    dates: dict[Line, tuple[str, str]] = {}
    texts: list[Pair] = []
    for path in files:
        data = json.loads(path.read_text("utf-8"))["data"]
        date = data.get("releaseDate", "")
        for card in data["cards"]:
            for row in lines(card):
                cards[row] += 1
                first, last = dates.get(row, (date, date))
                dates[row] = (min(first, date), max(last, date))
            texts.extend(text_pairs(card, date))
    pairs = [*line_pairs(cards, dates), *texts]
    terms = english_terms(records, [])
    for pair in pairs:  # card types and keywords are terms too
        if pair.source == "MTGJSON type lines" or pair.title:
            for word in pair.english.replace("—", " ").split():
                terms.setdefault(english_key(tokens(word)), word.lower())
            if pair.title:
                terms.setdefault(english_key(tokens(pair.english)), pair.english.lower())
    # The game's general words are learned apart, so that they take no occurrence from a named
    # term ("color" from "color identity"), and kept only where the cards agree.
    general = {k: w for k, w in general_words(records).items() if k not in terms}
    learned = []
    for lang in ("it", "fr", "es"):
        mine = [p for p in pairs if p.lang == lang]
        links = word_links(mine)
        learned.extend(extract(mine, links, terms))
        learned.extend(
            t
            for t in extract(mine, links, general)
            if t.count >= GENERAL_COUNT and t.confidence >= GENERAL_CONFIDENCE
        )
    return learned


# A word the rules use this often is the game's vocabulary ("turn", "empty", "target", "life"):
# a judge's question in Italian or French uses it too, and only the cards say how it is written.
GENERAL_IN_RULES = 12
GENERAL_SHORTEST = 3  # letters: not "x", "ii", "up"
GENERAL_COUNT = 10  # card lines that pair them
GENERAL_CONFIDENCE = 0.5  # share of the word's occurrences: "order" is "ordine", not "casuale"


def general_words(records: Sequence[Record]) -> dict[str, str]:
    """The single English words of the CR's rules that are in at least GENERAL_IN_RULES of
    them, not stop words: singular key -> the word."""
    stop = stop_words("en")
    rules: Counter[str] = Counter()
    for record in records:
        if record.lang == "en" and record.kind == "rule":
            rules.update(
                {
                    singular(w)
                    for w in tokens(record.text)
                    if w.isalpha() and len(w) >= GENERAL_SHORTEST and w not in stop
                }
            )
    return {w: w for w, n in rules.items() if n >= GENERAL_IN_RULES}


HEADING = re.compile(r"70[12]\.\d+")


def keyword_headings(records: Sequence[Record]) -> list[str]:
    """The CR's keyword actions and keyword abilities: the headings of 701.2, 701.3 ... and
    702.2, 702.3 ... (701.1 and 702.1 say what the section is)."""
    return [
        r.title
        for r in records
        if r.kind == "rule" and r.title and r.number and HEADING.fullmatch(r.number)
        if not r.number.endswith(".1")
    ]


def coverage(learned: list[Learned], headings: list[str]) -> dict[str, tuple[list[str], list[str]]]:
    """Per language, the headings with a learned name and those without."""
    named = {(t.lang, english_key(tokens(t.english))) for t in learned}
    found = {}
    for lang in ("it", "fr", "es"):
        has = [h for h in headings if (lang, english_key(tokens(h))) in named]
        found[lang] = (has, [h for h in headings if h not in has])
    return found


def line_pairs(cards: Counter[Line], dates: dict[Line, tuple[str, str]]) -> list[Pair]:
    """Type lines weighted by the cards that print them; a keyword line's items one by one."""
    pairs = []
    for line, count in sorted(cards.items()):
        lang, field, english, foreign = line
        first, last = dates[line]
        if field == "keyword":
            mine = [i.strip(" .") for i in foreign.split(",")]
            for item, theirs in zip(mine, english.split(","), strict=False):
                source = "MTGJSON keyword lines"
                pairs.append(Pair(lang, theirs.strip(), item, source, True, count, first, last))
        else:
            source = "MTGJSON type lines"
            pairs.append(Pair(lang, english, foreign, source, False, count, first, last))
    return pairs


if __name__ == "__main__":
    main()
