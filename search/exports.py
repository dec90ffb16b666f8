"""Export the aligned records for translators' tools: TMX 1.4 (translation memory), TBX (the
term base), CSV (a row per key, a column per language)."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version

from corpus.align.following import followed
from corpus.model.documents import doc_of_key
from corpus.model.languages import SHOWN_ORDER
from corpus.model.numbers import sort_key
from corpus.model.records import KINDS, Record
from corpus.terms.termbase import SHOWN_CONFIDENCE, Term, TermBase

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


@dataclass(frozen=True)
class Unit:
    """One aligned segment: a rule, the n-th example or note under a key, a glossary entry,
    an article paragraph or ruling, of one translated document, with the English text it
    follows; or, in an export of one language, one record."""

    key: str
    kind: str
    ordinal: int  # the n-th record of this kind under the key in its document, from 0
    texts: dict[str, Record]
    copies: int = 1  # a rule its document prints under this number more than once

    @property
    def id(self) -> str:
        """205.4d for a rule; 205.4d example 2 for its second example; @SOURCE when another
        document of the same language has the same segment."""
        if self.kind in ("rule", "glossary") and self.ordinal == 0:
            return self.key
        return f"{self.key} {self.kind} {self.ordinal + 1}"


def units(records: Sequence[Record], langs: Sequence[str], edition: str | None) -> list[Unit]:
    """One unit per translated record (every kind, every document), with the English record of
    the same key, kind and place in the edition given, else in the edition its document
    follows. Asked for English alone: one unit per English record of that edition (the newest
    by default). Nothing is dropped: two documents of one language give two units."""
    wanted = [lang for lang in SHOWN_ORDER if not langs or lang in langs]
    # The CR's English editions: a judge document's dates are its own (corpus/model/documents.py).
    english_editions = sorted(
        {r.edition for r in records if r.lang == "en" and r.edition and doc_of_key(r.key) == "cr"}
    )
    newest = english_editions[-1] if english_editions else None
    english: dict[tuple[str, str, str, int], Record] = {}
    seen: Counter[tuple[str, str, str, str | None]] = Counter()
    placed: list[tuple[Record, int, tuple[str, str, str, str | None]]] = []
    for record in records:
        place = (record.source, record.key, record.kind, record.edition)
        ordinal = seen[place]
        seen[place] += 1
        if record.lang == "en":
            english.setdefault((record.edition or "", record.key, record.kind, ordinal), record)
        placed.append((record, ordinal, place))
    out = []
    translations = [lang for lang in wanted if lang != "en"]
    for record, ordinal, place in placed:
        if translations and record.lang not in translations:
            continue
        if not translations and (record.lang != "en" or record.edition != (edition or newest)):
            continue
        texts = {record.lang: record}
        # A number printed twice (the Spanish PDF's 111.10b) is two units, both with the
        # English rule of that number: neither copy is dropped.
        copies = seen[place] if record.kind in ("rule", "glossary") else 1
        if translations and "en" in wanted:
            target = edition or followed(english_editions, record)
            counterpart = english.get((target or "", record.key, record.kind, ordinal))
            if counterpart is None and copies > 1:
                counterpart = english.get((target or "", record.key, record.kind, 0))
            # Without an English segment (an example English lacks) the unit is the
            # translation alone: an export keeps every record.
            texts = {"en": counterpart, record.lang: record} if counterpart else texts
        out.append(Unit(record.key, record.kind, ordinal, texts, copies))
    order = {lang: index for index, lang in enumerate(SHOWN_ORDER)}
    return sorted(
        out,
        key=lambda u: (
            sort_key(u.key),
            KIND_ORDER.get(u.kind, 9),
            u.ordinal,
            [order[lang] for lang in u.texts],
            [r.source for r in u.texts.values()],
        ),
    )


KIND_ORDER = {kind: index for index, kind in enumerate(KINDS)}


def _own(unit: Unit) -> Record:
    """The unit's translated record (or its only one)."""
    return next(r for lang, r in unit.texts.items() if lang != "en" or len(unit.texts) == 1)


def unique_ids(units_: Sequence[Unit]) -> list[str]:
    """Each unit's id, unique among them (TMX's tuid, CSV's unit): "205.4d"; "205.4d it" and
    "205.4d fr" when both are exported; "205.4d es@FILE" when two Spanish documents have it."""
    by_id: Counter[str] = Counter(unit.id for unit in units_)
    with_lang = [u.id if by_id[u.id] == 1 else f"{u.id} {_own(u).lang}" for u in units_]
    by_lang: Counter[str] = Counter(with_lang)
    return [
        f"{tuid}@{_own(unit).source}" if by_lang[tuid] > 1 else tuid
        for unit, tuid in zip(units_, with_lang, strict=True)
    ]


def to_tmx(units_: Sequence[Unit]) -> str:
    """TMX 1.4: one <tu> per unit, one <tuv xml:lang> per language, edition, source, number
    and alignment as props. The source language is English when English is in the units, else
    the one language they hold."""
    tmx = ET.Element("tmx", version="1.4")
    languages = {lang for unit in units_ for lang in unit.texts}
    source = "en" if "en" in languages or not languages else sorted(languages)[0]
    header = {
        "creationtool": "mtgrules",
        "creationtoolversion": version("mtgrules"),
        "segtype": "paragraph",
        "o-tmf": "mtgrules-jsonl",
        "adminlang": "en",
        "srclang": source if len(languages) <= 1 or "en" in languages else "*all*",
        "datatype": "plaintext",
    }
    ET.SubElement(tmx, "header", header)
    body = ET.SubElement(tmx, "body")

    for unit, tuid in zip(units_, unique_ids(units_), strict=True):
        tu = ET.SubElement(body, "tu", tuid=tuid)
        ET.SubElement(tu, "prop", type="x-key").text = unit.key
        ET.SubElement(tu, "prop", type="x-kind").text = unit.kind
        if unit.copies > 1:
            duplicate = (
                f"{unit.key} is printed {unit.copies} times; this is copy {unit.ordinal + 1}"
            )
            ET.SubElement(tu, "prop", type="x-duplicate").text = duplicate
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
                if "fuzzy" in record.flags:  # a catalogue's: not this unit's English
                    fuzzy = "a fuzzy catalogue entry, translated from older English"
                    ET.SubElement(tuv, "prop", type="x-fuzzy").text = fuzzy
                if "misnumbered" in record.flags:  # corpus/align/misnumbered.py
                    misprint = f"{record.number} is printed twice; this one read as {unit.key}"
                    ET.SubElement(tuv, "prop", type="x-misprint").text = misprint
            ET.SubElement(tuv, "seg").text = record.text
    return _xml(tmx, doctype='<!DOCTYPE tmx SYSTEM "tmx14.dtd">')


def to_tbx(termbase: TermBase, langs: Sequence[str]) -> str:
    """TBX (ISO 30042, TBX-Basic shape): a termEntry per English concept, a langSet per
    language, a tig per term with its source (and period) as notes. English, the concept's
    own language, is in every entry whichever languages are asked for. A learned pair too
    unsure for `term` to show is left out here too: a CAT tool offers what it is given."""
    wanted = {*langs, "en"} if langs else set(SHOWN_ORDER)
    concepts: dict[str, dict[str, dict[str, Term | None]]] = {}
    for term in termbase.terms:
        if not term.shown:
            continue  # "flying" es "habilidad de defensor", confidence 0.00
        concept = term.english.lower()
        known = concepts.setdefault(concept, {"en": {term.english: None}})
        terms = known.setdefault(term.lang, {})
        if term.term.lower() not in {t.lower() for t in terms}:
            terms[term.term] = term
    martif = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(martif, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = (
        "mtgrules term base: term pairs learned by word alignment (eflomal) from the library's "
        "translated rules beside their English counterparts and from MTGJSON card lines, with "
        "how often each was seen and how sure it is (pairs below confidence "
        f"{SHOWN_CONFIDENCE} left out); curated terms for what cannot be learned"
    )
    body = ET.SubElement(ET.SubElement(martif, "text"), "body")
    for index, (_, by_lang) in enumerate(sorted(concepts.items()), start=1):
        languages = [lang for lang in SHOWN_ORDER if lang in by_lang and lang in wanted]
        if len([lang for lang in languages if lang != "en"]) == 0:
            continue
        entry = ET.SubElement(body, "termEntry", id=f"c{index}")
        ET.SubElement(entry, "descrip", type="subjectField").text = "Magic: The Gathering rules"
        for lang in languages:
            lang_set = ET.SubElement(entry, "langSet", {XML_LANG: lang})
            for text, found in by_lang[lang].items():
                tig = ET.SubElement(lang_set, "tig")
                ET.SubElement(tig, "term").text = text
                if found is None:
                    continue  # the English concept itself
                ET.SubElement(tig, "admin", type="source").text = found.source
                if found.period:
                    ET.SubElement(tig, "note").text = f"in use: {found.period}"
                if found.confidence is not None:
                    ET.SubElement(
                        tig, "note"
                    ).text = f"learned: seen {found.count} times, confidence {found.confidence:.2f}"
    return _xml(martif)


# Spreadsheets read a cell that starts with one of these as a formula (OWASP, "CSV
# Injection"): such a cell is written with a leading apostrophe, shown as text.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(cell: str) -> str:
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


def to_csv(units_: Sequence[Unit], langs: Sequence[str]) -> str:
    """One row per unit, its id unique as TMX's tuid is; per language its number, edition
    (its own date, else "undated"), the English edition it follows, source, alignment and
    text; `copies` when its document prints the number more than once."""
    columns = [lang for lang in SHOWN_ORDER if not langs or lang in langs]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["unit", "key", "kind", "copies"]
    for lang in columns:
        header += [f"{lang}_number", f"{lang}_edition"]
        header += [] if lang == "en" else [f"{lang}_follows"]
        header += [f"{lang}_source", f"{lang}_align", lang]
    writer.writerow(header)
    for unit, unit_id in zip(units_, unique_ids(units_), strict=True):
        row = [unit_id, unit.key, unit.kind, str(unit.copies)]
        for lang in columns:
            record = unit.texts.get(lang)
            if record is None:
                row += ["", ""] + ([] if lang == "en" else [""]) + ["", "", ""]
                continue
            align = "" if lang == "en" else f"{record.align.method} {record.align.confidence:.2f}"
            row += [record.number or "", record.edition or "undated"]
            row += [] if lang == "en" else [record.follows or ""]
            row += [record.source, align, record.text]
        writer.writerow([csv_safe(cell) for cell in row])
    return out.getvalue()


# What XML 1.0 allows in a document: tab, newline, carriage return and the characters from
# space up, less the surrogates and U+FFFE and U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """The text with every character XML 1.0 forbids replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _xml(root: ET.Element, doctype: str = "") -> str:
    """The document as text, always well-formed: every text and attribute made XML-safe."""
    for element in root.iter():
        if element.text:
            element.text = xml_safe(element.text)
        for name, value in element.attrib.items():
            element.set(name, xml_safe(value))
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype + chr(10) if doctype else ""}{text}\n'
