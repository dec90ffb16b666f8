"""Sections a translation numbers as an English edition that is not loaded.

The Spanish CR is numbered as English 2025-11-14. Beside English 2026-06-19 and later only
(2026-06-19 put a new section 723 in), it follows 2026-06-19 by numbering: 98% of its numbers
are there. But from 722 up each of its sections is that edition's next one: its 724, the
monarch, is 2026-06-19's 725, and keyed by number it stood beside "Ending Turns and Phases"
(and the term base learned "iniciativa" for monarch).

A section is told by its shape: the places of its rules (.1, .2, .2a …) and their lengths,
which a translation keeps (a language's text is a steady share longer: the document's own
ratio, measured on the rules of the same number). A section whose shape is another nearby
section's, and not its own number's, is that section; one between two moved by the same step
moves with them. No term base is needed, so the learner pairs the moved rules rightly too."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import pairwise

from corpus.model.numbers import depth, section_of
from corpus.model.records import Record

NEAR = 3  # how many sections away a renumbered section is looked for
FITS = 0.7  # how alike two sections' shapes are when they are one section
MISFITS = 0.5  # below this, a section is not the same number's
FEW = 2  # the places two sections must share to be compared

Shape = dict[str, int]  # a rule's place in its section (".2a") -> its text's length


def moved_sections(rules: Iterable[Record], english: Iterable[Record]) -> dict[str, str]:
    """Printed section -> the English edition's section it is, for the sections of a
    translation's numbered `rules` that the edition of `english` (its rules) numbers otherwise."""
    mine, theirs = shapes(rules), shapes(english)
    ratio = _length_ratio(mine, theirs)
    moved: dict[str, str] = {}
    for section in sorted(mine):
        same = fit(mine[section], theirs.get(section, {}), ratio)
        if same >= MISFITS:
            continue
        nearby = [
            (fit(mine[section], shape, ratio), other)
            for other, shape in theirs.items()
            if other != section and abs(int(other) - int(section)) <= NEAR
        ]
        best, target = max(nearby, default=(0.0, ""))
        if best >= FITS:
            moved[section] = target
    return _with_runs(moved, set(mine), set(theirs))


def fit(mine: Shape, theirs: Shape, ratio: float) -> float:
    """How alike two sections' shapes are (0 to 1): the share of places both have, times how
    alike the lengths at those places are, the translation's read at the English length."""
    common = mine.keys() & theirs.keys()
    if len(common) < FEW:
        return 0.0
    places = len(common) / len(mine.keys() | theirs.keys())
    lengths = statistics.fmean(
        min(mine[p] / ratio, theirs[p]) / max(mine[p] / ratio, theirs[p], 1) for p in common
    )
    return places * lengths


def shapes(rules: Iterable[Record]) -> dict[str, Shape]:
    """Each three-digit section's shape, from its numbered rules (not its heading)."""
    found: dict[str, Shape] = defaultdict(dict)
    for rule in rules:
        number = rule.number or ""
        section = section_of(number)
        if rule.kind == "rule" and len(section) == 3 and section.isdigit() and depth(number):
            found[section][number[len(section) :]] = max(len(rule.text), 1)
    return dict(found)


def _length_ratio(mine: Mapping[str, Shape], theirs: Mapping[str, Shape]) -> float:
    """How much longer the translation's rules are than the English ones of the same number
    (the median, which the moved sections cannot sway)."""
    ratios = [
        length / theirs[section][place]
        for section, shape in mine.items()
        for place, length in shape.items()
        if place in theirs.get(section, {})
    ]
    return statistics.median(ratios) if ratios else 1.0


def _with_runs(moved: dict[str, str], mine: set[str], theirs: set[str]) -> dict[str, str]:
    """The moves, with each section between two moved by the same step moved by it too (when
    its place there is free), and none moved onto a place another took."""
    steps = {section: int(target) - int(section) for section, target in moved.items()}
    filled = dict(moved)
    for low, high in pairwise(sorted(steps, key=int)):
        if steps[low] != steps[high]:
            continue
        for number in range(int(low) + 1, int(high)):
            section, target = str(number), str(number + steps[low])
            if section in mine and target in theirs and target not in filled.values():
                filled[section] = target
    taken: set[str] = set()
    single: dict[str, str] = {}
    for section in sorted(filled, key=int):
        if filled[section] not in taken:
            taken.add(filled[section])
            single[section] = filled[section]
    return single
