"""Export the aligned records for translators' tools: TMX 1.4 (translation memory), TBX (the
term base), CSV (a row per key, a column per language)."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.following import followed
from corpus.numbers import sort_key
from corpus.records import KINDS, Record
from corpus.terms import TermBase

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
LANG_ORDER = ("en", "it", "fr", "es")
VERSION = "0.1.0"


@dataclass(frozen=True)
class Unit:
    """One aligned segment: a rule, the n-th example or note under a key, a glossary entry,
    an article paragraph or ruling; one text per language."""

    key: str
    kind: str
    ordinal: int  # the n-th record of this kind under the key in its document, from 0
    texts: dict[str, Record]

    @property
    def id(self) -> str:
        """205.4d for a rule; 205.4d example 2 for its second example."""
        if self.kind in ("rule", "glossary") and self.ordinal == 0:
            return self.key
        return f"{self.key} {self.kind} {self.ordinal + 1}"


def units(records: Sequence[Record], langs: Sequence[str], edition: str | None) -> list[Unit]:
    """Records of every kind grouped by key, kind and position under the key; English is the
    edition given, else the one the key's translation follows (the newest when it follows
    none)."""
    wanted = set(langs) or set(LANG_ORDER)
    english_editions = sorted({r.edition for r in records if r.lang == "en" and r.edition})
    grouped: dict[tuple[str, str, int], dict[str, list[Record]]] = {}
    seen: Counter[tuple[str, str, str, str | None]] = Counter()
    for record in records:
        if record.lang not in wanted:
            continue
        place = (record.source, record.key, record.kind, record.edition)
        segment = (record.key, record.kind, seen[place])
        seen[place] += 1
        grouped.setdefault(segment, {}).setdefault(record.lang, []).append(record)
    out = []
    newest = english_editions[-1] if english_editions else None
    for (key, kind, ordinal), by_lang in grouped.items():
        texts: dict[str, Record] = {}
        for lang, candidates in by_lang.items():
            if lang != "en":
                if edition:
                    candidates = [r for r in candidates if r.edition == edition] or candidates
                texts[lang] = candidates[0]
        if "en" in by_lang:
            translated = next((r for lang, r in texts.items() if lang != "en"), None)
            target = edition or (followed(english_editions, translated) if translated else newest)
            chosen = [r for r in by_lang["en"] if r.edition == target]
            if chosen:
                texts["en"] = chosen[0]
        if len(texts) >= (1 if len(wanted) == 1 else 2):
            ordered = dict(sorted(texts.items(), key=lambda i: LANG_ORDER.index(i[0])))
            out.append(Unit(key, kind, ordinal, ordered))
    return sorted(out, key=lambda u: (sort_key(u.key), KIND_ORDER.get(u.kind, 9), u.ordinal))


KIND_ORDER = {kind: index for index, kind in enumerate(KINDS)}


def to_tmx(units_: Sequence[Unit]) -> str:
    """TMX 1.4: one <tu> per key, one <tuv xml:lang> per language, edition and source as props."""
    tmx = ET.Element("tmx", version="1.4")
    header = {
        "creationtool": "mtgrules",
        "creationtoolversion": VERSION,
        "segtype": "paragraph",
        "o-tmf": "mtgrules-jsonl",
        "adminlang": "en",
        "srclang": "en",
        "datatype": "plaintext",
    }
    ET.SubElement(tmx, "header", header)
    body = ET.SubElement(tmx, "body")
    for unit in units_:
        tu = ET.SubElement(body, "tu", tuid=unit.id)
        ET.SubElement(tu, "prop", type="x-key").text = unit.key
        ET.SubElement(tu, "prop", type="x-kind").text = unit.kind
        for lang, record in unit.texts.items():
            tuv = ET.SubElement(tu, "tuv", {XML_LANG: lang})
            if record.edition:
                ET.SubElement(tuv, "prop", type="x-edition").text = record.edition
            ET.SubElement(tuv, "prop", type="x-source").text = record.source
            if record.number:
                ET.SubElement(tuv, "prop", type="x-number").text = record.number
            if lang != "en":
                if record.follows:
                    ET.SubElement(tuv, "prop", type="x-follows").text = record.follows
                ET.SubElement(tuv, "prop", type="x-align-method").text = record.align.method
                confidence = f"{record.align.confidence:.2f}"
                ET.SubElement(tuv, "prop", type="x-align-confidence").text = confidence
            ET.SubElement(tuv, "seg").text = record.text
    return _xml(tmx, doctype='<!DOCTYPE tmx SYSTEM "tmx14.dtd">')


def to_tbx(termbase: TermBase, langs: Sequence[str]) -> str:
    """TBX (ISO 30042, TBX-Basic shape): a termEntry per English concept, a langSet per
    language, a tig per term with its source (and period) as notes."""
    wanted = set(langs) or set(LANG_ORDER)
    concepts: dict[str, dict[str, dict[str, tuple[str, str | None]]]] = {}
    for term in termbase.terms:
        concept = term.english.lower()
        known = concepts.setdefault(concept, {"en": {term.english: ("concept", None)}})
        terms = known.setdefault(term.lang, {})
        if term.term.lower() not in {t.lower() for t in terms}:
            terms[term.term] = (term.source, term.period)
    martif = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(martif, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = (
        "mtgrules term base: MTGJSON-derived words, curated terms, names in parentheses and "
        "aligned lists of the translated Comprehensive Rules"
    )
    body = ET.SubElement(ET.SubElement(martif, "text"), "body")
    for index, (_, by_lang) in enumerate(sorted(concepts.items()), start=1):
        languages = [lang for lang in LANG_ORDER if lang in by_lang and lang in wanted]
        if len([lang for lang in languages if lang != "en"]) == 0:
            continue
        entry = ET.SubElement(body, "termEntry", id=f"c{index}")
        ET.SubElement(entry, "descrip", type="subjectField").text = "Magic: The Gathering rules"
        for lang in languages:
            lang_set = ET.SubElement(entry, "langSet", {XML_LANG: lang})
            for text, (source, period) in by_lang[lang].items():
                tig = ET.SubElement(lang_set, "tig")
                ET.SubElement(tig, "term").text = text
                if lang != "en" or source != "concept":
                    ET.SubElement(tig, "note").text = source
                if period:
                    ET.SubElement(tig, "admin", type="x-period").text = period
    return _xml(martif)


def to_csv(units_: Sequence[Unit], langs: Sequence[str]) -> str:
    """One row per unit; for each language its number, edition and text."""
    columns = [lang for lang in LANG_ORDER if not langs or lang in langs]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["key"]
    for lang in columns:
        header += [f"{lang}_number", f"{lang}_edition", lang]
    writer.writerow(header)
    for unit in units_:
        row = [unit.id]
        for lang in columns:
            record = unit.texts.get(lang)
            row += (
                [record.number or "", record.edition or "", record.text] if record else ["", "", ""]
            )
        writer.writerow(row)
    return out.getvalue()


def _xml(root: ET.Element, doctype: str = "") -> str:
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype + chr(10) if doctype else ""}{text}\n'
