"""Rule identity: one rule through every renumbering of the loaded English editions.

`diff` pairs the rules of two consecutive editions (corpus.align.editions.matches: moves, moved and
changed, cited numbers only). Chained over every pair, those pairings give each rule one
identity, and its key is its number in the newest loaded edition. A rule gone from the newest
edition keeps a key of its own, `gone:NUMBER@EDITION` (its last number and the last edition
that had it), and never takes the number of what replaced it.

Each chain also has an origin: its number in the first edition that has it (with `@EDITION`
when an older chain already took that number). An origin never changes when a newer edition
is added, so the index is built on origins (Whoosh documents, version ids) and a new edition
only renames keys (indexer/incremental.py)."""

from __future__ import annotations

import sys
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from corpus.model.dates import in_effect
from corpus.model.records import Record

GONE = "gone:"
_KEPT = ("override", "own")  # keys forced or of a document's own: not rule numbers to follow


def gone_key(number: str, edition: str) -> str:
    """The key of a rule the newest edition no longer has: its last number and edition."""
    return f"{GONE}{number}@{edition}"


def gone_place(key: str) -> tuple[str, str] | None:
    """(last number, last edition) of a gone rule's key; None for any other key."""
    if not key.startswith(GONE) or "@" not in key:
        return None
    number, _, edition = key.removeprefix(GONE).rpartition("@")
    return number, edition


@dataclass
class Identity:
    """Every loaded English edition's rule numbers with their current keys."""

    # Each edition's numbers, sorted, and their origins in the same order: tuples, because a
    # full build holds them beside 118,000 records (29 editions print 87,000 numbers).
    printed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    origins: dict[str, tuple[str, ...]] = field(default_factory=dict)  # each number's origin
    current: dict[str, str] = field(default_factory=dict)  # every origin -> its current key
    used: set[str] = field(default_factory=set)  # every origin given
    # The newest edition's rules (number, text, place), to pair the next edition's with.
    newest_rules: list[tuple[str, str, int]] = field(default_factory=list, repr=False)
    by_key: dict[str, str] = field(default_factory=dict, repr=False)  # current key -> origin

    @property
    def editions(self) -> list[str]:
        return sorted(self.printed)

    @property
    def newest(self) -> str | None:
        return max(self.printed) if self.printed else None

    def _origin_in(self, edition: str, number: str) -> str | None:
        numbers = self.printed.get(edition, ())
        at = bisect_left(numbers, number)
        if at == len(numbers) or numbers[at] != number:
            return None
        return self.origins[edition][at]

    def _origins(self, edition: str) -> dict[str, str]:
        return dict(zip(self.printed[edition], self.origins[edition], strict=True))

    def origin(self, key: str) -> str:
        """The origin of the rule a current key names (any other key is its own)."""
        return self.by_key.get(key, key)

    def renamed_origins(self) -> dict[str, str]:
        """origin -> current key, where the two differ (what the search reads off Whoosh)."""
        return {origin: key for origin, key in self.current.items() if origin != key}

    def key(self, edition: str, number: str) -> str | None:
        """The current key of the rule `edition` numbers so; None if it has no such rule."""
        origin = self._origin_in(edition, number)
        return None if origin is None else self.current[origin]

    def numbering(self, record: Record) -> str | None:
        """The English edition whose numbering a record's key is printed in."""
        if record.lang == "en":
            return record.edition if record.edition in self.printed else None
        if record.follows in self.printed:
            return record.follows
        return in_effect(self.editions, record.edition)

    def rekeyed(self, record: Record) -> Record:
        """The record under its rule's current key (a key that is no rule number is kept)."""
        if record.align.method in _KEPT:
            return record
        edition = self.numbering(record)
        key = self.key(edition, record.key) if edition else None
        return record if key is None or key == record.key else record.but(key=key)

    def extended(
        self, edition: str, records: Sequence[Record], before: list[Record] | None = None
    ) -> dict[str, str]:
        """Add a newer edition: its rules take the chains of the newest edition's rules they
        pair with. Returns the renamed keys (old key -> new key). `before`: the newest
        edition's rules as `rules_of` gives them, when the caller has them (else they are
        made again from `newest_rules`)."""
        from corpus.align.editions import paired_numbers, rules_of  # diff's pairing: builds

        newest = self.newest
        assert newest is None or edition > newest, "editions are added oldest first"
        rules = rules_of(records)
        paired = paired_numbers(before or self._newest_records(), rules) if newest else {}
        renamed: dict[str, str] = {}
        previous = self._origins(newest) if newest else {}
        for number in previous:
            renamed[number] = paired.get(number) or gone_key(number, str(newest))
        origins: dict[str, str] = {}
        by_new = {new: previous[old] for old, new in paired.items()}
        # One string per number however many editions print it: 29 editions hold 96,000.
        for number in dict.fromkeys(sys.intern(r.number or "") for r in rules):
            origin = by_new.get(number)
            if origin is None:
                origin = number if number not in self.used else f"{number}@{edition}"
                self.used.add(origin)
            origins[number] = origin
        for origin in previous.values():
            self.current[origin] = renamed[self.current[origin]]
        self.current.update((origin, number) for number, origin in origins.items())
        self.printed[edition] = tuple(sorted(origins))
        self.origins[edition] = tuple(origins[n] for n in self.printed[edition])
        self.newest_rules = [(r.number or "", r.text, r.seq) for r in rules]
        self.by_key = {key: origin for origin, key in self.current.items() if origin != key}
        return {old: new for old, new in renamed.items() if old != new}

    def _newest_records(self) -> list[Record]:
        """The newest edition's rules, made again from what is kept of them (in `rules_of`'s
        order already: they were kept in it)."""
        return [
            Record("en", "", "rule", text, (0, 0), number, number, seq=seq)
            for number, text, seq in self.newest_rules
        ]


def identity(english: Mapping[str, Sequence[Record]]) -> Identity:
    """The identity of every rule of the English editions (date -> records), oldest first."""
    from corpus.align.editions import rules_of

    found = Identity()
    before: list[Record] | None = None
    for edition in sorted(english):
        found.extended(edition, english[edition], before)
        before = rules_of(english[edition])  # the next edition is paired with these
    return found
