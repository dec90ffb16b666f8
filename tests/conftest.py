from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from search.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus" / "sources"

# No vectors unless a test asks (tests/test_meaning.py): embedding every test's library would
# cost the suite minutes of CPU. Set before any fixture, session-scoped ones included, builds.
os.environ.setdefault("MTGRULES_MEANING", "off")
# No meaning daemon unless a test asks (tests/test_meaning_daemon.py, which stops it): one
# started by a test's search would outlive the test.
os.environ.setdefault("MTGRULES_MEANING_DAEMON", "off")
# No lemmas unless a test asks (tests/test_lexical_words.py): each test's home would decode
# simplemma's dictionaries (seconds of CPU) in a detached process.
os.environ.setdefault("MTGRULES_LEMMAS", "off")
SHARED = ROOT.parent / "shared"
IT, FR, ARTICLE, ES = (
    "000_3f40d4614bb0d7a7.txt",
    "001_1dd839522fb4465e.txt",
    "002_35a44381c797d734.txt",
    "003_70161cce7a97982c.txt",
)
SEED_OF_LANG = {"it": IT, "fr": FR, "es": ES}  # each language's rules seed


def seed(name: str) -> bytes:
    return (SEEDS / name).read_bytes()


@contextmanager
def local_server(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """An HTTP server on a free loopback port, answering with `handler`: its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty MTGRULES_HOME."""
    state = tmp_path / "home"
    monkeypatch.setenv("MTGRULES_HOME", str(state))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return state


@pytest.fixture(scope="session")
def shared_data() -> Path:
    data = SHARED / "data"
    if not (data / "cr" / "en").is_dir():
        pytest.skip("../shared/data is absent: the third-party English CR editions are not here")
    return data


@pytest.fixture(scope="session")
def library_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Iterator[Path]:
    """A library with the seeds and every English edition, indexed once for the session."""
    from click.testing import CliRunner

    from search.cli import cli

    home = tmp_path_factory.mktemp("full")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        files = sorted(str(p) for p in (shared_data / "cr" / "en").glob("*.txt"))
        result = CliRunner().invoke(cli, catch_exceptions=False, args=["add", *files])
        assert result.exit_code == 0, result.output
        assert CliRunner().invoke(cli, catch_exceptions=False, args=["index"]).exit_code == 0
    yield home


@pytest.fixture
def full(library_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """MTGRULES_HOME set to the full library."""
    monkeypatch.setenv("MTGRULES_HOME", str(library_home))
    return library_home


def copy_home(built: Path, home: Path) -> Path:
    """A library built once, copied to be a home of its own: still fresh (an index's fingerprint
    is of its documents' contents), and what a test writes there leaves the original as it was."""
    shutil.copytree(built, home, symlinks=True, dirs_exist_ok=True)
    return home


def _library_with_spanish(
    tmp_path_factory: pytest.TempPathFactory, shared_data: Path, name: str, dates: list[str]
) -> Path:
    """The seeds, these English editions and the Spanish CR PDF, added and indexed in a new
    home (the PDF absent: the test skips)."""
    from click.testing import CliRunner

    from search.cli import cli

    pdf = shared_data / "cr" / "es" / "magic_rules_clean.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} is absent")
    home = tmp_path_factory.mktemp(name)
    files = [shared_data / "cr" / "en" / f"MagicCompRules-{d}.txt" for d in dates]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        runner = CliRunner()
        added = runner.invoke(cli, catch_exceptions=False, args=["add", *map(str, files), str(pdf)])
        assert added.exit_code == 0, added.output
        assert runner.invoke(cli, catch_exceptions=False, args=["index"]).exit_code == 0
    return home


@pytest.fixture(scope="session")
def spanish_library(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """The seeds, English 2025-11-14 and 2026-08-07 and the Spanish CR PDF, added and indexed
    once for the session: modules that use it take a copy (`copy_home`)."""
    return _library_with_spanish(
        tmp_path_factory, shared_data, "spanish-library", ["20251114", "20260807"]
    )


@pytest.fixture(scope="session")
def renumbering_library(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """The seeds, English 2024-11-08, 2025-11-14 and 2026-08-07 (which renumbered sections 722
    onwards) and the Spanish CR PDF (which follows 2025-11-14), added and indexed once for the
    session: modules that use it take a copy (`copy_home`)."""
    return _library_with_spanish(
        tmp_path_factory, shared_data, "renumbering-library", ["20241108", "20251114", "20260807"]
    )


@pytest.fixture(scope="session")
def seeds_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """An engine over the embedded seeds alone, built once for the session."""
    from indexer.build import build
    from indexer.store import live_build
    from search.engine import Engine

    home = tmp_path_factory.mktemp("seeds")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        build(home)
        current = live_build(home)
        assert current is not None
        opened = Engine.of_build(home, current)
        yield opened
        opened.close()
