"""The curated table of set mechanics: English name, CR rule, names in other languages."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

from corpus.model.numbers import depth, parent_of
from corpus.model.text import fold
from corpus.paths import DATA


@dataclass(frozen=True)
class Mechanic:
    english: str
    rule: str
    names: dict[str, tuple[str, ...]]
    part_of: str | None = None
    owns_rule: bool = False

    def pattern(self, lang: str) -> re.Pattern[str] | None:
        names = self.names.get(lang, ())
        if lang == "en" or not names:
            names = (*names, self.english)
        alternation = "|".join(re.escape(fold(name)) for name in names)
        return re.compile(rf"\b(?:{alternation})\b")


@cache
def mechanics() -> tuple[Mechanic, ...]:
    raw = json.loads((DATA / "mechanics.json").read_text("utf-8"))
    return tuple(
        Mechanic(
            english=entry["english"],
            rule=entry["rule"],
            names={lang: tuple(names) for lang, names in entry["names"].items()},
            part_of=entry.get("part_of"),
            owns_rule=entry.get("owns_rule", False),
        )
        for entry in raw["mechanics"]
    )


def by_english(name: str) -> Mechanic | None:
    folded = fold(name)
    return next((m for m in mechanics() if fold(m.english) == folded), None)


def find_mechanics(text: str, lang: str) -> list[Mechanic]:
    """Mechanics named in the text, in the order they first appear."""
    folded = fold(text)
    found = []
    for mechanic in mechanics():
        pattern = mechanic.pattern(lang)
        match = pattern.search(folded) if pattern else None
        if match:
            found.append((match.start(), mechanic))
    return [m for _, m in sorted(found, key=lambda pair: pair[0])]


@cache
def owned_rules() -> dict[str, str]:
    """CR rule number -> the mechanic it is wholly about (702.184 -> Station)."""
    return {m.rule: m.english for m in mechanics() if m.owns_rule}


def mechanic_of_rule(key: str) -> str | None:
    """The mechanic whose own rule (or one of its subrules) this key is."""
    rules = owned_rules()
    if key in rules:
        return rules[key]
    parent = parent_of(key) if depth(key) == 2 else None
    return rules.get(parent) if parent else None


def result_key(key: str) -> str:
    """The key a record is shown under: its mechanic's name for the mechanic's own rules
    (702.184a -> Station), else its own."""
    return mechanic_of_rule(key) or key
