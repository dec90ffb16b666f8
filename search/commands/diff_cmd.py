"""`mtgrules diff --from DATE --to DATE [RULE]`: rule-by-rule changes between two editions."""

from __future__ import annotations

import click

from corpus.model.documents import DOCUMENTS
from search import payloads
from search.commands.options import (
    EDITION,
    json_option,
    lang_option,
    numbered,
    problems_as_errors,
    utf8_words,
)
from search.render import colour_diff
from search.safe_text import echo, echo_json
from search.session import library_records


@click.command("diff")
@click.option(
    "--from",
    "from_",
    type=EDITION,
    metavar="DATE",
    help="The older edition (default: the one before --to).",
)
@click.option(
    "--to",
    type=EDITION,
    metavar="DATE",
    help="The newer edition, or latest (default: the newest).",
)
@lang_option("The editions' language (default en); a comma list gives one diff per language.")
@click.option(
    "--ignore-typography",
    is_flag=True,
    help="Treat quotes, apostrophes, dashes and spaces of any form as one.",
)
@click.option(
    "--doc",
    type=click.Choice(tuple(DOCUMENTS), case_sensitive=False),
    default="cr",
    show_default=True,
    help="Which document's editions: cr, mtr, ipg or jar.",
)
@click.argument("words", nargs=-1, metavar="[RULE]", callback=utf8_words)
@json_option
def command(
    from_: str | None,
    to: str | None,
    langs: tuple[str, ...],
    ignore_typography: bool,
    words: tuple[str, ...],
    as_json: bool,
    doc: str,
) -> None:
    """List the rules added, removed, changed (with a word diff), moved, and moved and changed
    between two editions of one language. RULE (205, 205.4, 205.4d, or a title: Trample)
    narrows the list to that part. A renumbered rule is paired first, and its subrules with
    the subrules of its new number. A judge document's part needs no quotes (`diff --doc mtr
    … MTR 6`)."""
    rule = " ".join(words) or None
    doc = doc.lower()
    with problems_as_errors():
        if rule is not None:  # a title: the CR's rule, or --doc's section ("Tardiness")
            rule = numbered(rule, doc)
        payload = payloads.diff(
            library_records(langs or ("en",)), from_, to, langs, rule, ignore_typography, doc
        )
    if as_json:
        echo_json(payload)
        return
    for one in payload.get("diffs", [payload]):
        if one.get("edition_note"):  # a date between editions, read as the one in effect
            echo(f"note: {one['edition_note']}", err=True)
        if one.get("skipped"):  # a language of several that cannot be compared
            echo(f"{one['lang']}: {one['skipped']}")
            continue
        count = len(one["changes"])
        name = f"{one['document'].upper()} " if one.get("document") else ""
        backwards = " (backwards: from the newer edition to the older)"
        plural = "" if count == 1 else "s"
        echo(
            f"{name}{one['lang']} {one['from']} → {one['to']}: {count} change{plural}"
            + (backwards if one["backwards"] else "")
        )
        for change in one["changes"]:
            # A rule changed in place is named once ("changed 509.1i"); a moved one, both.
            ends = dict.fromkeys(n for n in (change["from"], change["to"]) if n)
            numbers = " → ".join(ends)
            note = " (cited rule numbers only)" if change["references_only"] else ""
            echo(f"{change['status']:14} {numbers}{note}")
            if change["diff"]:
                click.echo(f"    {colour_diff(change['diff'])}")
