"""Compare two editions of the rules in one language: added, removed, changed, moved.

Renumbering is decided as a tree: sections first, then rules, then subrules. A rule whose
section moved is looked for in the new section first; a subrule of a moved rule among the
subrules of its new number first (701.40b of Explore with 701.44b when Explore became 701.44);
text similarity decides what the tree leaves open. At each level the same text pairs first
(identical, then identical but for the rule numbers it cites), then the same place with a
similar text, then the most similar texts, best first. Every choice is symmetric, so comparing
B with A lists the pairs A with B lists."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import pairwise

from corpus.align.following import followed
from corpus.model.numbers import CITATION, RuleNumber, depth, parent_of, section_of, sort_key
from corpus.model.records import Record

CHANGED_MIN = 0.5  # same number, at least this similar: the same rule, changed
REWRITTEN_MIN = 0.3  # the same place under a paired parent, nothing nearer: rewritten
MOVED_MIN = 0.75  # different numbers: a moved rule needs to be this similar
# A rule at the same place gives way to a partner at least this much more alike (and moved-alike).
BETTER_BY = 0.2
_WORDS = re.compile(r"\S+")
# Quotes, apostrophes, dashes and spaces of every form, as one: what --ignore-typography folds.
_TYPOGRAPHY = str.maketrans(
    {"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'",
     "‐": "-", "‑": "-", "–": "-", "—": "-", "\u00a0": " ", "\u202f": " "}
)  # fmt: skip
_SPACES = re.compile(r"\s+")

# What a fuzzy catalogue entry was translated from, instead of an edition: the English its
# previous msgid gives (a Stale's `since`, stale's `english_from`).
PREVIOUS_MSGID = "its previous msgid"


@lru_cache(maxsize=1 << 16)  # a rule's history reads each edition's texts, mostly the same
def typography_folded(text: str) -> str:
    """The text with straight quotes and apostrophes, hyphens for dashes, single spaces."""
    return _SPACES.sub(" ", text.translate(_TYPOGRAPHY)).strip()


@dataclass(frozen=True)
class Change:
    status: str  # added, removed, changed, moved, moved+changed
    old: Record | None
    new: Record | None
    similarity: float
    diff: str  # word-level: [-removed-] {+added+}
    references_only: bool = False  # the text differs only in the rule numbers it cites

    @property
    def sort_number(self) -> tuple[int, int, int, str]:
        record = self.new or self.old
        assert record is not None
        return sort_key(record.number or "")

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "from": self.old.number if self.old else None,
            "to": self.new.number if self.new else None,
            "similarity": round(self.similarity, 3),
            "diff": self.diff,
            "references_only": self.references_only,
        }


def word_diff(old: str, new: str) -> str:
    """A word-level diff: unchanged words as they are, [-removed-] and {+added+}."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.extend(a[i1:i2])
            continue
        if tag in ("replace", "delete"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if tag in ("replace", "insert"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def similarity(old: str, new: str) -> float:
    return SequenceMatcher(None, _WORDS.findall(old), _WORDS.findall(new), autojunk=False).ratio()


def without_references(text: str) -> str:
    return CITATION.sub("#", text)


def by_edition(
    records: Sequence[Record], lang: str, *, followed: bool = False
) -> dict[str, list[Record]]:
    """edition date -> that edition's records in one language (undated ones are left out).
    With `followed`, a translation's records are under the English edition they follow (the
    Spanish CR, undated, under 2025-11-14)."""
    editions: dict[str, list[Record]] = {}
    for record in records:
        edition = (record.follows or record.edition) if followed else record.edition
        if record.lang == lang and edition:
            editions.setdefault(edition, []).append(record)
    return dict(sorted(editions.items()))


def rules_of(records: Iterable[Record]) -> list[Record]:
    """The numbered rules (with section headings and chapters) of one edition, in order."""
    rules = [r for r in records if r.kind == "rule" and r.number]
    return sorted(rules, key=lambda r: (sort_key(r.number or ""), r.seq))


def _parent(number: str) -> str:
    return parent_of(number) or number


def _place(number: str) -> str:
    """What a number keeps under its parent: the letters of a subrule, a rule's own number."""
    parsed = RuleNumber.of(number)
    return parsed.place if parsed else number


def compare(
    old_records: Sequence[Record],
    new_records: Sequence[Record],
    *,
    ignore_typography: bool = False,
    through: Sequence[Sequence[Record]] = (),
) -> list[Change]:
    """Every difference between two editions' rules; unchanged rules are not listed. With
    `ignore_typography`, quotes, apostrophes, dashes and spaces of any form are one. With
    `through` (the editions between the two), a rule is paired as the chain of consecutive
    editions pairs it (corpus/align/identity.py): a rule removed in between and another added later
    are two rules, however alike."""
    old, new = rules_of(old_records), rules_of(new_records)
    fold: Callable[[str], str] = typography_folded if ignore_typography else (lambda t: t)
    if through:
        pairs = _Pairing(old, new, fold)
        at_old = {r.number: i for i, r in reversed(list(enumerate(old)))}
        at_new = {r.number: j for j, r in reversed(list(enumerate(new)))}
        for a, b in chained([old_records, *through, new_records]).items():
            pairs.pair(at_old[a], at_new[b])
    else:
        # Paired as rule identity pairs them (a change of typography alone is the same rule:
        # 2020-01-24's curled quotes), each pair then compared as asked.
        pairs = _paired(old, new, typography_folded)
        pairs.compare_as(fold)
    found = (pairs.change(i, j) for i, j in pairs.matched.items())
    changes = [c for c in found if c is not None]
    changes += [
        Change("removed", rule, None, 0.0, "[-" + rule.text + "-]")
        for i, rule in enumerate(old)
        if i not in pairs.matched
    ]
    paired_new = set(pairs.matched.values())
    changes += [
        Change("added", None, rule, 0.0, "{+" + rule.text + "+}")
        for j, rule in enumerate(new)
        if j not in paired_new
    ]
    return sorted(
        changes,
        key=lambda c: (c.sort_number, sort_key(c.old.number or "") if c.old else (0, 0, 0, "")),
    )


def matches(old_records: Sequence[Record], new_records: Sequence[Record]) -> dict[str, str]:
    """Old rule number -> the new number of the same rule, for every rule `compare` pairs
    (unchanged ones too): what rule identity chains across editions (corpus/align/identity.py).
    The pairing alone, without the diffs, which cost as much again."""
    return paired_numbers(rules_of(old_records), rules_of(new_records))


def paired_numbers(old: list[Record], new: list[Record]) -> dict[str, str]:
    """`matches` of two editions' rules already in `rules_of`'s order (each edition's list
    is sorted once when a chain of editions is paired)."""
    # A change of typography alone is the same rule: 2020-01-24 curled every quote, and read
    # as they were printed, Ending the Turn's rules (716.1 …) were not paired with 717.1 ….
    pairs = _paired(old, new, typography_folded)
    found: dict[str, str] = {}
    for i, j in pairs.matched.items():
        found.setdefault(old[i].number or "", new[j].number or "")
    return found


def chained(editions: Sequence[Sequence[Record]]) -> dict[str, str]:
    """First edition's rule number -> the last edition's number of the same rule, through
    the pairings of each consecutive two."""
    found = matches(editions[0], editions[1])
    for before, after in pairwise(editions[1:]):
        step = matches(before, after)
        found = {a: step[b] for a, b in found.items() if b in step}
    return found


def _paired(old: list[Record], new: list[Record], fold: Callable[[str], str]) -> _Pairing:
    pairs = _Pairing(old, new, fold)
    for level in (0, 1, 2):
        pairs.level(level)
    # Last, a text that changed depth unchanged (903.11 became 903.11a when a rule was put
    # before it): the same long text anywhere.
    olds, news = pairs.free(list(range(len(old))), list(range(len(new))))
    pairs.pair_same_text(olds, news, lambda t: t, anywhere=False)
    pairs.pair_renamed_parents()
    return pairs


class _Pairing:
    """Old rules paired with new ones, level by level."""

    def __init__(self, old: list[Record], new: list[Record], fold: Callable[[str], str]) -> None:
        self.old, self.new = old, new
        self.old_text = [fold(r.text) for r in old]
        self.new_text = [fold(r.text) for r in new]
        self.matched: dict[int, int] = {}  # old index -> new index
        self._taken: set[int] = set()
        self._old_depth = [depth(r.number or "") for r in old]
        self._new_depth = [depth(r.number or "") for r in new]
        self._unreferenced: dict[str, str] = {}  # text -> without_references(text)

    def compare_as(self, fold: Callable[[str], str]) -> None:
        """Compare the pairs made with texts folded so (typography kept, or not)."""
        self.old_text = [fold(r.text) for r in self.old]
        self.new_text = [fold(r.text) for r in self.new]

    def _without_references(self, text: str) -> str:
        # Asked of the same texts group after group: each is folded once.
        found = self._unreferenced.get(text)
        if found is None:
            found = self._unreferenced[text] = without_references(text)
        return found

    def level(self, wanted: int) -> None:
        olds = [i for i, d in enumerate(self._old_depth) if d == wanted]
        news = [j for j, d in enumerate(self._new_depth) if d == wanted]
        if wanted > 0:
            # Under parents already paired, first: the tree decides where a child can go.
            by_parent_old: dict[str, list[int]] = defaultdict(list)
            by_parent_new: dict[str, list[int]] = defaultdict(list)
            for i in olds:
                by_parent_old[_parent(self.old[i].number or "")].append(i)
            for j in news:
                by_parent_new[_parent(self.new[j].number or "")].append(j)
            parents = {self.old[i].number: self.new[j].number for i, j in self.matched.items()}
            for parent, children in by_parent_old.items():
                target = parents.get(parent)
                if target is not None and target in by_parent_new:
                    self._pair_group(children, by_parent_new[target], CHANGED_MIN, same_parent=True)
        self._pair_group(olds, news, MOVED_MIN, same_parent=False)

    def free(self, olds: list[int], news: list[int]) -> tuple[list[int], list[int]]:
        return [i for i in olds if i not in self.matched], [j for j in news if j not in self._taken]

    def pair(self, i: int, j: int) -> None:
        self.matched[i] = j
        self._taken.add(j)

    def _pair_group(
        self, olds: list[int], news: list[int], least: float, same_parent: bool
    ) -> None:
        # Each step pairs only what the ones before left free; most groups (a rule's
        # unchanged subrules) are all paired by the first, and the rest is skipped.
        for key in (lambda t: t, self._without_references):
            olds, news = self.free(olds, news)
            if not olds or not news:
                return
            self.pair_same_text(olds, news, key, anywhere=same_parent)
        # The same place (number, or letters under a paired parent) with a similar text.
        olds, news = self.free(olds, news)
        if not olds or not news:
            return
        place = _place if same_parent else (lambda n: n)
        at = {place(self.new[j].number or ""): j for j in news}
        for i in olds:
            j = at.get(place(self.old[i].number or ""))
            if j is None or j in self._taken:
                continue
            here = similarity(self.old_text[i], self.new_text[j])
            alike = here >= CHANGED_MIN or _extended(self.old_text[i], self.new_text[j])
            if alike and not self._better_elsewhere(i, j, here, olds, news):
                self.pair(i, j)
        # The most similar texts, best first, within a section and depth.
        olds, news = self.free(olds, news)
        if not olds or not news:
            return
        self._pair_best(olds, news, least, same_parent)
        # Last, under a paired parent: what is left at the same place, rewritten beyond
        # CHANGED_MIN but still sharing much of its words, is that rule rewritten (100.7 of
        # 2020-11-20 and of 2025-04-04, 0.41 alike), not one removed and another added.
        olds, news = self.free(olds, news)
        if not same_parent or not olds or not news:
            return
        at = {_place(self.new[j].number or ""): j for j in news}
        for i in olds:
            j = at.get(_place(self.old[i].number or ""))
            if j is None or j in self._taken:
                continue
            if similarity(self.old_text[i], self.new_text[j]) >= REWRITTEN_MIN:
                self.pair(i, j)

    def _better_elsewhere(
        self, i: int, j: int, here: float, olds: list[int], news: list[int]
    ) -> bool:
        """Whether old rule i or new rule j, at the same place and only somewhat alike, has a
        far closer partner still free in its section at its depth: then the place is no proof
        and the best matches decide. 2026-08-07 put a rule before 704.5w: the old 704.5w is the
        new 704.5x (0.91 alike), not the old 704.5x (0.50), which is the new 704.5y (0.79)."""
        enough = max(MOVED_MIN, here + BETTER_BY)
        a, b = self.old[i].number or "", self.new[j].number or ""
        others_old = (k for k in olds if k != i and k not in self.matched)
        others_new = (k for k in news if k != j and k not in self._taken)
        return any(
            _same_place(self.old[k].number or "", b)
            and _alike(self.old_text[k], self.new_text[j], enough)
            for k in others_old
        ) or any(
            _same_place(a, self.new[k].number or "")
            and _alike(self.old_text[i], self.new_text[k], enough)
            for k in others_new
        )

    def pair_same_text(
        self, olds: list[int], news: list[int], key: Callable[[str], str], anywhere: bool
    ) -> None:
        """Equal texts: the same number first, then in order (an order both directions share).
        Outside a paired parent, a short rule text ("General") pairs only within its section;
        section headings pair anywhere."""
        groups_old: dict[str, list[int]] = defaultdict(list)
        groups_new: dict[str, list[int]] = defaultdict(list)
        for i in olds:
            groups_old[key(self.old_text[i])].append(i)
        for j in news:
            groups_new[key(self.new_text[j])].append(j)
        for text, mine in groups_old.items():
            theirs = groups_new.get(text)
            if not theirs:
                continue
            numbers = {self.new[j].number: j for j in theirs}
            rest_old = []
            for i in mine:
                same = numbers.get(self.old[i].number)
                if same is not None and same not in self._taken:
                    self.pair(i, same)
                else:
                    rest_old.append(i)
            rest_new = [j for j in theirs if j not in self._taken]
            for i, j in zip(rest_old, rest_new, strict=False):
                a, b = self.old[i].number or "", self.new[j].number or ""
                near = depth(a) == 0 or _same_section(a, b)
                if anywhere or near or len(text) > 40:
                    self.pair(i, j)

    def pair_renamed_parents(self) -> None:
        """A heading left unpaired whose rules below went, most of them, under one new heading
        also unpaired is that heading renamed: "308. Tribals" became "308. Kindreds" (308.1
        and 308.2 changed with it), one section, not one removed and one added."""
        olds, news = self.free(list(range(len(self.old))), list(range(len(self.new))))
        if not olds or not news:
            return
        free_new = {self.new[j].number: j for j in news}
        below: dict[str, list[int]] = defaultdict(list)
        for k, rule in enumerate(self.old):
            number = rule.number or ""
            if parent_of(number):
                below[_parent(number)].append(k)
        for i in olds:
            children = below.get(self.old[i].number or "", [])
            went = Counter(
                _parent(self.new[self.matched[k]].number or "")
                for k in children
                if k in self.matched
            )
            if not went:
                continue
            parent, count = went.most_common(1)[0]
            j = free_new.get(parent)
            if j is not None and j not in self._taken and 2 * count > len(children):
                self.pair(i, j)

    def _pair_best(self, olds: list[int], news: list[int], least: float, same_parent: bool) -> None:
        candidates: list[tuple[float, tuple[object, ...], int, int]] = []
        words = {j: _WORDS.findall(self.new_text[j]) for j in news}
        for i in olds:
            matcher = SequenceMatcher(None, autojunk=False)
            matcher.set_seq2(_WORDS.findall(self.old_text[i]))
            a = self.old[i].number or ""
            for j in news:
                b = self.new[j].number or ""
                if not same_parent and not _same_place(a, b):
                    continue
                matcher.set_seq1(words[j])
                if matcher.real_quick_ratio() < least or matcher.quick_ratio() < least:
                    continue
                ratio = matcher.ratio()
                if ratio >= least:
                    tie = tuple(sorted((sort_key(a), sort_key(b))))
                    candidates.append((-ratio, tie, i, j))
        for _, _, i, j in sorted(candidates):
            if i not in self.matched and j not in self._taken:
                self.pair(i, j)

    def change(self, i: int, j: int) -> Change | None:
        a, b = self.old[i], self.new[j]
        same_text = self.old_text[i] == self.new_text[j]
        if a.number == b.number and same_text:
            return None
        references_only = not same_text and without_references(
            self.old_text[i]
        ) == without_references(self.new_text[j])
        # Texts the same but for typography that is ignored: a move, with no diff to show.
        diff = "" if same_text else word_diff(a.text, b.text)
        if a.number == b.number:
            return Change("changed", a, b, similarity(a.text, b.text), diff, references_only)
        status = "moved" if same_text or references_only else "moved+changed"
        ratio = 1.0 if same_text else similarity(self.old_text[i], self.new_text[j])
        return Change(status, a, b, ratio, diff, references_only)


def _alike(old: str, new: str, least: float) -> bool:
    """similarity(old, new) >= least, the cheap bounds asked first."""
    matcher = SequenceMatcher(None, _WORDS.findall(new), _WORDS.findall(old), autojunk=False)
    return (
        matcher.real_quick_ratio() >= least
        and matcher.quick_ratio() >= least
        and matcher.ratio() >= least
    )


EXTENDED_FROM = 6  # words of the shorter text, from which its being kept whole is proof


def _extended(old: str, new: str) -> bool:
    """Whether one text is the other with words added, every word of the shorter kept in
    order: a rule that gains a sentence or two at its place ("… can't be turned face down." and
    "… can't be turned face down. If a spell or ability tries …", 730.2j in 2026-06-19) is the
    same rule changed, however much longer it grew. Too short a text proves nothing."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    shorter = min(len(a), len(b))
    if shorter < EXTENDED_FROM:
        return False
    blocks = SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks) == shorter


def _same_section(a: str, b: str) -> bool:
    return section_of(a) == section_of(b)


def _same_place(a: str, b: str) -> bool:
    """Same section and the same depth (rule, subrule): where a renumbered rule can go."""
    return section_of(a) == section_of(b) and depth(a) == depth(b)


# --- the history of one rule ------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    edition: str
    event: str  # first seen, appeared, changed, moved, moved+changed, removed
    number: str | None
    previous: str | None = None  # the number before a move
    diff: str = ""


def edition_texts(
    editions: Sequence[tuple[str, Sequence[Record]]], ignore_typography: bool = True
) -> list[dict[str | None, str]]:
    """Each edition's rules' texts by number (typography folded unless asked not to)."""
    fold: Callable[[str], str] = typography_folded if ignore_typography else (lambda t: t)
    return [{r.number: fold(r.text) for r in rules_of(records)} for _, records in editions]


def history(
    number: str,
    editions: Sequence[tuple[str, Sequence[Record]]],
    *,
    at: str | None = None,
    ignore_typography: bool = True,
    compared: dict[int, list[Change]] | None = None,
    texts: list[dict[str | None, str]] | None = None,
) -> list[Event]:
    """When a rule appeared, changed, moved and disappeared, across editions in date order.

    `number` is the rule's number in edition `at` (by default the newest edition that has it);
    moves are followed back to the oldest edition and forward to the newest. Typography-only
    changes (quotes, apostrophes, dashes, spaces) are not changes unless asked. `compared`
    keeps the comparisons of neighbouring editions for the next rule's history (its subrules),
    `texts` each edition's `edition_texts` (the same for every rule of one history)."""
    compared = {} if compared is None else compared
    texts = edition_texts(editions, ignore_typography) if texts is None else texts
    dates = [date for date, _ in editions]
    if at is not None:
        if at not in dates or number not in texts[dates.index(at)]:
            return []
        start = dates.index(at)
    else:
        present = [k for k, found in enumerate(texts) if number in found]
        if not present:
            return []
        start = present[-1]

    def change_between(k: int, current: str, backwards: bool) -> Change | None:
        if k not in compared:
            compared[k] = compare(
                editions[k][1], editions[k + 1][1], ignore_typography=ignore_typography
            )
        changes = compared[k]
        side = (lambda c: c.new) if backwards else (lambda c: c.old)
        return next(
            (c for c in changes if (r := side(c)) is not None and r.number == current), None
        )

    events: list[Event] = []
    current, k = number, start
    while k > 0:
        if texts[k - 1].get(current) == texts[k].get(current):
            k -= 1  # unchanged: no need to compare the whole editions
            continue
        change = change_between(k - 1, current, backwards=True)
        k -= 1
        if change is None:
            continue
        if change.status == "added":
            events.append(Event(dates[k + 1], "appeared", current))
            break
        previous = change.old.number if change.old else None
        moved = previous != current
        diff = change.diff
        events.append(
            Event(dates[k + 1], change.status, current, previous if moved else None, diff)
        )
        current = previous or current
    else:
        events.append(Event(dates[0], "first seen", current))
    events.reverse()
    following: str | None = number
    k = start
    while following is not None and k + 1 < len(editions):
        if texts[k + 1].get(following) == texts[k].get(following):
            k += 1
            continue
        change = change_between(k, following, backwards=False)
        k += 1
        if change is None:
            continue
        to = change.new.number if change.new else None
        events.append(
            Event(dates[k], change.status, to, following if to != following else None, change.diff)
        )
        following = to
    return events


# --- translations whose English has changed since ---------------------------------------------


@dataclass(frozen=True)
class Stale:
    record: Record
    english_from: str
    english_to: str
    change: Change
    copies: int = 1  # the translation prints this number more than once: listed once
    removed_in: str | None = None  # removed: the first loaded edition without the rule
    moved_in: str | None = None  # moved: the first loaded edition with its number today

    def to_json(self) -> dict[str, object]:
        return {
            "lang": self.record.lang,
            "source": self.record.source,
            "key": self.record.key,
            "number": self.record.number,
            "align": self.record.align.method,
            "edition": self.record.edition,
            "english_from": self.english_from,
            "english_to": self.english_to,
            "status": self.change.status,
            "english_number": self.change.new.number if self.change.new else None,
            "diff": self.change.diff,
            # Moved, and the text differs only in the rule numbers it cites.
            "references_only": self.change.references_only,
            "copies": self.copies,
            "removed_in": self.removed_in,
            "moved_in": self.moved_in,
            # The number a misprinted one was read as, in the edition followed.
            "read_as": (
                self.change.old.number
                if "misnumbered" in self.record.flags and self.change.old
                else None
            ),
        }


def _against(record: Record, english: Record) -> Change | None:
    """The change from the English a translation says it was made from to today's."""
    assert record.original is not None
    if typography_folded(record.original) == typography_folded(english.text):
        return None
    before = english.but(text=record.original)
    diff = word_diff(record.original, english.text)
    return Change("changed", before, english, similarity(record.original, english.text), diff)


def translated_documents(translated: Iterable[Record]) -> dict[str, list[Record]]:
    """Each translated document's numbered rules, by source: what `translated_from` reads."""
    by_source: dict[str, list[Record]] = {}
    for record in translated:
        if record.kind == "rule" and record.number and record.align.method != "own":
            by_source.setdefault(record.source, []).append(record)
    return by_source


def translated_from(editions: Sequence[str], records: Sequence[Record]) -> tuple[str | None, bool]:
    """The English edition one translated document was made from (of the loaded `editions`,
    sorted), and whether the document is an old copy aligned by its content: numbered unlike
    every loaded edition (the 2006 French), it is older than all of them, so the oldest."""
    by_content = any(r.align.method == "content" for r in records if r.kind == "rule")
    return (editions[0] if by_content else followed(list(editions), records[0])), by_content


def _removed_in(change: Change, numbered: Mapping[str, Mapping[str, str | None]]) -> str | None:
    """A removed rule's first loaded edition after the one followed without its key (the
    rule-identity chain: 100.7 of 2020 is gone since 2025-04-04, not only from the newest
    edition). `numbered`: each later edition's numbers by key, oldest first."""
    if change.status != "removed" or change.old is None:
        return None
    key = change.old.key
    return next((e for e, numbers in numbered.items() if key not in numbers), None)


def _moved_in(change: Change, numbered: Mapping[str, Mapping[str, str | None]]) -> str | None:
    """A moved rule's first loaded edition after the one followed that numbers it as today
    (725.1, The Monarch: 2026-04-17, though compared to 2026-08-07)."""
    if not change.status.startswith("moved") or change.new is None:
        return None
    key, number = change.new.key, change.new.number
    return next((e for e, numbers in numbered.items() if numbers.get(key) == number), None)


def stale(translated: Sequence[Record], english: Mapping[str, Sequence[Record]]) -> list[Stale]:
    """Translated rules whose English counterpart changed after the edition they follow.

    A translation aligned by content (numbered unlike every loaded edition, as an old forum
    copy is) is taken to be older than all of them: stale against every change since the
    oldest, found under the modern number it was aligned to. Typography-only changes are not
    changes here."""
    editions = sorted(english)
    newest = editions[-1]
    found: list[Stale] = []
    for _, records in sorted(translated_documents(translated).items()):
        start, by_content = translated_from(editions, records)
        if start is None or (start == newest and not any(r.original for r in records)):
            continue
        # Through the editions between: a rule rewritten twice since is paired as the chain of
        # consecutive editions pairs it (its key), not taken for one removed and one added.
        between = [english[e] for e in editions if start < e < newest]
        changes = compare(english[start], english[newest], ignore_typography=True, through=between)
        changes = changes if start != newest else []
        if by_content:
            at = {c.new.number: c for c in changes if c.new}
        else:
            at = {c.old.number: c for c in changes if c.old}
        copies = Counter(record.key for record in records)
        listed: set[str] = set()
        today = {r.number: r for r in rules_of(english[newest])} if start == newest else {}
        # A misprinted number is read as its key's number in the edition followed.
        read_as = {r.key: r.number for r in rules_of(english[start])}
        # Each later edition's numbers by key, once: when a rule moved or went.
        numbered = {
            e: {r.key: r.number for r in rules_of(english[e])} for e in editions if e > start
        }
        for record in records:
            # By number: as the edition it follows prints it (its key is today's number).
            looked = record.key if by_content else record.number or record.key
            if "misnumbered" in record.flags:
                looked = read_as.get(record.key) or looked
            change, since = at.get(looked), start
            if change is None and record.key in today and record.original is not None:
                # A catalogue says the English it translated (a fuzzy entry's previous msgid).
                change, since = _against(record, today[record.key]), PREVIOUS_MSGID
            if change is not None and record.key not in listed:
                listed.add(record.key)
                gone, moved = _removed_in(change, numbered), _moved_in(change, numbered)
                found.append(Stale(record, since, newest, change, copies[record.key], gone, moved))
    return sorted(found, key=lambda s: (s.record.lang, sort_key(s.record.key)))
