"""`mtgrules check`: numbering problems and translation QA against the English rules."""

from __future__ import annotations

import sys

import click

from search import payloads
from search.commands.options import json_option, lang_option, problems_as_errors
from search.safe_text import echo, echo_json
from search.session import library_records, open_engine


@click.command("check")
@lang_option("Check only these languages' documents.")
@click.option("--against", default="en", show_default=True, help="The reference language.")
@json_option
def command(langs: tuple[str, ...], against: str, as_json: bool) -> None:
    """Report numbering and translation problems, most severe first, with the count of each
    kind on the first line: English rules a translation lacks and numbers English lacks,
    duplicated or out-of-order numbers, cited rules that disagree with English, list items
    with no counterpart in the English list (paired by the term base, the same word or
    symbol, then position), English names, translator notes. Exits 1 when it reports
    problems, 0 when the library is clean."""
    if against != "en":
        raise click.BadParameter(
            "only the English rules are a reference (en)", param_hint="--against"
        )
    records = library_records()
    with problems_as_errors(), open_engine(searching=False) as engine:  # the build's term base
        payload = payloads.check(records, langs, engine.termbase)
    problems = payload["problems"]
    if as_json:  # problems found: exit 1, said as every command's --json says it
        echo_json({**payload, "exit_code": 1} if problems else payload)
    else:
        # The counts per kind first, most severe first; then the findings in that order.
        counts = ", ".join(f"{n} {kind}" for kind, n in payload["counts"].items())
        total = f"{len(problems)} problem{'' if len(problems) == 1 else 's'}"
        echo(f"{total}: {counts}" if counts else total)
        for problem in problems:
            # A finding about a whole document (its untranslated entries) has no number.
            where = f" {problem['number']}" if problem["number"] else ""
            echo(
                f"{problem['severity']:7} {problem['source']}{where}: "
                f"{problem['kind']}: {problem['message']}"
            )
    if problems:
        sys.exit(1)  # as linters do: problems found
