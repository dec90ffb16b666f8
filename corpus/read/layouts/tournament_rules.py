"""The Magic Tournament Rules: chapters 1–10, numbered sections, appendices (judge.py)."""

from __future__ import annotations

from corpus.read.layouts.base import Context, Parsed
from corpus.read.layouts.judge import parse_for, score_for

NAME = "tournament-rules"


def score(lines: list[str]) -> tuple[float, str]:
    return score_for("mtr", lines)


def parse(ctx: Context) -> Parsed:
    return parse_for("mtr", ctx)
