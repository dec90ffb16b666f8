"""Open the engine for a command: build or refresh the index first when the sources changed."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from corpus import paths
from corpus.model.records import read_all
from corpus.paths import home
from indexer.freshness import is_fresh
from indexer.integrity import live_damage, records_mismatch
from indexer.store import IndexError_, live_build
from search.engine import Engine

if TYPE_CHECKING:
    from corpus.model.records import Record
    from indexer.build import BuildResult


@contextmanager
def open_engine(searching: bool = True) -> Iterator[Engine]:
    """The engine over a current index. Stale sources are indexed first; if that build fails
    (read-only home, full disk) the previous index still answers, with a warning; a damaged
    index is rebuilt once before giving up with what to do. `searching=False`: only lookups by
    rule number, which do not open Whoosh."""
    state_home = home()
    ensure_fresh(state_home)
    try:
        engine = _open_live(state_home, searching)
    except Exception as first:  # a damaged index must not end in a traceback: rebuild it once
        if not _damaged(state_home):
            raise  # the index is as it was written: this is a bug to see, not to rebuild over
        click.echo(
            f"warning: the index could not be read ({type(first).__name__}); rebuilding it",
            err=True,
        )
        try:
            build_with_progress(state_home, force=True)
            engine = _open(state_home, searching)
        except Exception as error:
            raise click.ClickException(
                f"the index in {state_home} cannot be read or rebuilt ({type(error).__name__}: "
                f"{error}); check MTGRULES_HOME, then run `mtgrules index --rebuild`"
            ) from None
    failed: Exception | None = None
    try:
        yield engine
    except (click.ClickException, SystemExit, KeyboardInterrupt):
        raise
    except Exception as error:  # a read failed: damage is rebuilt, never served
        failed = error
        raise
    finally:
        engine.close()
        if failed is not None:
            _rebuild_if_damaged(state_home, failed)


def _damaged(state_home: Path) -> bool:
    """Whether the live build is missing, or not what the build wrote."""
    current = live_build(state_home)
    return current is None or bool(live_damage(state_home, current, full=True))


def _open_live(state_home: Path, searching: bool) -> Engine:
    """The live build's engine. A build that finished meanwhile swapped in its folder and
    removed ours: then the new one is opened (the race is no damage)."""
    live = live_build(state_home)
    opened = live.dir if live else None
    try:
        return _open(state_home, searching)
    except Exception:
        now = live_build(state_home)
        if (now.dir if now else None) == opened:
            raise
        return _open(state_home, searching)


def _rebuild_if_damaged(state_home: Path, error: Exception) -> None:
    """After a failed read: if the live build is not what was written, rebuild it and say so
    (ClickException); else return, and the error is the caller's."""
    current = live_build(state_home)
    damaged = live_damage(state_home, current, full=True) if current else []
    if not damaged:
        return
    click.echo(
        f"mtgrules: the index is damaged ({', '.join(damaged)}: {type(error).__name__}); "
        "rebuilding it",
        err=True,
    )
    build_with_progress(state_home, force=True)
    raise click.ClickException("the damaged index was rebuilt; run the command again")


def _what_changed(state_home: Path) -> str:
    """Why an index is built before answering: first use, this program changed (its code or
    data: a new version, or another checkout's), or the documents did."""
    from indexer.freshness import code_stamp
    from indexer.store import read_current

    current = read_current(state_home)  # None: no build, or its folder is gone
    if current is None:
        return "indexing the library before answering (first use)"
    if current.get("code") != code_stamp():
        return "this program changed since the library was indexed; re-indexing before answering"
    return "the library changed; re-indexing before answering"


def ensure_fresh(state_home: Path) -> None:
    """Index the sources if they changed. A failed refresh leaves the previous index answering
    with a warning; with no index at all it is an error that says what to do."""
    try:
        current = live_build(state_home)
        damaged = live_damage(state_home, current) if current else []
        if damaged:
            click.echo(
                f"mtgrules: the index is damaged ({', '.join(damaged)} changed since it was "
                "built); rebuilding it",
                err=True,
            )
            build_with_progress(state_home, force=True)
        elif not is_fresh(state_home):
            click.echo(f"mtgrules: {_what_changed(state_home)}", err=True)
            build_with_progress(state_home, force=False)
    except IndexError_ as error:
        if live_build(state_home) is None:
            raise click.ClickException(str(error)) from None
        click.echo(
            f"warning: index not refreshed ({error}); answering from the previous one", err=True
        )


def build_with_progress(state_home: Path, force: bool, verified: str | None = None) -> BuildResult:
    """Build (or refresh) with a progress bar on a terminal; each unreadable source warned
    about. IndexError_ when it cannot be written. `verified`: the live build folder just
    checked whole."""
    import gc

    from search.light_imports import light_imports

    with light_imports():  # Whoosh without the modules it never uses, as a search opens it
        from indexer.build import build

    gc.enable()  # a build makes garbage (search.cli.ONE_SHOT runs without the collector)

    with progress_bar("Indexing the rules") as progress:
        result = build(state_home, force=force, progress=progress, verified=verified)
    for failure in result.failures:
        click.echo(f"warning: {failure}", err=True)
    return result


def _open(state_home: Path, searching: bool) -> Engine:
    current = live_build(state_home)
    if current is None:
        raise IndexError_("no index; run `mtgrules index --rebuild`")
    engine = Engine.of_build(state_home, current)
    # Touch the files now, not in the middle of a query.
    engine.versions.db.execute("SELECT count(*) FROM versions").fetchone()
    if searching:
        engine.searcher.doc_count()
    return engine


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


def hand_off() -> bytes:
    """The hand-off file (records.jsonl), current (indexing first if the sources changed) and
    whole: a missing, cut or changed file is written again by a rebuild. Read once: the check
    and the caller share the bytes."""
    ensure_fresh(home())
    path = paths.records_file(home())
    try:
        data: bytes | None = path.read_bytes()
    except OSError:
        data = None
    live = live_build(home())
    recorded = list(live.records_checksum) if live and live.records_checksum else None
    why = records_mismatch(data, recorded)
    if data is None or why is not None:
        click.echo(f"mtgrules: {why or 'records.jsonl is missing'}; rebuilding the index", err=True)
        build_with_progress(home(), force=True)
        data = path.read_bytes()
    return data


def library_records(langs: tuple[str, ...] = ()) -> list[Record]:
    """The current hand-off records."""
    return read_all(hand_off().splitlines(), langs)
