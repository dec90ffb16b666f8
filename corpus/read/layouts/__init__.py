"""The document layouts, each a detector (score) and a pure parser.

A layout is chosen by score, never by file name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from corpus.read.layouts import (
    article,
    forum,
    gettext,
    infraction_guide,
    judging_at_regular,
    numbered,
    official_cr,
    tournament_rules,
    webpage,
)
from corpus.read.layouts.base import Context, Parsed


@dataclass(frozen=True)
class Layout:
    name: str
    score: Callable[[list[str]], tuple[float, str]]
    parse: Callable[[Context], Parsed]


LAYOUTS: tuple[Layout, ...] = tuple(
    Layout(module.NAME, module.score, module.parse)
    for module in (
        gettext,
        official_cr,
        tournament_rules,
        infraction_guide,
        judging_at_regular,
        numbered,
        forum,
        webpage,
        article,
    )
)

MIN_SCORE = 0.3


@dataclass(frozen=True)
class Detection:
    layout: Layout | None
    score: float
    reason: str
    scores: dict[str, float]  # of the layouts scored


def detect_layout(lines: list[str]) -> Detection:
    """Score the layouts in order; the best one wins if it clears MIN_SCORE. A layout that
    scores 1.0, the most there is, wins at once: the first best wins a tie, and the others'
    scoring was a sixth of an official CR's parse."""
    results = []
    for layout in LAYOUTS:
        results.append((layout, *layout.score(lines)))
        if results[-1][1] >= 1.0:
            break
    scores = {layout.name: value for layout, value, _ in results}
    best, value, reason = max(results, key=lambda item: item[1])
    if value == 0:  # no layout saw anything of its own: say what most documents have
        reason = next(r for layout, _, r in results if layout.name == "numbered-rules")
    if value < MIN_SCORE:
        return Detection(None, value, reason, scores)
    return Detection(best, value, f"score {value:.2f}: {reason}", scores)


__all__ = ["LAYOUTS", "Context", "Detection", "Layout", "Parsed", "detect_layout"]
