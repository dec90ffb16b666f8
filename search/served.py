"""A whole search answered by the home's meaning daemon (search/meaning_daemon.py), which holds
the live build's engine warm: Whoosh's searcher, the term base, the lemma tables, the encoder
and the vectors. A `mtgrules search` process then imports neither Whoosh nor numpy and opens
no index: it checks that the library is fresh, sends the query, and renders what comes back.

- The same answer: the daemon runs `payloads.search` on the same build's files (the folder and
  its vectors' stamp the client saw) with the same filters, limit and fields, and sends the
  payload, the results and the matched words pickled (the socket is the user's alone, like the
  home it lives in). The engine answers a query it saw before from memory, as serve does.
- Only where the dense stage would run in process too: the live build's vectors are ready.
  Words-only searches, lookups by number and a daemon that is missing, busy past
  ANSWER_SECONDS, of another build of the code, or failing on the query are answered in
  process, which then says whatever there is to say (errors, exit codes, did-you-mean)."""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from search import meaning_daemon

if TYPE_CHECKING:
    from search.engine import Engine
    from search.meaning import Meaning
    from search.results import Filters, Result

Answer = tuple[dict[str, Any], list["Result"], set[str]]  # payloads.search's


def search(
    engine: Engine, text: str, filters: Filters, limit: int, show: Sequence[str]
) -> Answer | None:
    """The daemon's answer to `payloads.search(engine, text, filters, limit, show)`, or None
    (then the caller answers in process)."""
    from indexer.vectors import stamp

    home = engine.home
    if home is None or not meaning_daemon.enabled():
        return None
    vectors = stamp(engine.folder)
    if vectors is None:
        return None  # words only: nothing the daemon would save
    request = {
        "protocol": meaning_daemon.PROTOCOL,
        "build": meaning_daemon.fingerprint(),
        "search": text,
        "folder": str(engine.folder),
        "editions": list(engine.english_editions),
        "stamp": vectors,
        "filters": asdict(filters),
        "limit": limit,
        "show": list(show),
    }
    data = meaning_daemon.ask_bytes(home, request)
    if not data or data[:1] != pickle.PROTO:
        return None  # none, refused (JSON), or failed on this query: in process
    with contextlib.suppress(Exception):  # a half or foreign answer: in process
        answer: Answer = pickle.loads(data)
        return answer
    return None


class Engines:
    """The engines the daemon holds, by build folder and vectors' stamp; each one's vectors
    and encoder are the daemon's own (`meanings`: the Meaning it holds for a folder and stamp),
    so that one copy is loaded and reloaded."""

    def __init__(self, home: Path, meanings: Callable[[str, str], Meaning | None]) -> None:
        self.home = home
        self.meanings = meanings
        self.held: dict[tuple[str, str], Engine] = {}

    def get(self, folder: str, editions: Sequence[str], vectors: str) -> Engine | None:
        from search.engine import Engine

        engine = self.held.get((folder, vectors))
        if engine is not None:
            return engine
        meaning = self.meanings(folder, vectors)  # None: the folder has other vectors now
        if meaning is None:
            return None
        engine = Engine(Path(folder), editions, self.home)
        engine.__dict__["meaning"] = meaning  # Engine.meaning, a cached_property
        self.held[folder, vectors] = engine
        while len(self.held) > meaning_daemon.KEPT:
            self.held.pop(next(iter(self.held))).close()
        return engine

    def close(self) -> None:
        for engine in self.held.values():
            engine.close()
        self.held.clear()


def answer(engines: Engines, request: dict[str, Any]) -> bytes | None:
    """The pickled answer to a search request, or None when the daemon cannot give the one the
    process would (then the client answers in process)."""
    from search import payloads
    from search.results import Filters

    engine = engines.get(request["folder"], request["editions"], request["stamp"])
    if engine is None:
        return None
    wanted: dict[str, Any] = request["filters"]
    filters = Filters(
        langs=tuple(wanted["langs"]),
        kinds=tuple(wanted["kinds"]),
        edition=wanted["edition"],
        all_editions=bool(wanted["all_editions"]),
        docs=tuple(wanted["docs"]),
    )
    try:
        found = payloads.search(
            engine, request["search"], filters, request["limit"], request["show"]
        )
    except Exception:  # an error is the process's to say, with its exit code
        return None
    return pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL)


def warm(engines: Engines, folder: Path, editions: Sequence[str], vectors: str) -> None:
    """The live build's engine opened and asked once before the socket is bound."""
    engine = engines.get(str(folder), editions, vectors)
    if engine is not None:
        from search import payloads
        from search.results import Filters

        with contextlib.suppress(Exception):
            payloads.search(engine, "how does the stack work?", Filters(), 5)
