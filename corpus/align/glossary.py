"""A translated glossary joined to the English glossary of the edition it follows.

Translated glossaries keep the English alphabetical order (the Spanish CR lists "Abandonar,
Habilidad, Palabra de habilidad, Absorber": Abandon, Ability, Ability Word, Absorb), so the
entries are aligned in order, as sentence aligners do: first the sure pairs (the same rules
cited, the English name printed in parentheses, an untranslated headword), then the entries
left between two sure pairs, one for one where their counts agree."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.model.numbers import cited_numbers
from corpus.model.records import Align, Record
from corpus.model.text import fold

BAND = 40  # entries a translated entry may stand away from its English one's position
SURE = 0.5  # the least evidence for a pair found on its own
BETWEEN = 0.6  # confidence of a pair placed between two sure pairs
_PARENTHESES = re.compile(r"\(([^()]{2,60})\)")


@dataclass(frozen=True)
class _Entry:
    """What a glossary entry offers as evidence: the rules it cites and the names it goes by."""

    cited: frozenset[str]
    names: frozenset[str]

    @classmethod
    def of(cls, record: Record) -> _Entry:
        headword = record.title or record.key
        names = {fold(headword), *(fold(name) for name in _PARENTHESES.findall(headword))}
        return cls(frozenset(cited_numbers(record.text)), frozenset(names))


def _evidence(mine: _Entry, theirs: _Entry) -> float:
    union = mine.cited | theirs.cited
    cites = len(mine.cited & theirs.cited) / len(union) if union else 0.0
    named = bool(mine.names & theirs.names)
    return min(1.0, 0.7 * cites + 0.6 * named + 0.3 * (cites == 1.0 and len(union) > 1))


def _sure_pairs(mine: Sequence[Record], theirs: Sequence[Record]) -> dict[int, tuple[int, float]]:
    """The order-preserving pairs with the most evidence, each translated entry compared with
    the English entries near its position."""
    rows, cols = len(mine), len(theirs)
    left = [_Entry.of(r) for r in mine]
    right = [_Entry.of(r) for r in theirs]
    right = [
        _Entry(entry.cited, frozenset({fold(r.title or r.key)}))
        for entry, r in zip(right, theirs, strict=True)
    ]
    score: dict[tuple[int, int], float] = {}
    for i, entry in enumerate(left):
        centre = round(i * cols / rows)
        for j in range(max(0, centre - BAND), min(cols, centre + BAND + 1)):
            value = _evidence(entry, right[j])
            if value >= SURE:
                score[i, j] = value
    # The heaviest chain of pairs increasing in both positions. Pairs are few (about one per
    # entry), and a chain may only reach back BAND-wide, so the scan back is short.
    pairs = sorted(score)
    best: list[tuple[float, int]] = []  # per pair: chain weight, index of the pair before
    for index, (i, j) in enumerate(pairs):
        before = (0.0, -1)
        for back in range(index - 1, max(-1, index - 4 * BAND), -1):
            bi, bj = pairs[back]
            if bi < i and bj < j and best[back][0] > before[0]:
                before = (best[back][0], back)
        best.append((before[0] + score[i, j], before[1]))
    chosen: dict[int, tuple[int, float]] = {}
    at = max(range(len(pairs)), key=lambda k: best[k][0], default=-1)
    while at >= 0:
        i, j = pairs[at]
        chosen[i] = (j, score[i, j])
        at = best[at][1]
    return chosen


def align_glossary(
    mine: Sequence[Record], theirs: Sequence[Record]
) -> dict[int, tuple[str, Align]]:
    """Translated glossary entries (by position in `mine`) -> (English key, alignment)."""
    if not mine or not theirs:
        return {}
    sure = _sure_pairs(mine, theirs)
    keys = {
        i: (theirs[j].key, Align("content", round(confidence, 2)))
        for i, (j, confidence) in sure.items()
    }
    anchors = [(-1, -1), *sorted((i, j) for i, (j, _) in sure.items()), (len(mine), len(theirs))]
    for (i0, j0), (i1, j1) in itertools.pairwise(anchors):
        if i1 - i0 == j1 - j0 and i1 - i0 > 1:
            for step in range(1, i1 - i0):
                keys[i0 + step] = (theirs[j0 + step].key, Align("content", BETWEEN))
    return keys
