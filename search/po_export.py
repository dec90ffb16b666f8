"""A translation as a gettext PO catalogue for CAT tools and translation platforms (Crowdin,
Weblate, Poedit, OmegaT), against today's English.

One entry per line of the newest English edition, in the CR's order, as the CR prints it
("100.1. These Magic rules…", "Example: …", a glossary headword, then its definition): the
msgid is that line, the msgctxt its key, the msgstr the translation of it (under today's
number when the rule moved), or empty. An entry whose English changed after the edition the
translation follows is `#, fuzzy`, with the English it was translated from as the previous
msgid (`#|`), which Poedit and Weblate show as a diff. What `add` reads back
(corpus/layouts/gettext.py): the structure from the msgids, the text from the msgstrs."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import version

from corpus.align.editions import by_edition, compare, translated_from, typography_folded
from corpus.model.documents import doc_of_key
from corpus.model.languages import LANGUAGES
from corpus.model.records import Record

LINE_KINDS = ("rule", "example", "note", "glossary")  # the CR's lines a catalogue translates


@dataclass(frozen=True)
class Translated:
    record: Record
    english: Record | None  # the English it was translated from (the edition it follows)
    copy: int = 1
    copies: int = 1


def cr_line(record: Record, number: str | None = None, text: str | None = None) -> str:
    """A rule as the CR prints it: "100.1. Text", "100.1a Text", "100. General"."""
    number = number or record.number
    text = record.text if text is None else text
    if not number or record.kind != "rule":
        return text
    return f"{number} {text}" if number[-1].isalpha() else f"{number}. {text}"


def catalogue(
    records: Sequence[Record],
    lang: str,
    left_out: list[Record] | None = None,
    team: Mapping[str, str] | None = None,
) -> str:
    """The PO catalogue of one language's translation against the newest English edition.
    `left_out` is given the translations that have no line there (their English is gone);
    `team`: the Language and Language-Team of the catalogue it came from (pt_BR), kept."""
    import polib

    # The CR's records: the judge documents' English editions are no CR edition to follow (their
    # dates in the chain of editions broke every rule's identity, and every line was "gone").
    records = [r for r in records if doc_of_key(r.key) == "cr"]
    english = by_edition(records, "en")
    if not english:
        raise ValueError("no English edition in the library; add one with `mtgrules add`")
    newest = max(english)
    today = english[newest]
    gone: list[Record] = []
    found = _translations(records, lang, english, newest, gone)
    placed: set[tuple[str, str, int]] = set()
    po = polib.POFile(wrapwidth=0)
    po.metadata = {
        "Project-Id-Version": f"Magic: The Gathering Comprehensive Rules {newest}",
        "Report-Msgid-Bugs-To": "https://magic.wizards.com/rules",
        "POT-Creation-Date": f"{newest} 00:00+0000",
        "PO-Revision-Date": f"{newest} 00:00+0000",
        "Last-Translator": "mtgrules export",
        "Language-Team": LANGUAGES[lang].name,
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
        "X-Generator": f"mtgrules {version('mtgrules')}",
        **(team or {}),
    }
    glossary_started = False
    for (_, _, ordinal), record in _lines(today).items():
        if record.kind not in LINE_KINDS:
            continue
        if record.kind == "glossary" and not glossary_started:
            glossary_started = True
            po.append(polib.POEntry(msgctxt="heading: glossary", msgid="Glossary", msgstr=""))
        mine = found.get((record.key, record.kind, ordinal), [])
        placed.add((record.key, record.kind, ordinal))
        if record.kind == "glossary":
            _glossary_entries(po, record, mine[0] if mine else None)
            continue
        items: list[Translated | None] = list(mine) or [None]
        for item in items:
            po.append(_entry(record, ordinal, item))
    if left_out is not None:
        unplaced = (
            t.record for place, items in found.items() if place not in placed for t in items
        )
        left_out.extend(sorted([*gone, *unplaced], key=lambda r: (r.source, r.seq)))
    return po.__unicode__()


def changed_besides_rules(
    records: Sequence[Record], english: dict[str, list[Record]], lang: str
) -> list[tuple[str, str]]:
    """(key, kind) of a language's translated examples, notes and glossary entries whose
    English changed since the edition the translation follows (the lines the catalogue marks
    fuzzy besides the rules `stale` lists), in the newest edition's order. `records`: the
    CR's; `english`: its English editions' (by_edition)."""
    newest = max(english)
    found = _translations(records, lang, english, newest, [])
    return [
        (record.key, record.kind)
        for (_, kind, ordinal), record in _lines(english[newest]).items()
        if kind in ("example", "note", "glossary")
        and any(
            item.english is not None and _differs(item.english, record)
            for item in found.get((record.key, record.kind, ordinal), [])
        )
    ]


def _entry(english: Record, ordinal: int, item: Translated | None):  # -> polib.POEntry
    import polib

    context = (
        english.key if english.kind == "rule" else f"{english.key} {english.kind} {ordinal + 1}"
    )
    if item is not None and item.copies > 1:
        context += f" (copy {item.copy} of {item.copies})"
    entry = polib.POEntry(msgctxt=context, msgid=cr_line(english), msgstr="")
    if item is None:
        return entry
    record = item.record
    entry.msgstr = cr_line(english, text=record.text) if english.kind == "rule" else record.text
    entry.comment = _comment(record, item)
    if item.english is None or _differs(item.english, english) or _uncertain(record):
        entry.flags.append("fuzzy")
        if item.english is not None:
            entry.previous_msgid = cr_line(item.english)
    return entry


def _uncertain(record: Record) -> bool:
    """Aligned by its content, and not word for word (the 2006 French's 205.3c beside today's
    205.3c at 0.62): a pairing for the translator to check, as any fuzzy entry."""
    # A glossary entry is aligned by content in every translation (its headword is translated):
    # that is how it is found, not a doubt.
    content = record.align.method == "content" and record.kind != "glossary"
    return content and record.align.confidence < 1.0


def _glossary_entries(po, english: Record, item: Translated | None) -> None:  # po: polib.POFile
    """A glossary entry is two lines of the CR: its headword, then its definition."""
    import polib

    headword = polib.POEntry(msgctxt=f"glossary {english.key}", msgid=english.title or english.key)
    definition = polib.POEntry(msgctxt=f"glossary {english.key} definition", msgid=english.text)
    if item is not None:
        headword.msgstr = item.record.title or ""
        definition.msgstr = item.record.text
        definition.comment = _comment(item.record, item)
        if item.english is None or _differs(item.english, english):
            definition.flags.append("fuzzy")
            if item.english is not None:
                definition.previous_msgid = item.english.text
    po.append(headword)
    po.append(definition)


def _comment(record: Record, item: Translated) -> str:
    # Where the translation prints it: its number, its rule's for an example or note, its
    # headword for a glossary entry.
    number = f" {record.number}" if record.number else ""
    if not number and record.parent:
        number = f" {record.parent} {record.kind}"
    elif not number and record.kind == "glossary" and record.title:
        number = f" glossary “{record.title}”"
    follows = f", follows English {record.follows}" if record.follows else ""
    edition = record.edition or "undated"
    twice = f"; printed {item.copies} times" if item.copies > 1 else ""
    if "misnumbered" in record.flags:  # corpus/align/misnumbered.py
        twice = f"; {record.number} is printed twice, this one read as {record.key}"
    if _uncertain(record):
        twice += f"; aligned by content, {record.align.confidence:.2f} alike"
    return f"{record.lang}{number} of {record.source} ({edition}{follows}){twice}"


def _differs(old: Record, new: Record) -> bool:
    return typography_folded(old.text) != typography_folded(new.text) or (
        (old.title or "") != (new.title or "") and old.kind == "glossary"
    )


def by_precedence(records: Sequence[Record], lang: str) -> list[list[Record]]:
    """A language's documents, each its records, in the order their translation of a line
    wins: documents following newer editions first; one that follows none (a rules web page's
    excerpt, an old copy aligned by content) after every whole translation; the larger first,
    then by name."""
    by_source: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        if record.lang == lang:
            by_source[record.source].append(record)
    ordered = sorted(by_source.items(), key=lambda item: item[0])
    ordered.sort(key=lambda item: (item[1][0].follows or "", len(item[1])), reverse=True)
    return [group for _, group in ordered]


def _translations(
    records: Sequence[Record],
    lang: str,
    english: dict[str, list[Record]],
    newest: str,
    gone: list[Record],
) -> dict[tuple[str, str, int], list[Translated]]:
    """(today's key, kind, ordinal) -> the translations of that English line, with the English
    each was made from. A rule renumbered since is found under its new number; its examples
    move with it. Translations of rules English has removed since go to `gone`."""
    editions = sorted(english)
    found: dict[tuple[str, str, int], list[Translated]] = defaultdict(list)
    for group in by_precedence(records, lang):
        # As `stale` takes it: an old copy aligned by its content from the oldest edition.
        made_from, by_content = translated_from(editions, group)
        start = made_from or editions[0]
        then = _lines(english[start])
        moved: dict[str, str | None] = {}
        if start != newest:
            # Through the editions between, as `stale` and `diff` pair rules (their keys).
            between = [english[e] for e in editions if start < e < newest]
            changed = compare(
                english[start], english[newest], ignore_typography=True, through=between
            )
            for change in changed:
                if change.old is not None and change.old.number:
                    moved[change.old.number] = change.new.number if change.new else None
        seen: Counter[tuple[str, str]] = Counter()
        copies = Counter((r.key, r.kind) for r in group if r.kind in ("rule", "glossary"))
        for record in sorted(group, key=lambda r: r.seq):
            ordinal = seen[record.key, record.kind]
            seen[record.key, record.kind] += 1
            # Where the rule went is looked up by its own number in the edition it follows (an
            # example by its rule's), so it holds whether keys are that edition's numbers or
            # already today's (the rule-identity chain); an example moves with its rule.
            own = record.number if record.kind == "rule" else record.parent
            if "misnumbered" in record.flags or by_content:
                # Printed as another rule's number, or an old copy numbered unlike every
                # edition (the 2006 French): its key is where it was read or aligned.
                own = None
            key = record.key if record.kind == "glossary" else moved.get(own or "", record.key)
            if key is None:  # English removed the rule: nothing of today's English to translate
                gone.append(record)
                continue
            count = copies.get((record.key, record.kind), 1)
            place = (key, record.kind, 0 if count > 1 else ordinal)
            if found[place] and found[place][0].record.source != record.source:
                continue  # a newer document already translates this line
            origin = then.get((record.key, record.kind, 0 if count > 1 else ordinal))
            if record.original is not None:  # a catalogue says which English it translated
                origin = (origin or record).but(text=record.original)
            found[place].append(Translated(record, origin, len(found[place]) + 1, count))
    return found


def _lines(records: Sequence[Record]) -> dict[tuple[str, str, int], Record]:
    """Each record by (key, kind, its ordinal among its key's records of its kind), in order."""
    seen: Counter[tuple[str, str]] = Counter()
    out = {}
    for record in sorted(records, key=lambda r: r.seq):
        ordinal = seen[record.key, record.kind]
        seen[record.key, record.kind] += 1
        out[record.key, record.kind, ordinal] = record
    return out
