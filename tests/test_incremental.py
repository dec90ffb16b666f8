"""Adding an English edition to a built library gives the very index a full build gives."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import IT, copy_home, seed

from corpus import paths
from corpus.paths import SIDESTORE, TERMBASE, VOCABULARY
from indexer.build import BuildResult, build
from indexer.store import read_current
from search.cli import cli

pytestmark = pytest.mark.usefixtures("shared_data")

QUERIES = ("regola delle leggende", "tipos de tierra", "sur-type légendaire", "mana value")


def edition(shared_data: Path, date: str) -> Path:
    return shared_data / "cr" / "en" / f"MagicCompRules-{date}.txt"


def side_store(folder: Path) -> tuple[list[Any], list[Any]]:
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        versions = db.execute("SELECT * FROM versions ORDER BY vid").fetchall()
        citations = db.execute("SELECT * FROM citations ORDER BY cited, key").fetchall()
    return versions, citations


def snapshot(home: Path) -> dict[str, Any]:
    """Everything a build leaves that a reader sees: the hand-off file, the side store, the
    vocabulary, the term base, and what searches and lookups answer."""
    folder = paths.index_root(home) / read_current(home)["dir"]
    runner = CliRunner()
    answers = [
        runner.invoke(cli, catch_exceptions=False, args=["search", q, "--json"]).stdout
        for q in QUERIES
    ]
    answers += [
        runner.invoke(cli, catch_exceptions=False, args=["show", n, "--json"]).stdout
        for n in ("205.4d", "704.5", "725.1", "733")
    ]
    answers.append(
        runner.invoke(
            cli, catch_exceptions=False, args=["search", "tipo", "--edition", "2024-11-08"]
        ).stdout
    )
    return {
        "records": (home / "records.jsonl").read_bytes(),
        "versions": side_store(folder),
        "vocabulary": (folder / VOCABULARY).read_text("utf-8"),
        "termbase": (folder / TERMBASE).read_text("utf-8"),
        "answers": answers,
        "counts": (read_current(home)["records"], read_current(home)["versions"]),
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, list[Path]], None]:
    """Put a built library of the files `before` in a home: each set of files is built once for
    the module, and each test gets a copy of its own to add to."""
    libraries: dict[tuple[str, ...], Path] = {}

    def into(home: Path, before: list[Path]) -> None:
        names = tuple(path.name for path in before)
        if names not in libraries:
            library = tmp_path_factory.mktemp("before")
            (library / "documents").mkdir()
            for path in before:
                shutil.copy(path, library / "documents" / path.name)
            assert build(library).built
            libraries[names] = library
        copy_home(libraries[names], home)

    return into


def add(home: Path, added: Path | bytes) -> BuildResult:
    """Add one file to a built library (a path, or the bytes of copia.txt) and return what the
    refresh did."""
    if isinstance(added, Path):
        shutil.copy(added, paths.documents(home) / added.name)
    else:
        (paths.documents(home) / "copia.txt").write_bytes(added)
    result = build(home)
    assert result.built
    return result


def added_then_rebuilt(home: Path, added: Path) -> dict[str, Any]:
    """Add an edition in place to a built library, check that a full build gives the very same,
    and return what the incremental build left."""
    result = add(home, added)
    assert result.added_editions, "the new edition should have been added, not rebuilt"
    incremental = snapshot(home)
    full = build(home, force=True)
    assert full.built and not full.added_editions
    assert snapshot(home) == incremental
    return incremental


def test_adding_the_newest_edition_equals_a_full_build(home: Path, shared_data: Path, built):
    """The newest edition: undated translations now follow it and are re-aligned."""
    built(home, [edition(shared_data, d) for d in ("20241108", "20250207")])
    incremental = added_then_rebuilt(home, edition(shared_data, "20260807"))
    # "regola delle leggende": the legend rule itself, then the Italian 205.4d that names it
    # (the library's Italian is section 205 only, so its words weigh less than English's).
    keys = [r["key"] for r in json.loads(incremental["answers"][0])["results"]]
    assert keys[0] == "704.5j" and "205.4d" in keys[:3]


def test_adding_an_older_edition_is_a_full_build(home: Path, shared_data: Path, built):
    """An edition older than those it shares rules with would change the records the index
    shows for them (a full build shows the first document's): it is rebuilt."""
    built(home, [edition(shared_data, d) for d in ("20241108", "20260807")])
    assert not add(home, edition(shared_data, "20150123")).added_editions


def test_an_edition_that_changes_the_term_base_is_a_full_build(
    home: Path, shared_data: Path, built
):
    """2024-11-08 becomes the edition the Italian CR of 2024-11-23 follows: its lists pair
    with other English lists, the term base changes, and so do the terms of every record."""
    built(home, [edition(shared_data, d) for d in ("20240920", "20250207")])
    assert not add(home, edition(shared_data, "20241108")).added_editions


def test_a_new_translation_is_a_full_build(home: Path, shared_data: Path, built):
    """Only English editions are added in place; any other change rebuilds."""
    built(home, [edition(shared_data, "20250207")])
    copy = seed(IT).replace(b"205.4d", b"205.4e")
    assert not add(home, copy).added_editions


def test_a_changed_hand_off_file_is_a_full_build(home: Path, shared_data: Path, built):
    """records.jsonl is copied forward by an incremental build: if it is not the one the live
    build wrote (edited, or left by a build that died), the library is rebuilt instead."""
    built(home, [edition(shared_data, "20250207")])
    with (home / "records.jsonl").open("a", encoding="utf-8") as out:
        out.write("\n")
    shutil.copy(edition(shared_data, "20260807"), home / "documents")
    result = build(home)
    assert result.built and not result.added_editions
    assert not (home / "records.jsonl").read_text("utf-8").endswith("\n\n")


def test_a_translation_that_follows_by_numbering_keeps_its_edition(
    home: Path, shared_data: Path, built
):
    """The Spanish CR follows 2025-11-14 by its numbering: adding 2026-08-07 leaves it there,
    in place, with the result a full build gives."""
    spanish = shared_data / "cr" / "es" / "magic_rules_clean.pdf"
    if not spanish.exists():
        pytest.skip(f"{spanish} is absent")
    built(home, [edition(shared_data, "20251114"), spanish])
    added_then_rebuilt(home, edition(shared_data, "20260807"))
    lines = (home / "records.jsonl").read_text("utf-8").splitlines()
    assert {json.loads(line)["follows"] for line in lines if "magic_rules_clean" in line} == {
        "2025-11-14"
    }


def test_adding_an_edition_that_renumbers_rekeys_what_moved(home: Path, shared_data: Path, built):
    """2026-08-07 inserted section 722: added in place, it re-keys 2025-11-14's 725.1 (the
    initiative) and the Spanish 725.1 as 726.1, as a full build keys them; 729.2j, moved and
    grown by a sentence, is 730.2j; and the rule it removed keeps a gone key of its own."""
    spanish = shared_data / "cr" / "es" / "magic_rules_clean.pdf"
    if not spanish.exists():
        pytest.skip(f"{spanish} is absent")

    def keys() -> dict[tuple[str, str | None, str], str]:
        lines = (home / "records.jsonl").read_text("utf-8").splitlines()
        records = [json.loads(line) for line in lines]
        return {
            (r["lang"], r["edition"], r["number"]): r["key"]
            for r in records
            if r["kind"] == "rule" and r["number"] in ("725.1", "729.2j", "714.3a")
        }

    built(home, [edition(shared_data, "20251114"), spanish])
    assert keys()[("en", "2025-11-14", "725.1")] == "725.1"
    shutil.copy(edition(shared_data, "20260807"), home / "documents")
    assert build(home).added_editions
    incremental = snapshot(home)
    assert keys()[("en", "2025-11-14", "725.1")] == "726.1"
    assert keys()[("es", None, "725.1")] == "726.1"
    assert keys()[("en", "2026-08-07", "725.1")] == "725.1"
    assert keys()[("en", "2025-11-14", "729.2j")] == "730.2j"
    assert keys()[("en", "2025-11-14", "714.3a")] == "gone:714.3a@2025-11-14"
    assert build(home, force=True).built
    assert snapshot(home) == incremental
