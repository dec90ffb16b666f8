"""`mtgrules check`: numbering problems and translation QA against the English rules."""

from __future__ import annotations

import sys
from dataclasses import asdict

import click

from search.commands.options import json_option, lang_option
from search.safe_text import echo, echo_json


@click.command("check")
@lang_option("Check only these languages' documents.")
@click.option("--against", default="en", show_default=True, help="The reference language.")
@json_option
def command(langs: tuple[str, ...], against: str, as_json: bool) -> None:
    """Duplicated, missing or out-of-order numbers; English rules a translation lacks and
    numbers English lacks; translator notes; translated rules whose English-named items, list
    items or cited rules disagree with their English counterpart. Exits 1 when it reports
    problems, 0 when the library is clean."""
    from corpus.editions import rules_of
    from corpus.following import followed
    from corpus.qa import (
        coverage_problems,
        numbering_problems,
        translation_problems,
        translator_notes,
    )
    from search.editions import by_edition
    from search.session import library_records, live_termbase

    if against != "en":
        raise click.BadParameter(
            "only the English rules are a reference (en)", param_hint="--against"
        )
    records = library_records()
    termbase = live_termbase()
    english = by_edition(records, "en")
    dates = list(english)
    by_source: dict[str, list] = {}
    for record in records:
        if not langs or record.lang in langs:
            by_source.setdefault(record.source, []).append(record)
    problems = []
    for _, mine in sorted(by_source.items()):
        rules = rules_of(mine)
        problems.extend(numbering_problems(rules))
        problems.extend(translator_notes(mine))
        if not rules or rules[0].lang == "en" or not english:
            continue
        followed_rules = rules_of(english[followed(dates, rules[0]) or ""])
        reference = {r.number: r for r in followed_rules}
        numbers = frozenset(r.number for r in followed_rules if r.number)
        if rules[0].follows and all(r.align.method == "number" for r in rules):
            problems.extend(coverage_problems(rules, followed_rules))
        for rule in rules:
            counterpart = reference.get(rule.key) if rule.align.method != "own" else None
            if counterpart is not None:
                problems.extend(translation_problems(rule, counterpart, termbase, numbers))
    if as_json:
        echo_json({"problems": [asdict(p) for p in problems]})
    else:
        for problem in problems:
            echo(f"{problem.source} {problem.number}: {problem.check}: {problem.message}")
        echo(f"{len(problems)} problem{'' if len(problems) == 1 else 's'}")
    if problems:
        sys.exit(1)  # as linters do: problems found
