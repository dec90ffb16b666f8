"""Numbers as people type them, against keys that are rules (corpus/align/identity.py).

`show 725.1` is today's 725.1. `show 725.1 --edition 2025-11-14` is the rule that edition
numbers 725.1, whatever its key is now, with a line that says so. And a record's text cites
numbers of its own edition: "see rule 725" in a 2025 text is today's 726."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from corpus.model.languages import language_name
from corpus.model.numbers import RuleNumber, cited_numbers, sort_key
from corpus.model.records import StoredRecord
from search.query import NumberQuery
from search.results import Result

if TYPE_CHECKING:
    from indexer.sidestore import Reader
    from search.engine import Engine
    from search.results import Filters


@dataclass(frozen=True)
class AsOf:
    """A number as an edition prints it, found under its current key."""

    number: NumberQuery  # what to look up now (the asked number when nothing moved)
    key: str | None  # the current key, when it is not the number asked
    note: str | None  # one line for the reader, when the number moved or is gone
    unprinted: str | None = None  # why the English edition has no rule of that number


def as_of(engine: Engine, number: NumberQuery, edition: str) -> AsOf:
    """The rule edition `edition` numbers `number`, under its current key; or, when that English
    edition prints no such number, why (`unprinted`)."""
    keys = engine.versions.keys_numbered(number.number, edition)
    newest = engine.english_editions[-1] if engine.english_editions else None
    if not keys and edition in engine.english_editions:
        return AsOf(number, None, None, _not_numbered(engine, number, edition))
    if not keys or keys[0] == number.number:
        return AsOf(number, None, None)
    key = keys[0]
    gone = gone_place_of(key)
    if gone is not None:
        note = (
            f"{number.number} of {edition} is gone from the newest edition"
            f" ({newest}); last printed {gone[0]} in {gone[1]}; key {key}"
        )
        return AsOf(number, key, note)
    now = RuleNumber.of(key)
    assert now is not None  # a current key that is not gone is a number of the newest edition
    return AsOf(NumberQuery(now, number.alone), key, f"{number.number} of {edition} is {key} now")


def printed_elsewhere(
    engine: Engine, number: NumberQuery, langs: Sequence[str] = (), option: bool = False
) -> AsOf | None:
    """A number looked up as today's (no --edition) that a translation prints for another
    rule: one line saying where that rule is now, for the translator who typed their
    document's number (`search 310.8`: today's 310.8, while the Spanish 310.8 is 310.9). Only
    `langs`' translations, when given; with `option`, the command that shows it takes that
    translation's `--lang` (`show 714.3a --lang es` found no Spanish 714.3a)."""
    elsewhere = {
        (record.lang, record.key, record.follows or record.edition or "")
        for record in engine.versions.translated_numbering(number.number)
        if not langs or record.lang in langs
    }
    if not elsewhere:
        return None
    lang, key, follows = min(elsewhere, key=lambda found: sort_key(found[1]))
    with_lang = f" --lang {lang}" if option else ""
    return AsOf(number, None, translated_number_note(number.number, lang, key, follows, with_lang))


def translated_number_note(number: str, lang: str, key: str, follows: str, option: str = "") -> str:
    """Where a translation's number is today: another number, or a rule gone from the newest
    English edition, named with the command that shows it (not its key alone). `option`:
    added to that command (`--lang es`)."""
    after = f" (following English {follows})" if follows else ""
    text = f"the {language_name(lang)} text{after}"
    gone = gone_place_of(key)
    if gone is None:
        where = f"{text} numbers {number} what is {key} now"
        return f"{where}: `mtgrules show {key}{option}`" if option else where
    last_number, last_edition = gone
    return (
        f"{text} numbers {number} a rule the newest English edition no longer has (last"
        f" printed as {last_number} in {last_edition}): `mtgrules show {key}{option}`"
    )


def gone_place_of(key: str) -> tuple[str, str] | None:
    """(last number, last edition) of a gone rule's key (gone:714.3a@2026-02-27), else None.
    The rule identity's module is loaded for a gone key alone: `show` starts fast."""
    if not key.strip().startswith("gone:"):
        return None
    from corpus.align.identity import gone_place

    return gone_place(key.strip())


def _not_numbered(engine: Engine, number: NumberQuery, edition: str) -> str:
    """Why an English edition that has no rule of that number shows none: shown another rule
    instead, a judge would read today's 733.1 as what 2025-11-14 printed there."""
    english = [r for r in engine.versions.with_keys([number.number]) if r.lang == "en"]
    there = sorted({r.number for r in english if edition in r.editions and r.number}, key=sort_key)
    problem = f"{number.number} is not a rule of English {edition}"
    if there:
        return (
            f"{problem}; the rule numbered {number.number} today is {there[0]} in it:"
            f" `mtgrules show {there[0]} --edition {edition}`"
        )
    first = min((e for r in english for e in r.editions), default=None)
    if first is not None:
        return f"{problem}; it is first in English {first}: `mtgrules show {number.number}`"
    return f"{problem}; see its rules with `mtgrules show {number.number[:3]} --edition {edition}`"


def numbering(record: StoredRecord) -> str | None:
    """The English edition whose numbering a record's text cites rules in."""
    return record.edition if record.lang == "en" else record.follows


Citations = dict[tuple[str | None, str], str]  # (numbering, number cited) -> current key


def citations(versions: Reader, records: Iterable[StoredRecord]) -> Citations:
    """Every rule number the records' texts cite, in each text's own numbering (a
    translation's: the English edition it follows), with the current key of that rule."""
    found: Citations = {}
    for record in records:
        edition = numbering(record)
        for cited in cited_numbers(record.text):
            if (edition, cited) not in found:
                keys = versions.keys_numbered(cited, edition) if edition else []
                found[edition, cited] = keys[0] if keys else cited
    return found


def cited_keys(versions: Reader, records: Iterable[StoredRecord]) -> list[str]:
    """The current keys of the rules the records' texts cite (see `citations`)."""
    return sorted(set(citations(versions, records).values()), key=sort_key)


def gone(engine: Engine, key: str, filters: Filters) -> list[Result]:
    """The records of a rule gone from the newest edition, as a lookup shows a rule."""
    from search.results import Result, order_records, select_english

    records = [r for r in engine.versions.with_keys([key]) if filters.keep(r)]
    if not records:
        return []
    result = Result(key, 1.0, order_records(records))
    select_english(result, engine.english_editions, filters.edition_of(result.key))
    return [result]
