"""`mtgrules check`: numbering problems and translation QA against the English rules."""

from __future__ import annotations

import sys

import click

from search import payloads
from search.commands.options import json_option, lang_option
from search.safe_text import echo, echo_json
from search.session import library_records, open_engine


@click.command("check")
@lang_option("Check only these languages' documents.")
@click.option("--against", default="en", show_default=True, help="The reference language.")
@json_option
def command(langs: tuple[str, ...], against: str, as_json: bool) -> None:
    """Report numbering and translation problems: duplicated, missing or out-of-order numbers,
    English rules a translation lacks and numbers English lacks, translator notes, and
    translated rules whose English-named items, list items or cited rules disagree with their
    English counterpart. Exits 1 when it reports problems, 0 when the library is clean."""
    if against != "en":
        raise click.BadParameter(
            "only the English rules are a reference (en)", param_hint="--against"
        )
    records = library_records()
    with open_engine(searching=False) as engine:  # the term base the build used
        payload = payloads.check(records, langs, engine.termbase)
    problems = payload["problems"]
    if as_json:
        echo_json(payload)
    else:
        for problem in problems:
            echo(
                f"{problem['source']} {problem['number']}: {problem['check']}: {problem['message']}"
            )
        echo(f"{len(problems)} problem{'' if len(problems) == 1 else 's'}")
    if problems:
        sys.exit(1)  # as linters do: problems found
