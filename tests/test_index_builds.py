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
    out = CliRunner().invoke(cli, catch_exceptions=False, args=["search", query, "--json"]).stdout
    return [r["key"] for r in json.loads(out)["results"]]


def test_killed_build_leaves_previous_index_answering(home: Path, monkeypatch: pytest.MonkeyPatch):
    """A build that dies half way leaves the previous index current and answering."""
    first = build(home)
    assert first.built and read_current(home)["dir"] == first.folder.name

    def dying(unique, folder, progress=None, alongside=None, rules=None, early=None):
        folder.mkdir(parents=True, exist_ok=True)
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
    assert CliRunner().invoke(cli, catch_exceptions=False, args=["add", str(page)]).exit_code == 0
    assert not is_fresh(home)
    assert search_keys("ornitottero") == ["205.2"]
    assert is_fresh(home)


def test_a_rebuild_says_whether_the_program_or_the_documents_changed(
    home: Path, monkeypatch: pytest.MonkeyPatch
):
    """Another program's index (a new version, or a .venv copied from another checkout) is
    rebuilt saying the program changed; an added document, that the library did."""
    from indexer import freshness

    build(home)
    with monkeypatch.context() as patch:
        patch.setattr(freshness, "code_stamp", lambda: "another program")
        result = CliRunner().invoke(cli, ["show", "205.4d"])
    assert result.stderr.startswith(
        "mtgrules: this program changed since the library was indexed; re-indexing"
    )
    build(home)
    page = home / "documents" / "regola.txt"  # put there by hand: no `add` to index it
    page.parent.mkdir(exist_ok=True)
    page.write_text("Regola 205.2 · Tipi di carta\n\nI tipi di carta sono artefatto e creatura.\n")
    result = CliRunner().invoke(cli, ["show", "205.4d"])
    assert result.stderr.startswith("mtgrules: the library changed; re-indexing")


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


def test_damaged_index_is_repaired_by_the_next_command(home: Path):
    """A corrupted index file: the next search warns, rebuilds and answers."""
    folder = build(home).folder
    for path in folder.glob("*.toc"):
        path.write_bytes(b"garbage")
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "regola delle leggende", "--json"]
    )
    assert result.exit_code == 0 and "rebuilding it" in result.stderr
    assert json.loads(result.stdout)["results"][0]["key"] == "205.4d"


def test_deleted_index_files_are_rebuilt(home: Path):
    """Segment files deleted under the index: the next command rebuilds it."""
    folder = build(home).folder
    for path in folder.glob("*.seg"):
        path.unlink()
    assert search_keys("regola delle leggende")[0] == "205.4d"


def test_failed_refresh_keeps_the_previous_index(home: Path, monkeypatch: pytest.MonkeyPatch):
    """A full disk during a refresh: a warning, the previous index answers, no half build."""
    import errno

    first = build(home)
    (home / "documents").mkdir()
    (home / "documents" / "regola.txt").write_text(
        "Regola 205.2 · Tipi di carta\n\nI tipi di carta sono artefatto, creatura e ornitottero.\n"
    )

    def full_disk(unique, folder, progress=None, alongside=None, rules=None, early=None):
        folder.mkdir(parents=True, exist_ok=True)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(build_module, "write_index", full_disk)
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "regola delle leggende", "--json"]
    )
    assert result.exit_code == 0
    assert "index not refreshed (cannot write the index" in result.stderr
    assert "No space left on device" in result.stderr
    assert json.loads(result.stdout)["results"][0]["key"] == "205.4d"
    assert [p.name for p in (home / "index").iterdir() if p.is_dir()] == [first.folder.name]


def test_unwritable_home_with_no_index_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """MTGRULES_HOME that cannot be written (here a file): one line naming the fix, exit 1."""
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("x")
    monkeypatch.setenv("MTGRULES_HOME", str(blocker))
    result = CliRunner().invoke(cli, catch_exceptions=False, args=["search", "mondo"])
    assert result.exit_code == 1
    assert "set MTGRULES_HOME to a writable directory" in result.stderr
    assert "Traceback" not in result.stderr


def test_read_only_home_keeps_answering(home: Path, monkeypatch: pytest.MonkeyPatch):
    """A home that became read-only after the index was built: searches still answer."""
    import errno

    from indexer import store

    build(home)
    (home / "documents").mkdir()
    (home / "documents" / "regola.txt").write_text(
        "Regola 205.2 · Tipi di carta\n\nI tipi di carta sono artefatto, creatura e ornitottero.\n"
    )

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(store, "open", read_only, raising=False)
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "regola delle leggende", "--json"]
    )
    assert result.exit_code == 0
    assert "Read-only file system" in result.stderr and "previous one" in result.stderr
    assert json.loads(result.stdout)["results"][0]["key"] == "205.4d"


def test_a_full_build_removes_parses_cached_by_other_code(home: Path):
    """Parses cached by another version of the code are removed; the current ones stay."""
    from corpus.library import code_version

    build(home)
    cache = home / "cache"
    stale = cache / f"{'0' * 32}-0123456789abcdef.pickle"
    stale.write_bytes(b"old")
    build(home, force=True)
    assert not stale.exists()
    parses = [p.name.split("-")[1] for p in cache.iterdir() if p.is_file()]
    assert sorted(parses) == [f"{code_version()}.pickle"] * 4
    # Beside them, in a folder of their own, the term pairs learned from the library.
    assert [p.name[:14] for p in (cache / "terms").iterdir()] == ["learned-terms-"]


def test_the_outdated_mask_is_every_english_version_the_newest_edition_lacks(
    spanish_library: Path, home: Path
):
    """The stored mask (read off the index without mapping it) holds the document number of
    every English version that the newest loaded edition does not carry, and of no other."""
    import sqlite3
    from contextlib import closing

    from conftest import copy_home
    from whoosh import index

    from corpus import paths
    from indexer.masks import read_outdated
    from indexer.state import BuildState
    from indexer.store import live_build

    copy_home(spanish_library, home)
    current = live_build(home)
    assert current is not None
    folder = paths.index_root(home) / current.dir
    with closing(sqlite3.connect(folder / paths.SIDESTORE)) as db:
        rows = db.execute("SELECT vid, lang, editions FROM versions").fetchall()
    lacking = {v for v, lang, eds in rows if lang == "en" and "2026-08-07" not in eds.split("\n")}
    reader = index.open_dir(str(folder)).reader()  # mapped, as a search opens it
    try:
        expected = {d for d, vid in enumerate(reader.column_reader("vid")) if vid in lacking}
    finally:
        reader.close()
    assert lacking and read_outdated(folder) == expected
    # The state the build streamed to its file reads back whole.
    state = BuildState.load(folder)
    assert state is not None and state.english.keys() == {"2025-11-14", "2026-08-07"}


def test_an_override_on_an_english_rule_is_indexed_under_its_forced_key(
    spanish_library: Path, home: Path
):
    """A full build hands the English rules to Whoosh before the alignment runs; a user's
    override that keys an English rule anew makes it index them again, so that the rule is
    found under the forced key and nothing is indexed twice or under its old number."""
    from conftest import copy_home
    from whoosh import index

    from corpus import paths

    copy_home(spanish_library, home)
    (home / "alignment-overrides.tsv").write_text(
        "MagicCompRules-20260807.txt\t205.4d\t205.4z\ta test of the index's second start\n",
        encoding="utf-8",
    )
    result = build(home, force=True)
    assert result.built
    shown = CliRunner().invoke(cli, catch_exceptions=False, args=["show", "205.4z", "--json"])
    records = json.loads(shown.stdout)["results"][0]["records"]
    texts = [(r["lang"], r["edition"], r["text"][:40]) for r in records]
    assert ("en", "2026-08-07", "Any permanent with the supertype “legend") in texts
    phrase = '"subject to the state-based action for legendary permanents"'
    assert "205.4z" in search_keys(phrase)
    with index.open_dir(str(result.folder)).searcher() as searcher:
        assert searcher.doc_count() == result.versions == read_current(home)["versions"]
    # Only the build's own folder is left: the first start's files went with it.
    assert [p.name for p in paths.index_root(home).iterdir() if p.is_dir()] == [result.folder.name]
