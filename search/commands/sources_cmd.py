"""`mtgrules sources`: every document, its language, edition, layout, counts and dropped lines."""

from __future__ import annotations

from collections import Counter

import click

from corpus.model.documents import DOCUMENTS
from corpus.paths import home
from search import payloads
from search.commands.options import json_option
from search.safe_text import counted, echo, echo_json


@click.command("sources")
@json_option
@click.option(
    "--dropped/--no-dropped",
    default=None,
    help="List every dropped line, or none (default: each line for documents with at most 20 "
    "dropped lines; the counts by reason always).",
)
def command(as_json: bool, dropped: bool | None) -> None:
    """List the documents in the library and what was made of them."""
    payload = payloads.sources(home())
    summaries = payload["documents"]
    if as_json:
        echo_json(payload)
        return
    for summary in summaries:
        counts = ", ".join(f"{n:,} {kind}" for kind, n in sorted(summary["counts"].items()))
        edition = summary["edition"] or "unknown"
        echo(
            f"{summary['source']}  lang={summary['lang']}  edition={edition}"
            f"  format={summary['format']}"
        )
        if summary.get("document", "cr") != "cr":
            echo(f"  document: {summary['document']} ({DOCUMENTS[summary['document']]})")
        echo(f"  records: {summary['records']:,} ({counts})")
        echo(f"  layout: {summary['format_reason']}")
        reasons = Counter(line["reason"] for line in summary["dropped"])
        by_reason = ", ".join(f"{n:,} {reason}" for reason, n in reasons.most_common())
        lines = f"  dropped: {counted(len(summary['dropped']), 'line')}"
        echo(lines + (f" ({by_reason})" if reasons else ""))
        if summary["lag"]:
            behind = summary["lag"]
            echo(
                f"  {summary['follows']['evidence']}; newest English "
                f"{behind['newest_english']} ({behind['days']:,} days later)"
            )
        if dropped or (dropped is None and len(summary["dropped"]) <= 20):
            for line in summary["dropped"]:
                echo(f"    line {line['line']}: {line['reason']}: {line['text'][:70]}")
        for warning in summary["warnings"]:
            echo(f"  warning: {warning}")
        metadata = summary["metadata"]
        echo(f"  sha256: {summary['sha256']}" if summary["sha256"] else "  sha256: (embedded)")
        echo(f"  encoding: {summary['encoding']}")
        for fact in ("catalogue", "revised"):  # a PO catalogue's entries and revision date
            if fact in metadata:
                echo(f"  {fact}: {metadata[fact]}")
    for failure in payload["failures"]:
        echo(f"error: {failure}", err=True)
