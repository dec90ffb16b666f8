"""Export the aligned records for translators' tools: TMX 1.4 (translation memory), TBX (the
term base), CSV (a row per key, a column per language)."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.dates import in_effect
from corpus.numbers import sort_key
from corpus.records import Record
from corpus.terms import TermBase

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
LANG_ORDER = ("en", "it", "fr", "es")
VERSION = "0.1.0"


@dataclass(frozen=True)
class Unit:
    """One English key with one rule text per language."""

    key: str
    texts: dict[str, Record]


def units(records: Sequence[Record], langs: Sequence[str], edition: str | None) -> list[Unit]:
    """Rules grouped by key; English is the edition given, else the one in effect for the
    key's translations (the newest when they are undated)."""
    wanted = set(langs) or set(LANG_ORDER)
    english_editions = sorted({r.edition for r in records if r.lang == "en" and r.edition})
    grouped: dict[str, dict[str, list[Record]]] = {}
    for record in records:
        if record.kind == "rule" and record.lang in wanted:
            grouped.setdefault(record.key, {}).setdefault(record.lang, []).append(record)
    out = []
    for key, by_lang in grouped.items():
        texts: dict[str, Record] = {}
        for lang, candidates in by_lang.items():
            if lang != "en":
                if edition:
                    candidates = [r for r in candidates if r.edition == edition] or candidates
                texts[lang] = candidates[0]
        if "en" in by_lang:
            dated = next((r.edition for r in texts.values() if r.edition), None)
            target = edition or in_effect(english_editions, dated)
            chosen = [r for r in by_lang["en"] if r.edition == target]
            if chosen:
                texts["en"] = chosen[0]
        if len(texts) >= (1 if len(wanted) == 1 else 2):
            out.append(Unit(key, dict(sorted(texts.items(), key=lambda i: LANG_ORDER.index(i[0])))))
    return sorted(out, key=lambda u: sort_key(u.key))


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
        tu = ET.SubElement(body, "tu", tuid=unit.key)
        ET.SubElement(tu, "prop", type="x-key").text = unit.key
        for lang, record in unit.texts.items():
            tuv = ET.SubElement(tu, "tuv", {XML_LANG: lang})
            if record.edition:
                ET.SubElement(tuv, "prop", type="x-edition").text = record.edition
            ET.SubElement(tuv, "prop", type="x-source").text = record.source
            if record.number:
                ET.SubElement(tuv, "prop", type="x-number").text = record.number
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
    """One row per key; for each language its number, edition and text."""
    columns = [lang for lang in LANG_ORDER if not langs or lang in langs]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["key"]
    for lang in columns:
        header += [f"{lang}_number", f"{lang}_edition", lang]
    writer.writerow(header)
    for unit in units_:
        row = [unit.key]
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
