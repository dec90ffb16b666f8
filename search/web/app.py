"""`mtgrules serve`: the rules side by side in a browser, and a JSON API of the CLI's shapes,
from one warm process (Starlette on uvicorn, Jinja2 templates that escape every text).

The engine stays open between requests; a rebuilt index (CURRENT names another build) is picked
up at the next request. Nothing here writes: every route is a GET that reads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from corpus import paths
from corpus.model.dates import EDITION_FORMS, typed_edition
from corpus.model.documents import DOCUMENTS
from corpus.model.languages import (
    LANGUAGES,
    SHOWN_ORDER,
    UnknownLanguageError,
    validate_languages,
    validate_translations,
)
from corpus.model.records import KINDS, read_all
from indexer.integrity import live_damage, records_mismatch
from indexer.store import Current, live_build
from search import payloads
from search.engine import Engine
from search.results import Filters
from search.web.advice import for_api
from search.web.changes import compared_from, staleness
from search.web.overview import Overview, overview

HERE = Path(__file__).parent
MAX_LIMIT = 50
LANG_NAMES = {code: LANGUAGES[code].name for code in SHOWN_ORDER}
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


REQUEST_SECONDS = (
    120.0  # a request's work in the library's thread before a 503: generous, as the first
)
# read of a full library's 76 MB hand-off file takes seconds, more on a busy machine


class Library:
    """The live build, opened once and reopened when a rebuild swaps it in. Every read runs
    in the library's own thread (the engine's SQLite connection and Whoosh searcher belong to
    one thread), never on the event loop; and every read is checked as the CLI checks it
    (indexer.integrity): damage is answered 503 while a rebuild runs, never served."""

    def __init__(self, home: Path) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.home = home
        self._lock = threading.Lock()
        self._engine: Any = None
        self._dir: str | None = None
        self._records: Any = None
        self._derived: dict[str, Any] = {}  # per build: overview, staleness
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mtgrules-library")
        self._rebuild: threading.Thread | None = None
        self._rebuilt_for: str | None = None
        self._rebuild_error: str | None = None

    async def run(self, function: Callable[..., Any], *args: Any, engine: bool = True) -> Any:
        """`function(*args)` in the library's thread, bounded in time; an exception that is
        not a Problem is checked for damage there first. `engine=False`: work that does not
        read the build (the sources' parses) runs in another thread, and waits for no search."""
        import asyncio

        loop = asyncio.get_running_loop()
        thread = self._thread if engine else None
        work = loop.run_in_executor(thread, partial(self._checked, function, *args))
        try:
            return await asyncio.wait_for(work, REQUEST_SECONDS)
        except TimeoutError:
            raise payloads.Problem(
                f"the request took more than {REQUEST_SECONDS:.0f} s; ask a shorter question "
                "or fewer rules",
                503,
            ) from None

    def _checked(self, function: Callable[..., Any], *args: Any) -> Any:
        try:
            return function(*args)
        except payloads.Problem:
            raise
        except Exception:
            current = live_build(self.home)
            if current is None:
                raise payloads.Problem("no index yet; run `mtgrules index` first", 503) from None
            damaged = live_damage(self.home, current, full=True)
            if damaged:
                self._damaged(current, damaged)
            raise  # the build is as written: a bug, to be seen (500), not rebuilt over

    def _damaged(self, current: Current, damaged: list[str]) -> None:
        """Start one rebuild of a damaged build (in the background) and say so (Problem)."""
        with self._lock:
            if self._engine is not None and self._dir == current.dir:
                self._engine.close()
                self._engine, self._dir, self._records = None, None, None
                self._derived = {}
            if self._rebuilt_for == current.dir and self._rebuild_error:
                raise payloads.Problem(
                    f"the index is damaged ({', '.join(damaged)}) and could not be rebuilt "
                    f"({self._rebuild_error}); run `mtgrules index --rebuild`",
                    503,
                )
            running = self._rebuild is not None and self._rebuild.is_alive()
            if not running and self._rebuilt_for != current.dir:  # once per damaged build
                self._rebuilt_for, self._rebuild_error = current.dir, None
                self._rebuild = threading.Thread(target=self._rebuild_now, daemon=True)
                self._rebuild.start()
        raise payloads.Problem(
            f"the index is damaged ({', '.join(damaged)}); it is being rebuilt, try again in "
            "a minute",
            503,
        )

    def _rebuild_now(self) -> None:
        from indexer.build import build

        try:
            build(self.home, force=True)
        except Exception as error:  # a read-only home, a full disk: said at the next request
            self._rebuild_error = f"{type(error).__name__}: {error}"

    async def with_engine(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(engine, *args)` in the library's thread (see `run`)."""
        return await self.run(lambda: function(self.engine(), *args))

    def engine(self) -> Any:
        current = live_build(self.home)
        if current is None:
            raise payloads.Problem("no index yet; run `mtgrules index` first", 503)
        damaged = live_damage(self.home, current)  # sizes and times: as a command starts
        if damaged:
            self._damaged(current, damaged)
        with self._lock:
            if current.dir != self._dir:
                if self._engine is not None:
                    self._engine.close()
                self._engine = Engine.of_build(self.home, current)
                self._dir, self._records, self._derived = current.dir, None, {}
            return self._engine

    def records(self) -> Any:
        """The hand-off records of the live build (read once per build: the translators'
        pages need them all), checked whole against what the build recorded."""
        self.engine()
        with self._lock:
            if self._records is not None:
                return self._records
        current = live_build(self.home)
        try:
            data: bytes | None = paths.records_file(self.home).read_bytes()
        except OSError:
            data = None
        recorded = current.records_checksum if current else None
        why = records_mismatch(data, list(recorded) if recorded else None)
        if current is None:
            raise payloads.Problem("no index yet; run `mtgrules index` first", 503)
        if data is None or why:
            self._damaged(current, [why or "records.jsonl is missing"])
        assert data is not None
        records = read_all(data.splitlines())
        with self._lock:
            if self._dir == current.dir:
                self._records = records
        return records

    def derived(self, name: str, make: Callable[[Any], Any]) -> Any:
        """`make(records)` computed once per build (the home page's overview, the staleness of
        every translated rule); call it through `run`, as every read."""
        records = self.records()
        with self._lock:
            if name in self._derived:
                return self._derived[name]
        made = make(records)
        with self._lock:
            self._derived.setdefault(name, made)
            return self._derived[name]

    def overview(self) -> Overview:
        return self.derived("overview", overview)

    def staleness(self) -> dict[tuple[str, str], dict[str, Any]]:
        return self.derived("staleness", staleness)

    def compared_from(self) -> dict[str, str]:
        return self.derived("compared_from", compared_from)


def _known(engine: Any, numbers: Any) -> set[str]:
    """The rule numbers the library has (those a page links)."""
    return {n for n in numbers if engine.versions.has_key(n)}


def _filters(request: Request, api: bool = False) -> tuple[Filters, tuple[str, ...]]:
    """The search filters and the languages shown. A page's form sends `lang=` empty for
    every language; the API refuses it, as `--lang ""` is refused."""
    query = request.query_params
    try:
        given = query.getlist("lang")
        langs = validate_languages(given if api else [v for v in given if v])
    except UnknownLanguageError as error:
        raise payloads.Problem(f"lang: {error}" if api else str(error), 400) from None
    kinds = tuple(k for raw in query.getlist("kind") for k in raw.split(",") if k)
    if any(k not in KINDS for k in kinds):
        raise payloads.Problem(f"unknown kind; valid: {', '.join(KINDS)}", 400)
    edition = query.get("edition") or None
    if edition is not None:
        edition = typed_edition(edition)
        if edition is None:
            raise payloads.Problem(f"edition: {EDITION_FORMS}", 400)
    try:
        show = tuple(validate_languages([v for v in query.getlist("show") if v]))
    except UnknownLanguageError as error:
        raise payloads.Problem(f"show: {error}", 400) from None
    every = query.get("all_editions", "") in ("1", "true", "yes")
    docs = tuple(d for raw in query.getlist("doc") for d in raw.split(",") if d)
    if any(d not in DOCUMENTS for d in docs):
        raise payloads.Problem(f"unknown doc; valid: {', '.join(DOCUMENTS)}", 400)
    filters = Filters(
        langs=tuple(langs), kinds=kinds, edition=edition, all_editions=every, docs=docs
    )
    return filters, show


def _limit(request: Request, default: int = 5) -> int:
    raw = request.query_params.get("limit", "") or str(default)
    # ASCII digits only ("²".isdigit() is true) and few of them (int() refuses 5,000 digits).
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or not 1 <= int(raw) <= MAX_LIMIT:
        raise payloads.Problem(f"limit: a whole number from 1 to {MAX_LIMIT}", 400)
    return int(raw)


def _langs(request: Request, translations: bool = False) -> tuple[str, ...]:
    """lang= as the command line's --lang: a list, or every language when not given
    (`lang=` given empty is refused, as `--lang ""` is); with `translations`, a translation's
    languages only (stale's)."""
    given = request.query_params.getlist("lang")
    try:
        return (validate_translations if translations else validate_languages)(given)
    except UnknownLanguageError as error:
        raise payloads.Problem(f"lang: {error}", 400) from None


# --- the JSON API -----------------------------------------------------------------------------


def api(handler: Callable[[Library, Request], dict[str, Any]]) -> Callable[..., Any]:
    async def endpoint(request: Request) -> Response:
        library: Library = request.app.state.library
        try:
            engine = handler is not api_sources  # parses read no build: they wait for no search
            payload = await library.run(handler, library, request, engine=engine)
            for one in payload.get("diffs", ()):  # a language that could not be compared
                if one.get("skipped"):
                    one["skipped"] = for_api(one["skipped"])
            for field in ("note", "error", "edition_note"):  # their fixes as parameters too
                if isinstance(payload.get(field), str):
                    payload[field] = for_api(payload[field])
            return JSONResponse(payload)
        except payloads.Problem as problem:
            error = for_api(str(problem))  # its fix as a request and its parameters
            return JSONResponse({"error": error}, status_code=problem.status)

    return endpoint


def api_search(library: Library, request: Request) -> dict[str, Any]:
    filters, show = _filters(request, api=True)
    q = request.query_params.get("q", "")
    return payloads.search(library.engine(), q, filters, _limit(request), show)[0]


def api_show(library: Library, request: Request) -> dict[str, Any]:
    filters, show = _filters(request, api=True)
    return payloads.show(library.engine(), request.path_params["rule"], filters, show)[0]


async def favicon(_: Request) -> Response:
    """Browsers ask for /favicon.ico whatever a page links: the pages' icon, not a 404."""
    return RedirectResponse("/static/favicon.svg", 301)


def api_term(library: Library, request: Request) -> dict[str, Any]:
    # /api/term/trample, or /api/term?q=trample as the term page's form asks
    asked = request.path_params.get("term") or request.query_params.get("q", "")
    payload = payloads.term(library.engine(), asked)
    if not payload["concepts"]:  # as the page and the command line: not found
        raise payloads.Problem(f"{payload['query']!r} is not in the term base", 404)
    return payload


def api_diff(library: Library, request: Request) -> dict[str, Any]:
    query = request.query_params
    numbering = query.get("numbering", "both")
    if numbering not in ("to", "both"):
        raise payloads.Problem("numbering: to (the edition compared to) or both", 400)
    ignore = query.get("ignore_typography", "") in ("1", "true", "yes")
    doc = diff_document(query.get("doc"))
    rule = query.get("rule")
    if rule and payloads.may_be_a_title(rule):  # rule=Trample; doc=ipg&rule=Deck Problem
        rule = payloads.as_titled(library.engine(), rule, doc)  # (no engine for a number)
    # As `diff --json`: without to=, the newest edition; without from=, the one before to=.
    return payloads.diff(
        library.records(),
        query.get("from") or None,
        query.get("to") or None,
        _langs(request),
        rule,
        ignore,
        doc,
        numbering,
    )


def diff_document(doc: str | None) -> str:
    """The `doc=` of a diff (cr, mtr, ipg, jar; the CR when absent), or a 400 naming them."""
    doc = (doc or "cr").lower()
    if doc not in DOCUMENTS:
        raise payloads.Problem(f"doc: one of {', '.join(DOCUMENTS)}", 400)
    return doc


def api_history(library: Library, request: Request) -> dict[str, Any]:
    edition = request.query_params.get("edition")
    at = typed_edition(edition) if edition else None
    if edition and at is None:
        raise payloads.Problem(f"edition: {EDITION_FORMS}", 400)
    exact = request.query_params.get("exact_typography", "") in ("1", "true", "yes")
    rule = request.path_params["rule"]
    if payloads.may_be_a_title(rule):  # /api/history/Trample (no engine for a number)
        rule = payloads.as_titled(library.engine(), rule)
    return payloads.history(library.records(), rule, at, not exact)


def api_stale(library: Library, request: Request) -> dict[str, Any]:
    return payloads.stale(library.records(), _langs(request, translations=True))


def api_check(library: Library, request: Request) -> dict[str, Any]:
    if request.query_params.get("against", "en") != "en":  # as `check --against`
        raise payloads.Problem("against: only the English rules are a reference (en)", 400)
    return payloads.check(library.records(), _langs(request), library.engine().termbase)


def api_sources(library: Library, request: Request) -> dict[str, Any]:
    return payloads.sources(library.home, write=False)  # no route writes the parse cache


class SecurityHeaders(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response


async def not_found(request: Request, exc: Exception) -> Response:
    """An unknown address: the error page (JSON under /api/), with the security headers."""
    from search.web.pages import error_page

    status = exc.status_code if isinstance(exc, HTTPException) else 404
    message = "no such page; start from the search box or the home page"
    if status != 404:
        message = str(getattr(exc, "detail", "")) or "this request cannot be answered"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)
    return error_page(status, "mtgrules", message)


async def server_error(request: Request, exc: Exception) -> Response:
    """A fault of ours: a 500 that still carries the security headers (Starlette answers it
    outside every middleware) and says nothing of the internals."""
    message = "internal error; the server's log has the details"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=500, headers=SECURITY_HEADERS)
    from starlette.responses import PlainTextResponse

    return PlainTextResponse(message, status_code=500, headers=SECURITY_HEADERS)


def create_app(home: Path) -> Starlette:
    from search.web import pages

    routes = [
        Route("/", pages.home_page),
        # {..:path}: a key may hold a slash ("Exilio / Exiliar"), links escape it as %2F.
        Route("/rule/{rule:path}", pages.rule_page),
        Route("/doc", pages.documents_page),
        Route("/doc/", pages.documents_page),
        Route("/doc/{doc:str}", pages.doc_page),
        Route("/doc/{doc:str}/{part:path}", pages.doc_page),
        Route("/history/{rule:path}", pages.history_page),
        Route("/term", pages.term_page),
        Route("/term/{term:path}", pages.term_page),
        Route("/diff", pages.diff_page),
        Route("/sources", pages.sources_page),
        Route("/stale", pages.stale_page),
        Route("/api/search", api(api_search)),
        Route("/api/show/{rule:path}", api(api_show)),
        Route("/api/term", api(api_term)),
        Route("/api/term/{term:path}", api(api_term)),
        Route("/api/diff", api(api_diff)),
        Route("/api/history/{rule:path}", api(api_history)),
        Route("/api/stale", api(api_stale)),
        Route("/api/check", api(api_check)),
        Route("/api/sources", api(api_sources)),
        Route("/favicon.ico", favicon),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={404: not_found, 405: not_found, 500: server_error},
    )
    app.state.library = Library(home)
    return app


def app_from_environment() -> Starlette:
    """The app of MTGRULES_HOME: what each worker process of `serve --workers N` imports."""
    from corpus.paths import home

    return create_app(home())
