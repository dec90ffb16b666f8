"""Stage 4, present: keys to results with their records, grouped under one English key, in
reading order, with the English versions a reader needs. (The JSON answers of the commands
and the web app are payloads.py; the terminal's rendering is render.py.)"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from corpus.model.documents import is_judge_key
from corpus.model.mechanics import owned_rules, result_key
from corpus.model.numbers import RuleNumber, parent_of, sort_key
from corpus.model.records import StoredRecord
from indexer.sidestore import Reader
from search.query import NumberQuery
from search.results import Filters, Result, order_records, select_english


def looked_up(
    number: NumberQuery, versions: Reader, filters: Filters, english_editions: tuple[str, ...]
) -> list[Result]:
    """The results of a rule number: the rule and, unless asked alone, its subrules (all of a
    section), with the mechanic that owns it; in rule order."""
    records: Iterable[StoredRecord]
    if number.is_section:
        records = versions.in_section(number.number)
    elif number.alone:
        records = versions.with_keys([number.number])
    else:
        records = versions.with_keys([], prefixes=[number.number])
    groups: dict[str, Result] = {}
    for record in records:
        key = record.key
        if number.covers(key) and filters.keep(record):
            groups.setdefault(key, Result(key, 1.0)).records.append(record)
    mechanic = owned_rules().get(number.number)
    if mechanic and number.number in groups:
        groups[number.number].records.extend(
            r for r in versions.with_keys([mechanic]) if filters.keep(r)
        )
    results = sorted(groups.values(), key=lambda r: sort_key(r.key))
    arrange(results, filters, english_editions)
    return results


def looked_up_part(
    key: str, versions: Reader, filters: Filters, english_editions: tuple[str, ...]
) -> list[Result]:
    """A part of a judge document by its key (corpus/model/documents.py): a chapter with its
    sections ("MTR 2": MTR 2.1, MTR 2.2 …), a section, an appendix, a JAR part (Common Issues
    with its issues); in document order."""
    chapter = key.rpartition(" ")[2].isdigit()
    jar = key.startswith("JAR ")  # a few dozen records: its parts are read whole
    records = versions.with_keys(
        [key], prefixes=[key + "."] if chapter else ["JAR "] if jar else []
    )
    groups: dict[str, Result] = {}
    for record in records:
        if (record.key == key or record.parent == key or chapter) and filters.keep(record):
            groups.setdefault(record.key, Result(record.key, 1.0)).records.append(record)
    # The JAR's parts in the document's order (their keys are words); numbered parts by number.
    order = {r.key: r.seq for r in records} if jar else {}
    results = sorted(groups.values(), key=lambda r: (order.get(r.key, 0), sort_key(r.key)))
    arrange(results, filters, english_editions)
    return results


def filled(
    ranked: Iterable[tuple[str, float]],
    versions: Reader,
    filters: Filters,
    english_editions: tuple[str, ...],
    gathered: frozenset[str] = frozenset(),
) -> list[Result]:
    """Ranked keys as results with their records (a mechanic's with the rules it owns; a
    heading's, or a rule's `gathered` with its subrules, with them)."""
    results = [Result(key, score) for key, score in ranked]
    if not results:
        return results
    by_key = {result.key: result for result in results}
    owned = [rule for rule, name in owned_rules().items() if name in by_key]
    for record in versions.with_keys(list(by_key), prefixes=owned):
        key = record.key if record.key in by_key else result_key(record.key)
        if key in by_key and record.key == key and record.title and is_judge_key(key):
            by_key[key].part_title, by_key[key].part_penalty = record.title, record.penalty
        if key in by_key and filters.keep(record):
            by_key[key].records.append(record)
    results = with_subrules(results, versions, filters, gathered)
    arrange(results, filters, english_editions)
    return results


def first_filled(
    limit: int,
    scores: Mapping[str, float],
    versions: Reader,
    filters: Filters,
    english_editions: tuple[str, ...],
    gathered: frozenset[str] = frozenset(),
) -> list[Result]:
    """The best `limit` results that have something to show. A heading takes in the subrules
    ranked below it, and a key's records may all be filtered away (`--kind glossary` of a rule
    that the keyword's ranking named): the next keys make up the count `--limit` asked for."""
    from search.rank import ranked

    taken = limit
    while True:
        best = ranked(scores, taken)
        found = filled(best, versions, filters, english_editions, gathered)
        results = [r for r in found if r.records]
        if len(results) >= limit or len(best) < taken:
            return results[:limit]
        taken += limit


def _only_a_heading(records: list[StoredRecord]) -> bool:
    """Whether a result's rules are only its heading, or a line its subrules explain: not when
    it shows no rule at all (`--kind example` keeps 111.3's example, which was then added again
    as a record under 111.3). The English text decides when the result has it (a translation
    may say in a sentence what English titles)."""
    rules = [record for record in records if record.kind == "rule"]
    english = [record for record in rules if record.lang == "en"]
    if english:
        return all(is_heading(record) or _a_line(record) for record in english)
    return bool(rules) and all(is_heading(record) for record in rules)


# "103.8. The starting player takes their first turn.": the answer to who draws is in 103.8a.
# Ten words or fewer: on the nine tuning files hit@3 711 -> 717 (eight: 714, twelve: 717).
A_LINE_WORDS = 10


def _a_line(record: StoredRecord) -> bool:
    """A rule of a line that its subrules, if it has any, explain."""
    return len((record.text or "").split()) <= A_LINE_WORDS


def is_heading(record: StoredRecord) -> bool:
    """A rule whose text is its title only ("702.19. Trample", "605. Mana Abilities")."""
    return record.kind == "rule" and (record.text or "").strip() == (record.title or "").strip()


# A rule that says its subrules are a list it introduces: "The state-based actions are as
# follows:" (704.5), "…in a series of layers in the following order:" (613.1), "…follows the
# steps listed below, in order" (601.2), "…use the definition below" (111.10).
_INTRODUCES = re.compile(
    r":\s*$|\bas follows\b|\bthe following (?:rules|order|steps|procedure|results|actions)\b"
    r"|\b(?:listed|described|definition|steps) below\b",
    re.IGNORECASE,
)


def introduces_list(record: StoredRecord) -> bool:
    """A rule whose English text introduces the subrules under it as its list."""
    return record.kind == "rule" and record.lang == "en" and bool(_INTRODUCES.search(record.text))


def _parent_key(record: StoredRecord) -> str | None:
    """The key of the rule a record is under; an example's or a note's, that of the rule above
    its own (an example of 702.19b is under 702.19, as 702.19b is: English examples were left
    out of the heading's answer, the Spanish ones shown). A translation's by its own key: a
    renumbered one's `parent` is the number it prints (the Spanish 724.1 under 724, its key 725.1
    under 725). An English record's as printed: an earlier edition's, printed under another
    number, is not the text shown."""
    if record.lang == "en":
        return (
            parent_of(record.parent) if record.kind != "rule" and record.parent else record.parent
        )
    return parent_of(record.key) or record.parent


FEW_RULES_UNDER = 20  # a section heading with no more rules than this comes with their subrules


def with_subrules(
    results: list[Result],
    versions: Reader,
    filters: Filters,
    gathered: frozenset[str] = frozenset(),
) -> list[Result]:
    """A heading is never the whole answer: a result that is only a rule's heading, or a line
    (103.8, "The starting player takes their first turn."), comes with the rules under it
    (702.19 with 702.19a, b, c…; 605 with 605.1, 605.2…; 103.8 with 103.8a), which then leave
    the results below it. So does a rule `gathered` for its subrules (rank.siblings_gathered).
    A rule that introduces a list ("The state-based actions are as follows:") comes with it
    too, in a result or in a heading's, but its items ranked below keep their own places: each
    answers on its own ("toughness 0": 704.5f)."""
    headings = {
        r.key: r
        for r in results
        if RuleNumber.of(r.key) is not None
        and r.records
        and (r.key in gathered or _only_a_heading(r.records))
    }
    lists = {
        r.key: r
        for r in results
        if r.key not in headings
        and RuleNumber.of(r.key) is not None
        and any(introduces_list(record) for record in r.records)
    }
    if not headings and not lists:
        return results
    under: dict[str, set[str]] = {key: set() for key in headings}
    found = list(versions.with_keys([], prefixes=[*headings, *lists]))
    # A heading's rules, and the items of the lists among them (704 with 704.5 and 704.5a…).
    listing = {
        record.key: owner
        for record in found
        if (owner := headings.get(_parent_key(record) or "")) and introduces_list(record)
    }
    # A section's rules' own subrules too, when it has few rules (605 with 605.1a and 605.1b,
    # not 605.1 then 605.2; 702, Keyword Abilities, has a hundred and ninety).
    children: dict[str, set[str]] = {heading: set() for heading in headings if "." not in heading}
    for record in found:
        if (heading := _parent_key(record) or "") in children and record.kind == "rule":
            children[heading].add(record.key)
    beneath = {
        child: headings[heading]
        for heading, keys in children.items()
        if len(keys) <= FEW_RULES_UNDER
        for child in keys
    }
    for record in found:
        parent = _parent_key(record) or ""
        owner = headings.get(parent) or lists.get(parent) or listing.get(parent)
        owner = owner or beneath.get(parent)
        if owner is None or record.key == owner.key or not filters.keep(record):
            continue  # the owner's own records (its examples) are in its result already
        owner.records.append(record)
        if owner.key in headings:
            under[owner.key].add(record.key)
    # A rule ranked above its heading keeps its place; below it, it is in the heading's answer.
    kept: list[Result] = []
    shown: set[str] = set()
    for result in results:
        if result.key not in shown:
            kept.append(result)
        shown |= under.get(result.key, set())
    return kept


def arrange(results: list[Result], filters: Filters, english_editions: tuple[str, ...]) -> None:
    """Each result's records in reading order, with the English versions a reader needs."""
    for result in results:
        result.records = order_records(result.records)
        select_english(result, english_editions, filters.edition_of(result.key))
