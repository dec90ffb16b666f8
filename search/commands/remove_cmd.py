"""`mtgrules remove DOCUMENT`: take an added document out of the library."""

from __future__ import annotations

import click

from corpus import paths
from corpus.library import NotInLibrary, remove_document
from corpus.paths import home
from search.safe_text import echo, one_line


@click.command("remove")
@click.argument("documents", nargs=-1, required=True)
def command(documents: tuple[str, ...]) -> None:
    """Remove added documents, each named by its file name or the start of its SHA-256 (both
    shown by `mtgrules sources`). The index follows at the next command."""
    failed = False
    for wanted in documents:
        try:
            path = remove_document(home(), wanted)
        except NotInLibrary as error:
            echo(f"error: {error}; see `mtgrules sources`", err=True)
            failed = True
            continue
        except OSError as error:  # a read-only home, a document gone meanwhile
            echo(
                f"error: {one_line(wanted)}: cannot remove it from {paths.documents(home())} "
                f"({error.strerror}); make that folder writable, or set MTGRULES_HOME",
                err=True,
            )
            failed = True
            continue
        echo(f"{path.name}: removed; the index follows at the next command")
    if failed:
        raise SystemExit(1)
