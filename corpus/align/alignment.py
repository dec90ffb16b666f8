"""Align translated numbered rules to modern English keys.

A translation made from the English edition it was numbered after keeps its numbers as keys
(method "number"). An old edition numbered differently (the French forum copy, about 2006) is
aligned by content: within each section, an order-preserving alignment (as sentence aligners
such as hunalign do) scored by the English concepts both texts mention through the term base
and by the rule numbers they cite. The reference is the English edition in effect at the
translation's date, or, when no English is loaded, the newest dated translation.
A rule with no counterpart keeps a key of its own: `NUMBER@SOURCE`."""

from __future__ import annotations

import contextlib
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from corpus.align.following import Following, edition_numbers, followings
from corpus.align.glossary import align_glossary
from corpus.model.dates import in_effect
from corpus.model.numbers import depth, parent_of, section_of
from corpus.model.records import Align, Record
from corpus.paths import DATA, OVERRIDES

MIN_SIMILARITY = 0.3  # below this two rules are not counterparts
MODERN_SHARE = 0.85
MODERN_SIMILARITY = 0.5  # what a rule and its same-number counterpart share in a modern copy
# Below this many numbered rules, a document is too small to prove an old numbering by its
# texts (a saved page of 702.19a and 702.19b): numbers every reference edition prints are
# taken as printed (content alignment had put the French 702.19b beside 702.19g).
FEW_RULES = 5
SAME_NUMBER_BONUS = 0.15
MOVE_MARGIN = 0.15  # how much better a place out of order must fit for a rule to move there
MOVE_EVIDENCE = 3  # concepts an unmatched rule must share with a sibling to take its place


def overrides(user_file: Path | None = None) -> dict[tuple[str, str], str]:
    """(source, number as printed) -> forced English key, from the embedded file and, when
    given, the user's own (MTGRULES_HOME/alignment-overrides.tsv)."""
    texts = [(DATA / OVERRIDES).read_text("utf-8")]
    if user_file is not None:
        with contextlib.suppress(OSError):  # the user has none
            texts.append(user_file.read_text("utf-8"))
    forced = {}
    for text in texts:
        for line in text.splitlines():
            fields = line.split("\t")
            if line.startswith("#") or len(fields) < 3:
                continue
            forced[fields[0].strip(), fields[1].strip()] = fields[2].strip()
    return forced


def _group(number: str) -> str:
    """Rules align within their section; a chapter heading only with the same chapter."""
    return section_of(number) or number


def similarity(a: Record, b: Record, weight: dict[str, float], prior: bool = True) -> float:
    """Weighted Dice over the English concepts of both rules (with their examples and notes),
    plus a small prior for the same number; zero across depths."""
    if a.number is None or b.number is None or depth(a.number) != depth(b.number):
        return 0.0
    if depth(a.number) == 0:
        return 1.0  # the section heading itself
    ca, cb = set(a.terms), set(b.terms)
    if not ca or not cb:
        return 0.0
    mass = lambda concepts: sum(weight.get(c, 1.0) for c in concepts)  # noqa: E731
    dice = 2 * mass(ca & cb) / (mass(ca) + mass(cb))
    # Renumbering shifts rules, but many keep their number: a small prior for the same one.
    same_number = SAME_NUMBER_BONUS if prior and a.number == b.number else 0.0
    return min(1.0, dice + same_number)


def monotonic_alignment(
    left: Sequence[Record], right: Sequence[Record], score: dict[tuple[int, int], float]
) -> dict[int, int]:
    """The order-preserving matching of left to right items with the greatest total score."""
    rows, cols = len(left), len(right)
    best = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        for j in range(cols - 1, -1, -1):
            pair = score.get((i, j), 0.0)
            take = pair + best[i + 1][j + 1] if pair >= MIN_SIMILARITY else -1.0
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    matches, i, j = {}, 0, 0
    while i < rows and j < cols:
        pair = score.get((i, j), 0.0)
        if pair >= MIN_SIMILARITY and best[i][j] == pair + best[i + 1][j + 1]:
            matches[i] = j
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return matches


def with_children_terms(records: list[Record]) -> list[Record]:
    """The numbered rules, each with its examples' and notes' concepts as evidence too."""
    extra: dict[str, list[str]] = defaultdict(list)
    for record in records:
        if record.kind != "rule" and record.parent:
            extra[record.parent].extend(record.terms)
    return [
        r.but(terms=tuple(dict.fromkeys([*r.terms, *extra[r.number]])))
        for r in records
        if r.kind == "rule" and r.number
    ]


def _concept_weights(records: Sequence[Record]) -> dict[str, float]:
    """Rarer concepts weigh more: `type` says little in section 205, `legend rule` a lot."""
    counts = Counter(c for r in records for c in set(r.terms))
    total = max(len(records), 1)
    return {c: math.log(1 + total / n) for c, n in counts.items()}


def reference_for(
    lang: str, edition: str | None, candidates: dict[tuple[str, str], list[str]]
) -> list[str]:
    """The sources a translated document is aligned against: the English edition in effect at
    its date, or, with no English loaded, the newest dated translation in another language.
    `candidates`: (language, edition) -> sources."""
    english = {e: sources for (lg, e), sources in candidates.items() if lg == "en" and e}
    if english:
        follows = in_effect(sorted(english), edition)
        assert follows is not None
        return english[follows]
    others = [
        (e, sources)
        for (lg, e), sources in candidates.items()
        if lg != lang and e and (edition is None or e > edition)
    ]
    return max(others)[1] if others else []


def align_documents(
    records: list[Record],
    follows: dict[str, Following] | None = None,
    forced: Mapping[tuple[str, str], str] | None = None,
) -> list[Record]:
    """Every record with its English key; content-aligned where the numbering is old; every
    translated record with the English edition its document follows (`follows`, computed from
    the records when not given); `forced` keys (the overrides; the embedded ones when not
    given) win."""
    by_source: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_source[record.source].append(record)
    if follows is None:
        follows = followings(records)
    candidates: dict[tuple[str, str], list[str]] = defaultdict(list)
    for source, rs in by_source.items():
        if any(r.kind == "rule" and r.number and r.align.method == "number" for r in rs):
            candidates[rs[0].lang, rs[0].edition or ""].append(source)

    @cache
    def rules_of(source: str) -> list[Record]:
        return with_children_terms([r for r in by_source[source] if r.align.method == "number"])

    new_keys: dict[tuple[str, str], tuple[str, Align]] = {}
    for (lang, edition), sources in candidates.items():
        if lang == "en":
            continue
        for source in sources:
            if source in follows and follows[source].method in ("numbering", "text"):
                # Numbered as that English edition: keyed by number, but for the sections
                # numbered as an edition not loaded (moved_sections).
                new_keys.update(_moved_keys(source, rules_of(source), follows[source]))
                continue
            others = {k: [s for s in v if s != source] for k, v in candidates.items()}
            chosen = reference_for(lang, edition or None, {k: v for k, v in others.items() if v})
            reference = [rule for name in chosen for rule in rules_of(name)]
            if reference:
                new_keys.update(_align(source, rules_of(source), reference))
    for (source, number), key in (overrides() if forced is None else forced).items():
        new_keys[source, number] = (key, Align("override", 1.0))
    glossary_keys = _glossary_keys(by_source, follows)
    misnumbered = _misnumbered(by_source, follows)
    out = []
    for record in records:
        if (record.source, record.seq) in misnumbered and record.align.method == "number":
            key = misnumbered[record.source, record.seq]
            record = record.but(key=key, flags=(*record.flags, "misnumbered"))
        if record.kind == "glossary":
            change = glossary_keys.get((record.source, record.seq))
        else:
            anchor = record.number if record.kind == "rule" else record.parent
            change = new_keys.get((record.source, anchor or ""))
        if change and record.align.method in ("number", "override"):
            record = record.but(key=change[0], align=change[1])
        if record.source in follows:
            record = record.but(follows=follows[record.source].edition)
        out.append(record)
    return out


def _moved_keys(
    source: str, rules: list[Record], following: Following
) -> dict[tuple[str, str], tuple[str, Align]]:
    """Keys for the rules of a translation's sections that the English edition it follows by
    numbering numbers otherwise (`Following.moved`): the moved section's rule of the same place,
    keyed as by number."""
    return {
        (source, number): (keyed, Align("number", 1.0))
        for rule in rules
        if (number := rule.number) and (keyed := following.keyed(number)) != number
    }


def _misnumbered(
    by_source: Mapping[str, list[Record]], follows: Mapping[str, Following]
) -> dict[tuple[str, int], str]:
    """(source, seq) -> the key of a rule a translation numbered as an English edition prints
    with a number it has already used, and of its examples (corpus/align/misnumbered.py)."""
    from corpus.align.misnumbered import corrected_parts

    english = edition_numbers(r for records in by_source.values() for r in records)
    found: dict[tuple[str, int], str] = {}
    for source, records in by_source.items():
        following = follows.get(source)
        if following is None or following.method not in ("numbering", "text", "date"):
            continue
        numbers = english.get(following.edition, frozenset())
        ordered = sorted(records, key=lambda r: r.seq)
        for seq, key in corrected_parts(ordered, numbers).items():
            found[source, seq] = key
    return found


def glossary_keys(
    records: Sequence[Record], follows: dict[str, Following]
) -> dict[tuple[str, int], tuple[str, Align]]:
    """(source, seq) of translated glossary entries -> the English entry's key they join."""
    by_source: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_source[record.source].append(record)
    return _glossary_keys(by_source, follows)


def _glossary_keys(
    by_source: dict[str, list[Record]], follows: dict[str, Following]
) -> dict[tuple[str, int], tuple[str, Align]]:
    """(source, seq) of translated glossary entries -> the English entry's key they join."""
    english: dict[str, list[Record]] = defaultdict(list)
    for group in by_source.values():
        if group[0].lang == "en" and group[0].edition:
            english[group[0].edition].extend(r for r in group if r.kind == "glossary")
    keys: dict[tuple[str, int], tuple[str, Align]] = {}
    for source, following in follows.items():
        if following.method == "text":
            continue  # a catalogue: each entry's msgid is its English headword already
        mine = [r for r in by_source[source] if r.kind == "glossary"]
        joined = align_glossary(mine, english.get(following.edition, []))
        for index, entry in enumerate(mine):
            # An entry that joins no English one keeps its headword as a key of its own.
            keys[source, entry.seq] = joined.get(index, (entry.key, Align("own", 0.0)))
    return keys


def _moved(
    matches: dict[int, int],
    score: dict[tuple[int, int], float],
    left: Sequence[Record],
    right: Sequence[Record],
) -> dict[int, int]:
    """The order-preserving matches, with a subrule moved among its siblings where it fits far
    better (the old 205.3d, which defines spell types, is modern 205.3k) when no other rule
    holds that place; a subrule the order left without a match takes the sibling that fits it,
    if one is free and fits at all."""
    taken = set(matches.values())
    moved = dict(matches)
    for i, rule in enumerate(left):
        j = matches.get(i)
        parent = right[j].parent if j is not None else parent_of(rule.number or "")
        siblings = [k for k, r in enumerate(right) if parent and r.parent == parent]
        if not siblings:
            continue
        best = max(siblings, key=lambda k: score.get((i, k), 0.0))
        fits = score.get((i, best), 0.0)
        if best in taken:
            continue
        # Out of order, a rule must share specific evidence: "subtype" and "type" alone say
        # little in section 205.
        shared = len(set(rule.terms) & set(right[best].terms))
        if (j is None and fits >= MIN_SIMILARITY and shared >= MOVE_EVIDENCE) or (
            j is not None and fits - score.get((i, j), 0.0) >= MOVE_MARGIN
        ):
            taken.discard(j)
            taken.add(best)
            moved[i] = best
    return moved


def _align(
    source: str, rules: list[Record], reference: list[Record]
) -> dict[tuple[str, str], tuple[str, Align]]:
    """Keys for one document's rules: by number when its numbering is modern, else by content.

    Concept weights are computed per section of the reference: in section 205 "type" says
    little, "legend rule" a lot."""
    sections: dict[str, list[Record]] = defaultdict(list)
    for rule in reference:
        sections[_group(rule.number or "")].append(rule)
    weights = {name: _concept_weights(rules) for name, rules in sections.items()}
    by_number = {r.number: r for r in reference}
    same = [
        similarity(rule, by_number[rule.number], weights[_group(rule.number or "")], prior=False)
        for rule in rules
        if rule.number in by_number and depth(rule.number or "") > 0
    ]
    modern = same and sum(s >= MODERN_SIMILARITY for s in same) >= MODERN_SHARE * len(same)
    printed = all(rule.number in by_number for rule in rules)
    if modern or (printed and len(rules) < FEW_RULES):
        return {}
    keys: dict[tuple[str, str], tuple[str, Align]] = {}
    mine: dict[str, list[Record]] = defaultdict(list)
    for rule in rules:
        mine[_group(rule.number or "")].append(rule)
    for name, left in mine.items():
        right = sections.get(name, [])
        score = {
            (i, j): similarity(a, b, weights[name])
            for i, a in enumerate(left)
            for j, b in enumerate(right)
        }
        matches = _moved(monotonic_alignment(left, right, score), score, left, right)
        for i, rule in enumerate(left):
            assert rule.number is not None
            if i in matches:
                confidence = round(min(1.0, score[i, matches[i]]), 2)
                keys[source, rule.number] = (right[matches[i]].key, Align("content", confidence))
            else:
                keys[source, rule.number] = (f"{rule.number}@{source}", Align("own", 0.0))
    return keys
