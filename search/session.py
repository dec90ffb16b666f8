"""Open the engine for a command: build or refresh the index first when the sources changed."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from search.engine import Engine

if TYPE_CHECKING:
    from corpus.records import Record


@contextmanager
def open_engine() -> Iterator[Engine]:
    from corpus.library import home
    from indexer.freshness import is_fresh
    from indexer.store import IndexError_, index_root, read_current

    state_home = home()
    try:
        if not is_fresh(state_home):
            from indexer.build import build

            with progress_bar("Indexing the rules") as progress:
                result = build(state_home, progress=progress)
            for failure in result.failures:
                click.echo(f"warning: {failure}", err=True)
        current = read_current(state_home)
        if current is None:
            raise IndexError_("no index; run `mtgrules index --rebuild`")
        engine = Engine(
            index_root(state_home) / current["dir"], current.get("english_editions", [])
        )
    except IndexError_ as error:
        raise click.ClickException(str(error)) from None
    except Exception as error:  # a damaged index must not end in a traceback
        raise click.ClickException(
            f"the index in {state_home} cannot be read ({type(error).__name__}: {error}); "
            "run `mtgrules index --rebuild`"
        ) from None
    try:
        yield engine
    finally:
        engine.close()


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal; silence otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def library_records(langs: tuple[str, ...] = ()) -> list[Record]:
    """The current hand-off records (building the index first if the sources changed)."""
    import json

    from corpus.library import home
    from corpus.records import Record
    from indexer.build import records_path

    with open_engine():
        pass
    wanted = set(langs)
    records = []
    with records_path(home()).open(encoding="utf-8") as lines:
        for line in lines:
            data = json.loads(line)
            if not wanted or data["lang"] in wanted:
                records.append(Record.from_dict(data))
    return records
