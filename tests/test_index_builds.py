"""Index builds are atomic, refresh on change, and two builds at once corrupt nothing."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer import build as build_module
from indexer.build import build
from indexer.freshness import is_fresh
from indexer.store import read_current
from search.cli import cli


def search_keys(query: str) -> list[str]:
    out = CliRunner().invoke(cli, ["search", query, "--json"]).stdout
    return [r["key"] for r in json.loads(out)["results"]]


def test_killed_build_leaves_previous_index_answering(home: Path, monkeypatch: pytest.MonkeyPatch):
    """A build that dies half way leaves the previous index current and answering."""
    first = build(home)
    assert first.built and read_current(home)["dir"] == first.folder.name

    def dying(records, folder, progress=None):
        folder.mkdir(parents=True)
        (folder / "half-written").write_text("x")
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "write_index", dying)
    with pytest.raises(KeyboardInterrupt):
        build(home, force=True)
    assert read_current(home)["dir"] == first.folder.name
    monkeypatch.undo()
    assert search_keys("regola delle leggende")[0] == "205.4d"


def test_new_document_refreshes_the_index(home: Path, tmp_path: Path):
    """Adding a document makes the index stale; the next search rebuilds and finds it."""
    build(home)
    assert is_fresh(home)
    page = tmp_path / "regola.txt"
    page.write_text(
        "Regola 205.2 · Tipi di carta\n\nI tipi di carta sono artefatto, creatura e ornitottero.\n"
    )
    assert CliRunner().invoke(cli, ["add", str(page)]).exit_code == 0
    assert not is_fresh(home)
    assert search_keys("ornitottero") == ["205.2"]
    assert is_fresh(home)


def _build(home: str) -> None:
    import os

    os.environ["MTGRULES_HOME"] = home
    build(Path(home), force=True)


def test_two_builds_at_once(home: Path):
    """Two concurrent builds both finish; the index they leave is whole."""
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_build, args=(str(home),)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert [w.exitcode for w in workers] == [0, 0]
    builds = [p for p in (home / "index").iterdir() if p.is_dir()]
    assert len(builds) == 1 and read_current(home)["dir"] == builds[0].name
    assert search_keys("regola delle leggende")[0] == "205.4d"


def test_damaged_index_says_what_to_do(home: Path):
    """A corrupted index file gives a one-line message with the fix, not a traceback."""
    folder = build(home).folder
    for path in folder.glob("*.toc"):
        path.write_bytes(b"garbage")
    result = CliRunner().invoke(cli, ["search", "mondo"])
    assert result.exit_code == 1
    assert "mtgrules index --rebuild" in result.stderr and "Traceback" not in result.stderr
