"""`mtgrules remove DOCUMENT`: take an added document out of the library."""

from __future__ import annotations

import click

from corpus import paths
from corpus.library import NotInLibrary, remove_document
from corpus.paths import home
from search.commands.options import json_option
from search.safe_text import echo, echo_json, one_line


@click.command("remove")
@click.argument("documents", nargs=-1, required=True)
@json_option
def command(documents: tuple[str, ...], as_json: bool) -> None:
    """Remove added documents, each named by its file name or the start of its SHA-256 (both
    shown by `mtgrules sources`). The index follows at the next command."""
    report: list[dict[str, str]] = []
    for wanted in documents:
        try:
            path = remove_document(home(), wanted)
        except NotInLibrary as error:
            report.append({"document": wanted, "error": f"{error}; see `mtgrules sources`"})
        except OSError as error:  # a read-only home, a document gone meanwhile
            report.append(
                {
                    "document": wanted,
                    "error": f"{one_line(wanted)}: cannot remove it from "
                    f"{paths.documents(home())} ({error.strerror}); make that folder writable, "
                    "or set MTGRULES_HOME",
                }
            )
        else:
            report.append({"document": wanted, "removed": path.name})
            if not as_json:
                echo(f"{path.name}: removed; the index follows at the next command")
            continue
        echo(f"error: {report[-1]['error']}", err=True)  # with --json too
    failed = any("error" in line for line in report)
    if as_json:  # as add --json: one object, each document's outcome, the exit code
        echo_json({"documents": report, **({"exit_code": 1} if failed else {})})
    if failed:
        raise SystemExit(1)
