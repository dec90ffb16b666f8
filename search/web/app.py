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
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from corpus import paths
from corpus.citations import citations as cited_in
from corpus.dates import EDITION_FORMS, typed_edition
from corpus.documents import DOCUMENTS, doc_of_key
from corpus.languages import LANGUAGES, SHOWN_ORDER, UnknownLanguageError, validate_languages
from corpus.numbers import CITATION
from corpus.records import KINDS, LOW_CONFIDENCE, StoredRecord, read_jsonl
from indexer.integrity import live_damage, records_mismatch
from indexer.store import Current, live_build
from search import payloads
from search.engine import Engine
from search.render import by_language, matched_spans
from search.renumbering import Citations, citations, numbering
from search.results import Filters

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
                self._dir, self._records = current.dir, None
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
        records = list(read_jsonl(data.splitlines()))
        with self._lock:
            if self._dir == current.dir:
                self._records = records
        return records


def _known(engine: Any, numbers: Any) -> set[str]:
    """The rule numbers the library has (those a page links)."""
    return {n for n in numbers if engine.versions.has_key(n)}


def _filters(request: Request) -> tuple[Filters, tuple[str, ...]]:
    query = request.query_params
    try:
        langs = validate_languages([v for v in query.getlist("lang") if v])
    except UnknownLanguageError as error:
        raise payloads.Problem(str(error), 400) from None
    kinds = tuple(k for raw in query.getlist("kind") for k in raw.split(",") if k)
    if any(k not in KINDS for k in kinds):
        raise payloads.Problem(f"unknown kind; valid: {', '.join(KINDS)}", 400)
    edition = query.get("edition") or None
    if edition is not None:
        edition = typed_edition(edition)
        if edition is None:
            raise payloads.Problem(f"edition: {EDITION_FORMS}", 400)
    show = tuple(validate_languages([v for v in query.getlist("show") if v]))
    every = query.get("all_editions", "") in ("1", "true", "yes")
    docs = tuple(d for raw in query.getlist("doc") for d in raw.split(",") if d)
    if any(d not in DOCUMENTS for d in docs):
        raise payloads.Problem(f"unknown doc; valid: {', '.join(DOCUMENTS)}", 400)
    filters = Filters(
        langs=tuple(langs), kinds=kinds, edition=edition, all_editions=every, docs=docs
    )
    return filters, show


def _limit(request: Request, default: int = 5) -> int:
    raw = request.query_params.get("limit", str(default))
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT:
        raise payloads.Problem(f"limit: a whole number from 1 to {MAX_LIMIT}", 400)
    return int(raw)


def _langs(request: Request) -> tuple[str, ...]:
    try:
        return tuple(validate_languages([v for v in request.query_params.getlist("lang") if v]))
    except UnknownLanguageError as error:
        raise payloads.Problem(str(error), 400) from None


# --- the JSON API -----------------------------------------------------------------------------


def api(handler: Callable[[Library, Request], dict[str, Any]]) -> Callable[..., Any]:
    async def endpoint(request: Request) -> Response:
        library: Library = request.app.state.library
        try:
            engine = handler is not api_sources  # parses read no build: they wait for no search
            return JSONResponse(await library.run(handler, library, request, engine=engine))
        except payloads.Problem as problem:
            return JSONResponse({"error": str(problem)}, status_code=problem.status)

    return endpoint


def api_search(library: Library, request: Request) -> dict[str, Any]:
    filters, show = _filters(request)
    q = request.query_params.get("q", "")
    return payloads.search(library.engine(), q, filters, _limit(request), show)[0]


def api_show(library: Library, request: Request) -> dict[str, Any]:
    filters, show = _filters(request)
    return payloads.show(library.engine(), request.path_params["rule"], filters, show)[0]


def api_term(library: Library, request: Request) -> dict[str, Any]:
    return payloads.term(library.engine(), request.path_params["term"])


def api_diff(library: Library, request: Request) -> dict[str, Any]:
    query = request.query_params
    if not query.get("from") or not query.get("to"):
        raise payloads.Problem("give from= and to=, e.g. ?from=2024-11-08&to=2025-07-25", 400)
    ignore = query.get("ignore_typography", "") in ("1", "true", "yes")
    return payloads.diff(
        library.records(), query["from"], query["to"], _langs(request), query.get("rule"), ignore
    )


def api_history(library: Library, request: Request) -> dict[str, Any]:
    edition = request.query_params.get("edition")
    at = typed_edition(edition) if edition else None
    if edition and at is None:
        raise payloads.Problem(f"edition: {EDITION_FORMS}", 400)
    exact = request.query_params.get("exact_typography", "") in ("1", "true", "yes")
    return payloads.history(library.records(), request.path_params["rule"], at, not exact)


def api_stale(library: Library, request: Request) -> dict[str, Any]:
    return payloads.stale(library.records(), _langs(request))


def api_check(library: Library, request: Request) -> dict[str, Any]:
    return payloads.check(library.records(), _langs(request), library.engine().termbase)


def api_sources(library: Library, request: Request) -> dict[str, Any]:
    return payloads.sources(library.home, write=False)  # no route writes the parse cache


# --- the pages --------------------------------------------------------------------------------


def _environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(("html",), default=True),
    )
    environment.filters["linked"] = linked
    environment.filters["rule_href"] = rule_href
    environment.globals["DOC_NAMES"] = DOCUMENTS
    environment.globals["LANG_NAMES"] = LANG_NAMES
    environment.globals["LOW_CONFIDENCE"] = LOW_CONFIDENCE
    return environment


def linked(
    record: StoredRecord, known: Citations | None = None, matched: set[str] | None = None
) -> Markup:
    """A record's text escaped, each cited rule a link (to the rule's current key, when the
    library has it: "rule 725" of a 2025 text is today's 726), the words the query matched
    marked as the terminal marks them."""
    numbered = numbering(record)
    text = record.text
    judged = cited_in(text, record.key)  # a judge document's citations, else the rule numbers
    links = (
        [(c.start, c.end, c.target) for c in judged]
        if judged or record.key[:4] in ("MTR ", "IPG ", "JAR ")
        else [(m.start(1), m.end(1), m[1]) for m in CITATION.finditer(text)]
    )
    marks = [
        (start, end, "mark")
        for start, end in matched_spans(text, record.lang, matched or set())
        if not any(s < end and start < e for s, e, _ in links)
    ]
    pieces = []
    position = 0
    for start, end, kind in sorted(links + marks):
        if start < position:
            continue  # a merged compound overlapping the word before it
        pieces.append(escape(text[position:start]))
        piece = text[start:end]
        if kind == "mark":
            pieces.append(Markup("<mark>{}</mark>").format(piece))
        elif known is None or (numbered, kind) in known:
            target = known[numbered, kind] if known else kind
            pieces.append(Markup('<a href="{0}">{1}</a>').format(rule_href(target), piece))
        else:
            pieces.append(escape(piece))
        position = end
    pieces.append(escape(text[position:]))
    return Markup("").join(pieces)


def rule_href(key: str) -> str:
    """A rule's page, or a judge document's part's: /rule/704.5j, /doc/mtr/2.3."""
    doc = doc_of_key(key)
    if doc == "cr":
        return f"/rule/{quote(key, safe='')}"
    return f"/doc/{doc}/{quote(key[4:], safe='')}"


TEMPLATES: list[Environment] = []  # made at the first page


def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    if not TEMPLATES:
        TEMPLATES.append(_environment())
    html = TEMPLATES[0].get_template(name).render(**context)
    return HTMLResponse(html, status_code=status)


async def home_page(request: Request) -> Response:
    library: Library = request.app.state.library
    q = request.query_params.get("q", "").strip()
    context: dict[str, Any] = {"q": q, "langs": request.query_params.getlist("lang")}
    context["kinds"] = request.query_params.getlist("kind")
    context["docs"] = request.query_params.getlist("doc")
    if not q:
        return page("search.html", title="mtgrules — the rules side by side", results=[], **context)
    try:
        filters, show = _filters(request)
        payload, results, matched = await library.with_engine(
            payloads.search, q, filters, _limit(request, 10), show
        )
        known = await library.with_engine(_cited, results)
    except payloads.Problem as problem:
        return page(
            "search.html", status=problem.status, title=f"{q} — mtgrules", error=str(problem),
            results=[], **context,
        )  # fmt: skip
    return page(
        "search.html",
        title=f"{q} — mtgrules",
        results=[(r, by_language(r, show)) for r in results],
        matched=matched,
        known=known,
        suggestions=payload.get("suggestions", []),
        partial="missing" in payload,
        missing=payload.get("missing", []),
        **context,
    )


def _cited(engine: Any, results: list[Any]) -> Citations:
    """The rules the results' texts cite that the library has, under their current keys."""
    records = [rec for r in results for rec in r.records]
    found = citations(engine.versions, records)
    # A judge document's citations are keys already ("see section 4.4" is MTR 4.4).
    found.update(
        {
            (numbering(rec), c.target): c.target
            for rec in records
            for c in cited_in(rec.text, rec.key)
        }
    )
    return {place: key for place, key in found.items() if engine.versions.has_key(key)}


async def rule_page(request: Request) -> Response:
    return await _rule_page(request, request.path_params["rule"])


async def doc_page(request: Request) -> Response:
    """/doc/mtr/2.3: a part of a judge document, on the rule page (the penalty, the edition,
    the citations as links)."""
    doc, part = request.path_params["doc"], request.path_params["part"]
    return await _rule_page(request, f"{doc.upper()} {part}")


async def _rule_page(request: Request, rule: str) -> Response:
    from corpus.editions import word_diff

    library: Library = request.app.state.library
    try:
        filters, show = _filters(request)
        payload, results = await library.with_engine(payloads.show, rule, filters, show)
        known_keys = await library.with_engine(_known, payload["refers_to"])
        known = await library.with_engine(_cited, results)
    except payloads.Problem as problem:
        return page("error.html", status=problem.status, title=f"{rule} — mtgrules",
                    error=str(problem))  # fmt: skip
    known_keys |= {r.key for r in results}
    stale = {}
    for result in results:
        english = [r for r in result.records if r.lang == "en" and r.kind == "rule"]
        if len(english) >= 2 and english[0].text != english[-1].text:
            stale[result.key] = (
                english[0],
                english[-1],
                word_diff(english[0].text, english[-1].text),
            )
    return page(
        "rule.html",
        title=f"{payload['query']} — mtgrules",
        rule=payload["query"],
        results=[(r, by_language(r, show)) for r in results],
        known=known,
        known_keys=known_keys,
        payload=payload,
        stale=stale,
    )


async def term_page(request: Request) -> Response:
    library: Library = request.app.state.library
    term = request.path_params["term"]
    try:
        payload = await library.with_engine(payloads.term, term)
    except payloads.Problem as problem:
        return page(
            "error.html", status=problem.status, title="term — mtgrules", error=str(problem)
        )
    status = 200 if payload["concepts"] else 404
    return page("term.html", status=status, title=f"{term} — term — mtgrules", payload=payload)


async def diff_page(request: Request) -> Response:
    library: Library = request.app.state.library
    query = request.query_params
    title = f"diff {query.get('from', '')} → {query.get('to', '')} — mtgrules"
    try:
        payload = await library.run(api_diff, library, request)
    except payloads.Problem as problem:
        return page("error.html", status=problem.status, title=title, error=str(problem))
    return page(
        "diff.html", title=title, diffs=payload.get("diffs", [payload]), rule=query.get("rule")
    )


async def history_page(request: Request) -> Response:
    library: Library = request.app.state.library
    rule = request.path_params["rule"]
    try:
        payload = await library.run(api_history, library, request)
    except payloads.Problem as problem:
        return page("error.html", status=problem.status, title=f"history {rule} — mtgrules",
                    error=str(problem))  # fmt: skip
    return page("history.html", title=f"history of {rule} — mtgrules", payload=payload)


async def sources_page(request: Request) -> Response:
    library: Library = request.app.state.library
    try:
        payload = await library.run(api_sources, library, request, engine=False)
    except payloads.Problem as problem:
        return page("error.html", status=problem.status, title="sources — mtgrules",
                    error=str(problem))  # fmt: skip
    return page("sources.html", title="sources — mtgrules", payload=payload)


class SecurityHeaders(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response


def create_app(home: Path) -> Starlette:
    routes = [
        Route("/", home_page),
        Route("/rule/{rule:str}", rule_page),
        Route("/doc/{doc:str}/{part:str}", doc_page),
        Route("/history/{rule:str}", history_page),
        Route("/term/{term:str}", term_page),
        Route("/diff", diff_page),
        Route("/sources", sources_page),
        Route("/api/search", api(api_search)),
        Route("/api/show/{rule:str}", api(api_show)),
        Route("/api/term/{term:str}", api(api_term)),
        Route("/api/diff", api(api_diff)),
        Route("/api/history/{rule:str}", api(api_history)),
        Route("/api/stale", api(api_stale)),
        Route("/api/check", api(api_check)),
        Route("/api/sources", api(api_sources)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
    app.state.library = Library(home)
    return app
