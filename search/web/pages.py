"""The HTML pages of `mtgrules serve`: home and search, a key's page (rule, glossary entry,
mechanic, a translation's own key, any document's section), history, diff, term lookup and
sources. Each reads through payloads (the shapes of --json) and renders a Jinja2 template that
escapes every text; every link is search.web.links.href."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from corpus.align.following import followed
from corpus.model.citations import citations as cited_in
from corpus.model.documents import DOCUMENTS, JUDGE, doc_of_key, is_judge_key, written_key
from corpus.model.languages import UnknownLanguageError, validate_languages
from corpus.model.numbers import CITATION, RuleNumber
from corpus.model.records import KINDS, LOW_CONFIDENCE, StoredRecord
from search import payloads
from search.query import as_number
from search.render import breaks, by_language, edition_span, matched_spans
from search.renumbering import Citations, citations, numbering
from search.web.advice import for_web
from search.web.app import (
    HERE,
    LANG_NAMES,
    SECURITY_HEADERS,
    Library,
    _filters,
    _known,
    _limit,
    api_diff,
    api_history,
    api_stale,
    diff_document,
)
from search.web.changes import as_html
from search.web.links import href, rule_href
from search.web.overview import ENGLISH_NAMES, EXAMPLES, english_since, missing_notes

KINDS_SHOWN = KINDS  # every kind a record can be
# A judge's questions in four languages, when the library holds the MTR, IPG or JAR.
JUDGE_EXAMPLES = (
    ("it", "penalità per carte segnate"),
    ("fr", "un joueur arrive en retard, quelle pénalité ?"),
    ("es", "mi oponente olvidó un disparo"),
    ("en", "outside assistance"),
)


def _environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(("html",), default=True),
    )
    environment.filters["linked"] = linked
    environment.filters["diff_html"] = as_html
    environment.filters["rule_href"] = rule_href
    environment.filters["for_web"] = for_web
    environment.filters["stale_status"] = payloads.stale_status
    environment.filters["stale_since"] = payloads.stale_since
    environment.globals.update(
        LANG_NAMES=LANG_NAMES,
        DOC_NAMES=DOCUMENTS,
        ENGLISH_NAMES=ENGLISH_NAMES,
        LOW_CONFIDENCE=LOW_CONFIDENCE,
        KINDS_SHOWN=KINDS_SHOWN,
        href=href,
        edition_span=edition_span,
    )
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
        if judged or is_judge_key(record.key)
        else [(m.start(1), m.end(1), m[1]) for m in CITATION.finditer(text)]
    )
    marks = [
        (start, end, "mark")
        for start, end in matched_spans(text, record.lang, matched or set())
        if not any(s < end and start < e for s, e, _ in links)
    ]
    # A judge part's heading and numbered steps on lines of their own (render.breaks).
    lines = [(at, at + 1, "break") for at in breaks(record)]
    pieces = []
    position = 0
    for start, end, kind in sorted(links + marks + lines):
        if start < position:
            continue  # a merged compound overlapping the word before it
        pieces.append(escape(text[position:start]))
        piece = text[start:end]
        if kind == "break":
            pieces.append(Markup("<br>"))
        elif kind == "mark":
            pieces.append(Markup("<mark>{}</mark>").format(piece))
        elif known is None or (numbered, kind) in known:
            target = known[numbered, kind] if known else kind
            pieces.append(Markup('<a href="{}">{}</a>').format(href("rule", target), piece))
        else:
            pieces.append(escape(piece))
        position = end
    pieces.append(escape(text[position:]))
    return Markup("").join(pieces)


TEMPLATES: list[Environment] = []  # made at the first page


def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    if not TEMPLATES:
        TEMPLATES.append(_environment())
    html = TEMPLATES[0].get_template(name).render(**context)
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)


def error_page(status: int, title: str, message: str) -> HTMLResponse:
    return page("error.html", status=status, title=title, error=message)


def _library(request: Request) -> Library:
    library: Library = request.app.state.library
    return library


def _search_context(request: Request) -> dict[str, Any]:
    query = request.query_params
    return {
        "q": query.get("q", "").strip(),
        "langs": query.getlist("lang"),
        "kinds": [k for raw in query.getlist("kind") for k in raw.split(",") if k],
        "docs": [d for raw in query.getlist("doc") for d in raw.split(",") if d],
        # What the filters' form has no box for, kept through "Apply filters" as it was asked.
        "kept": [(name, v) for name in KEPT_PARAMETERS for v in query.getlist(name) if v],
    }


KEPT_PARAMETERS = ("show", "edition", "all_editions", "limit")


async def home_page(request: Request) -> Response:
    library = _library(request)
    context = _search_context(request)
    q = context["q"]
    if not q:
        try:
            # The search's parameters are checked though there is nothing to search: a bad
            # one is a 400 naming it, not silently the home page.
            _limit(request, 10)
            _filters(request)
            overview = await library.run(library.overview)
        except payloads.Problem as problem:
            return error_page(problem.status, "mtgrules", str(problem))
        examples = {lang: EXAMPLES.get(lang, ()) for lang in overview.holdings}
        judging = JUDGE_EXAMPLES if overview.judge_documents else ()
        return page(
            "home.html", title="mtgrules — the rules side by side", overview=overview,
            examples=examples, judge_examples=judging, **context,
        )  # fmt: skip
    try:
        filters, show = _filters(request)
        payload, results, matched = await library.with_engine(
            payloads.search, q, filters, _limit(request, 10), show
        )
        overview = await library.run(library.overview)
        # The languages a missing text is said of: those shown when show= picks them (the
        # others are hidden, not missing), else those searched and the query's own.
        wanted = set(show) or {*filters.langs, *await library.with_engine(_query_languages, q)}
        known = await library.with_engine(_cited, results)
    except payloads.Problem as problem:
        return page(
            "search.html", status=problem.status, title=f"{q} — mtgrules", error=str(problem),
            results=[], **context,
        )  # fmt: skip
    shown = []
    for result in results:
        columns = by_language(result, show)
        since = english_since(result.records)
        notes = missing_notes(overview, result.key, columns, wanted, since)
        shown.append((result, columns, notes))
    return page(
        "search.html",
        title=f"{q} — mtgrules",
        results=shown,
        matched=matched,
        known=known,
        suggestions=payload.get("suggestions", []),
        note=payload.get("note"),
        edition_note=payload.get("edition_note"),  # a date read as the edition in effect then
        partial="missing" in payload,
        by_meaning=payload.get("by_meaning", False),
        missing=payload.get("missing", []),
        held=list(overview.holdings),  # the languages a filter can tick: the library's
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


def _query_languages(engine: Any, q: str) -> list[str]:
    """The languages the query's words say it is written in (the engine is the lexicon)."""
    from search.parse import languages_of

    return languages_of(q, engine)


def _english_editions(engine: Any) -> list[str]:
    return list(engine.english_editions)


def _status_of_translations(
    library: Library, results: list[Any]
) -> dict[str, list[dict[str, Any]]]:
    """Per result key, one line per translated document shown: the English edition it follows
    and what changed in English since (moved to another number, or the words that changed)."""
    engine = library.engine()
    editions = list(engine.english_editions)
    if not editions:
        return {}
    stale = library.staleness()
    # What `stale` compares each document from, the same on every page (an undated copy's
    # 205.4d page said "the newest", its 205.4a page, with a stale subrule, an edition of 2020).
    compared_from = library.compared_from()
    lines: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        seen: set[str] = set()
        for record in result.records:
            if record.lang == "en" or record.kind != "rule" or record.source in seen:
                continue
            seen.add(record.source)
            entry = stale.get((record.source, record.key))
            follows = compared_from.get(record.source) or followed(editions, record)
            from_msgid = entry is not None and _from_msgid(entry)
            lines.setdefault(result.key, []).append(
                {
                    "lang": record.lang,
                    "source": record.source,
                    # A fuzzy catalogue entry follows no edition: it was translated from
                    # its previous msgid's English (then no diff of editions shows its change).
                    "follows": entry["english_from"] if entry and not from_msgid else follows,
                    "from_msgid": from_msgid,
                    "newest": editions[-1],
                    "change": entry,
                    # after a move, whether the old number now holds another English rule (a
                    # result keyed by the rule's current number holds the rule itself)
                    "reused": bool(entry and entry["english_number"] != result.key)
                    and any(r.lang == "en" and editions[-1] in r.editions for r in result.records),
                }
            )
    return lines


def _from_msgid(entry: dict[str, Any]) -> bool:
    from corpus.align.editions import PREVIOUS_MSGID

    return bool(entry["english_from"] == PREVIOUS_MSGID)


def _following(translations: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One line per translated document on the page: the edition it follows, how many of the
    page's rules changed in English since."""
    documents: dict[str, dict[str, Any]] = {}
    for lines in translations.values():
        for line in lines:
            document = documents.setdefault(line["source"], {**line, "stale": 0})
            document["stale"] += line["change"] is not None
    return list(documents.values())


async def rule_page(request: Request) -> Response:
    rule = request.path_params["rule"]
    if rule.strip().lower() in JUDGE:  # /rule/IPG: the document's contents, at /doc/ipg
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/doc/{rule.strip().lower()}{query}", status_code=307)
    return await _rule_page(request, rule)


async def doc_page(request: Request) -> Response:
    """/doc/mtr/2.3: a part of a judge document, on the rule page (the penalty, the edition,
    the citations as links)."""
    doc, part = request.path_params["doc"].lower(), request.path_params.get("part", "")
    if doc not in JUDGE:  # /doc/MTR/2.3 is /doc/mtr/2.3
        return error_page(404, f"{doc} — mtgrules", f"no such document; valid: {', '.join(JUDGE)}")
    if not part.strip():  # /doc/ipg: its contents
        return await _contents_page(request, doc)
    shown = await _rule_page(request, f"{doc.upper()} {part}")
    if shown.status_code == 404 and payloads.may_be_a_title(part):
        # /doc/ipg/Tardiness: the section it titles, as `show Tardiness` finds it.
        key = await _library(request).with_engine(payloads.titled_number, part, doc)
        if key is not None and rule_href(key) != request.url.path:
            return RedirectResponse(rule_href(key), status_code=307)
    return shown


async def documents_page(request: Request) -> Response:
    """/doc: the judge documents, each a link to its contents."""
    documents = {doc: DOCUMENTS[doc] for doc in JUDGE}
    return page("documents.html", title="judge documents — mtgrules", documents=documents)


async def _contents_page(request: Request, doc: str) -> Response:
    """/doc/ipg: the document's parts, each a link, an infraction with its penalty."""
    library = _library(request)
    try:
        filters, show = _filters(request)
        payload, _ = await library.with_engine(payloads.show, doc, filters, show)
    except payloads.Problem as problem:
        return error_page(problem.status, f"{doc.upper()} — mtgrules", str(problem))
    return page("contents.html", title=f"{doc.upper()} — mtgrules", payload=payload)


async def _rule_page(request: Request, rule: str) -> Response:
    library = _library(request)
    try:
        filters, show = _filters(request)
        payload, results = await library.with_engine(payloads.show, rule, filters, show)
        overview = await library.run(library.overview)
        translations = await library.run(_status_of_translations, library, results)
        known = await library.with_engine(_cited, results)
        editions = await library.with_engine(_english_editions)
    except payloads.Problem as problem:
        return error_page(problem.status, f"{rule} — mtgrules", str(problem))
    # The cited keys the library has (`show` says which it has not), and the page's own.
    known_keys = set(payload["refers_to"]) - set(payload["not_in_library"])
    known_keys |= {r.key for r in results}
    present = {r.lang for result in results for r in result.records}
    numbered = RuleNumber.written(rule) is not None
    english_rule = any(r.lang == "en" and r.kind == "rule" for x in results for r in x.records)
    judged = payload.get("document", "cr") != "cr"  # a judge document's part has a history too
    # Unasked, only a CR rule says which languages lack it (what a translator looks for): a
    # judge part or a glossary entry opened with a line per language it was never in.
    unasked = present if judged or not numbered else {"en", *overview.holdings}
    wanted = set(filters.langs or show or unasked)
    # A number as written ("regla 704.5J") is named as the rules print it (704.5j).
    asked = as_number(rule)
    named = payload["query"] if asked is None else asked.number + ("." if asked.alone else "")
    return page(
        "rule.html",
        title=f"{named} — mtgrules",
        rule=named,
        results=[(r, by_language(r, show)) for r in results],
        known=known,
        known_keys=known_keys,
        payload=payload,
        translations=translations,
        following=_following(translations),
        # A judge part as written ("ipg3.1") is noted as its key: "the IPG is not in Italian
        # here", not "the Italian documents cover section 205".
        notes=missing_notes(
            overview,
            written_key(rule) or named,
            present,
            wanted,
            english_since(r for x in results if x.key == named for r in x.records),
        ),
        history=(numbered and english_rule) or judged,
        diff_editions=editions[-2:] if numbered and english_rule and len(editions) > 1 else [],
        # A judge part's own two newest editions (the MTR's dates, not the CR's).
        part_editions=(await library.run(_diff_editions, library, "en", payload["document"]))[-2:]
        if judged
        else [],
    )


async def term_page(request: Request) -> Response:
    library = _library(request)
    term = request.path_params.get("term") or request.query_params.get("q", "")
    if not term.strip():
        return page("term.html", title="term lookup — mtgrules", payload=None, term="")
    try:
        payload = await library.with_engine(payloads.term, term)
    except payloads.Problem as problem:
        return error_page(problem.status, "term — mtgrules", str(problem))
    status = 200 if payload["concepts"] else 404
    return page("term.html", status=status, title=f"{term} — term — mtgrules", payload=payload,
                term=payload["query"])  # fmt: skip


def _diff_editions(library: Library, lang: str, doc: str) -> list[str]:
    """The editions a diff of this document in this language can compare: the CR's, or a
    judge document's own (their dates are not the CR's)."""
    from corpus.align.editions import by_edition

    records = [r for r in library.records() if doc_of_key(r.key) == doc]
    return list(by_edition(records, lang, followed=lang != "en" and doc == "cr"))


async def diff_page(request: Request) -> Response:
    library = _library(request)
    query = request.query_params
    try:
        doc = diff_document(query.get("doc"))
    except payloads.Problem as problem:
        return error_page(problem.status, "diff — mtgrules", str(problem))
    # Several languages (lang=en,es) as the API takes them: one diff each, the pickers the
    # first one's. The judge documents are English.
    langs = ["en"] if doc != "cr" else (query.get("lang") or "en").split(",")
    langs = [code.strip() for code in langs if code.strip()] or ["en"]
    if any(code not in LANG_NAMES for code in langs):
        return error_page(400, "diff — mtgrules", f"lang: one of {', '.join(LANG_NAMES)}")
    try:
        # The pickers show the first language with two editions to compare (lang=es,en with
        # the Spanish CR following one edition: English's), else the first one's.
        choices = [(code, await library.run(_diff_editions, library, code, doc)) for code in langs]
    except payloads.Problem as problem:
        return error_page(problem.status, "diff — mtgrules", str(problem))
    lang, editions = next(((c, e) for c, e in choices if len(e) > 1), choices[0])
    old = query.get("from") or (editions[-2] if len(editions) > 1 else "")
    new = query.get("to") or (editions[-1] if editions else "")
    rule = query.get("rule", "").strip()
    form = {"lang": lang, "from": old, "to": new, "rule": rule, "editions": editions, "doc": doc}
    form["ignore"] = query.get("ignore_typography", "") in ("1", "true", "yes")
    compared = f" {old} → {new}" if old and new else ""  # one edition: nothing to compare
    title = f"diff{compared}{', ' + rule if rule else ''} — mtgrules"
    if len(editions) < 2:
        name = ENGLISH_NAMES[lang] if doc == "cr" else doc.upper()
        note = f"this library has {len(editions) or 'no'} {name} edition" + (
            "" if len(editions) == 1 else "s"
        )
        stale = lang != "en" and doc == "cr" and len(editions) == 1
        # Staleness is against English: a library without an English edition has none.
        stale = stale and bool(await library.run(_diff_editions, library, "en", "cr"))
        return page("diff.html", title=title, form=form, diffs=[], note=f"{note}; a diff needs two",
                    stale=lang if stale else None)  # fmt: skip
    params = {"from": old, "to": new, "lang": ",".join(langs), "rule": rule or None, "doc": doc}
    params["ignore_typography"] = "1" if form["ignore"] else None
    params["numbering"] = query.get("numbering") or None  # a bad value refused, as by the API
    try:
        payload = await library.run(api_diff, library, _with_query(request, params))
        diffs = payload.get("diffs", [payload])
        numbers = {
            c[side] for d in diffs for c in d["changes"] for side in ("from", "to") if c[side]
        }
        known = await library.with_engine(_known, numbers)
    except payloads.Problem as problem:
        return page("diff.html", status=problem.status, title=title, form=form, diffs=[],
                    error=str(problem))  # fmt: skip
    return page("diff.html", title=title, form=form, diffs=diffs, known=known)


def _with_query(request: Request, params: dict[str, str | None]) -> Request:
    """The request with its query string replaced (the diff page's defaults filled in)."""
    from urllib.parse import urlencode

    scope = dict(request.scope)
    pairs = [(k, v) for k, v in params.items() if v]
    scope["query_string"] = urlencode(pairs).encode("ascii")
    return Request(scope)


async def history_page(request: Request) -> Response:
    library = _library(request)
    rule = request.path_params["rule"]
    try:
        payload = await library.run(api_history, library, request)
        # The rules below it that changed or appeared since the oldest loaded edition.
        changed = [
            (sub, [e for e in events if e["event"] != "first seen"])
            for sub, events in payload.get("subrules", {}).items()
        ]
        changed = [(sub, events) for sub, events in changed if events]
        shown = [*payload["history"], *(e for _, events in changed for e in events)]
        numbers = {e[k] for e in shown for k in ("number", "previous") if e.get(k)}
        numbers |= {sub for sub, _ in changed}
        known = await library.with_engine(_known, numbers)
    except payloads.Problem as problem:
        return error_page(problem.status, f"history {rule} — mtgrules", str(problem))
    doc = doc_of_key(payload["rule"])  # a judge document's part: its own editions
    editions = "English" if doc == "cr" else doc.upper()
    # A number an older edition printed links to that edition's rule (724.1 of 2025-07-25 is
    # 725.1 now; /rule/724.1 is another rule); a judge part's numbers are not renumbered.
    newest = (await library.with_engine(_english_editions) or [None])[-1] if doc == "cr" else None
    return page("history.html", title=f"history of {rule} — mtgrules", payload=payload,
                known=known, editions=editions, changed=changed,
                newest=newest)  # fmt: skip


async def stale_page(request: Request) -> Response:
    """The translated rules whose English changed since the edition they follow, for a
    translation's language: the first one the library holds unless `lang=` says."""
    library = _library(request)
    try:
        overview = await library.run(library.overview)
    except payloads.Problem as problem:
        return error_page(problem.status, "stale — mtgrules", str(problem))
    choices = [code for code in overview.holdings if code != "en"]
    lang = (request.query_params.get("lang") or (choices[0] if choices else "")).strip()
    context: dict[str, Any] = {"choices": choices, "lang": lang}
    if not choices:
        note = "this library has no translation; add one with `mtgrules add`"
        return page("stale.html", title="stale — mtgrules", payload=None, error=note, **context)
    try:  # a regional tag as the CLI and the API take it ("pt-BR": pt)
        codes = validate_languages([lang])
    except UnknownLanguageError as error:
        return error_page(400, "stale — mtgrules", f"lang: {error}")
    lang = context["lang"] = codes[0] if len(codes) == 1 else lang
    if lang not in choices:
        held = ", ".join(choices)
        # The page lists one language (its picker's); `/api/stale?lang=it,fr` lists several.
        several = "one at a time here (`/api/stale` takes several); " if len(codes) > 1 else ""
        return error_page(
            400, "stale — mtgrules", f"lang: {several}a translation's language here ({held})"
        )
    try:
        payload = await library.run(api_stale, library, _with_query(request, {"lang": lang}))
        numbers = {i[k] for i in payload["stale"] for k in ("key", "english_number") if i.get(k)}
        known = await library.with_engine(_known, numbers)
    except payloads.Problem as problem:
        return error_page(problem.status, "stale — mtgrules", str(problem))
    also = [item for item in payload["also_changed"] if item["lang"] == lang]
    return page("stale.html", title=f"stale {lang} — mtgrules", payload=payload, known=known,
                also=payloads.also_changed(lang, also) if also else "", **context)  # fmt: skip


async def sources_page(request: Request) -> Response:
    library = _library(request)
    try:
        # no route writes the parse cache; parses read no build: they wait for no search
        payload = await library.run(payloads.sources, library.home, False, engine=False)
    except payloads.Problem as problem:
        return error_page(problem.status, "sources — mtgrules", str(problem))
    return page("sources.html", title="sources — mtgrules", payload=payload)
