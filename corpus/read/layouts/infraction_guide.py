"""The Infraction Procedure Guide: numbered infractions, each with its penalty (judge.py)."""

from __future__ import annotations

from corpus.read.layouts.base import Context, Parsed
from corpus.read.layouts.judge import parse_for, score_for

NAME = "infraction-procedure-guide"


def score(lines: list[str]) -> tuple[float, str]:
    return score_for("ipg", lines)


def parse(ctx: Context) -> Parsed:
    return parse_for("ipg", ctx)
