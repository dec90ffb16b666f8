"""The JSON answers of the commands, computed in one place for the CLI's `--json` and the web
app's `/api/`: the same shapes from the same code. Each raises Problem with the HTTP status
and exit code that fit (400/2 for a malformed request, 404/1 for nothing found: errors.py)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus import library
from corpus.align.following import followed, followings
from corpus.model.dates import resolve_edition, typed_edition
from corpus.model.documents import (
    DOCUMENTS,
    PENALTIES,
    doc_of_key,
    doc_of_layout,
    is_english_edition,
    is_judge_key,
    whole_document,
    written_key,
)
from corpus.model.languages import LANGUAGES, SHOWN_ORDER, language_name
from corpus.model.numbers import RuleNumber, sort_key
from corpus.model.records import StoredRecord
from search import renumbering
from search.errors import Problem, QueryError
from search.query import as_number
from search.results import SearchOutcome, listed

__all__ = ["Problem", "check", "diff", "history", "search", "show", "sources", "stale", "term"]

if TYPE_CHECKING:
    from corpus.model.records import Record
    from search.engine import Engine
    from search.results import Filters, Result


def search(
    engine: Engine, text: str, filters: Filters, limit: int, show: Sequence[str] = ()
) -> tuple[dict[str, Any], list[Result], set[str]]:
    """{"query", "results"[, "suggestions"]}, the results and the matched words."""
    filters_agree(filters, show)
    asked = None
    asked_as = text  # the query as typed, when a misspelt word is searched as its correction
    try:  # the engine validates the query (QueryError)
        filters = engine.with_edition(filters)
        part = written_key(text)
        number = as_number(text)
        if part:  # a chapter is its sections: as many as --limit asks
            outcome = SearchOutcome(engine.lookup_part(part, filters)[:limit])
        elif number:
            found, asked = _numbered(engine, number, filters)
            outcome = SearchOutcome(found)
        else:
            outcome = engine.search(text, filters, limit)
            corrected = _corrected(engine, text, filters, limit, outcome)
            if corrected is not None:
                text, outcome, asked_as = corrected[0], corrected[1], text
    except QueryError as error:
        raise Problem.of(error) from None
    results = outcome.results
    payload: dict[str, Any] = {"query": text, "results": [r.to_json(show) for r in results]}
    if text != asked_as:  # a misspelt word searched as its correction
        payload["query"], payload["corrected"] = asked_as, text
    if asked is not None and asked.note:
        payload["note"] = asked.note  # --edition's 725.1 is another rule's number today
    if filters.edition_note:
        payload["edition_note"] = filters.edition_note
    number = number or part  # type: ignore[assignment]
    if results and outcome.partial:
        payload["missing"] = list(outcome.missing)  # some of the words only: found nowhere
    if not results and filters.langs and (note := _not_in_languages(engine, filters)):
        payload["note"] = note
    elif not results and filters.langs:
        # Nothing in the languages asked for: say whether other languages have it.
        _, elsewhere, _ = search(engine, text, dataclasses.replace(filters, langs=()), 1)
        having = {r.lang for result in elsewhere for r in result.records}
        # A language asked for is among them when a result it has was found by another's words
        # (the Portuguese glossary entry Atropelar under Trample): not a language that matched.
        written = sorted(having - set(filters.langs), key=SHOWN_ORDER.index)
        if written:
            payload["note"] = (
                f"no {named(filters.langs, ' or ')} text matches it, {named(written)} text does;"
                f" search without --lang"
            )
    elif not results and filters.docs and not number:
        # Nothing in the documents asked for: say which others have it ("tiebreakers
        # --doc ipg": the MTR's 3.1).
        _, other_documents, _ = search(engine, text, dataclasses.replace(filters, docs=()), 1)
        if other_documents:
            first = other_documents[0].key
            having_it = first if doc_of_key(first) != "cr" else f"the CR's {first}"
            payload["note"] = (
                f"no {named_documents(filters.docs)} text matches it; {having_it} does: "
                "search without --doc"
            )
    elif not results and number and (other := _left_out_by_doc(part, filters)):
        # "702.19 --doc mtr": the CR has it; "IPG 3.1 --doc cr": the IPG has it.
        what = f"a part of the {other.upper()}" if part else "a CR rule number"
        payload["note"] = (
            f"{text.strip()} is {what}, not of the {', '.join(d.upper() for d in filters.docs)}:"
            f" search without --doc, or with --doc {other}"
        )
    elif not results and number:
        payload["note"] = (
            f"no rule {text.strip()} in the library (`mtgrules sources` lists its documents and"
            " editions)"
        )
    elif (
        results
        and filters.langs
        and not filters.docs
        and not number
        and outcome.judged
        and (note := _judges_left_out(engine, filters))
    ):
        payload["note"] = note  # a tournament's question asked of languages they are not in
    if outcome.by_meaning:
        payload["by_meaning"] = True  # no rule has any of its words: ranked by meaning alone
    if (outcome.by_meaning or not results or outcome.missing) and not number:
        from search.parse import is_stop_word

        # A stop word alone is a query refused: never offer one ("toque" -> "que"). A query
        # answered by meaning alone may be a misspelling too ("arollar": arrollar).
        suggestions = [s for s in engine.suggestions(text) if not is_stop_word(s)]
        if not results and (prefix := _wildcard_prefix(text)):
            # "tocco*": no text of the library has a word so begun, the term base may
            # ("tocco letale", deathtouch, is Italian cards' word, not the texts').
            suggestions = engine.terms_starting(prefix) or suggestions
        if suggestions:
            payload["suggestions"] = suggestions
    if text != asked_as:  # said first, before what the corrected query's results say
        said = f"no rule has {asked_as!r} as typed: searched as {text!r}"
        payload["note"] = f"{said}; {payload['note']}" if payload.get("note") else said
    if not results:  # what the command line says on stderr, for a script (`--json`, the API)
        payload["error"] = f"no rules match {text!r}{_why_nothing(payload)}"
    return payload, results, set(outcome.matched)


def _wildcard_prefix(text: str) -> str | None:
    """The letters before a single word's trailing star ("tocco*": tocco), else None."""
    found = re.fullmatch(r"\s*([^\W\d_][\w'’-]{2,})\*\s*", text)
    return found[1] if found else None


def _corrected(
    engine: Engine, text: str, filters: Filters, limit: int, outcome: SearchOutcome
) -> tuple[str, SearchOutcome] | None:
    """A query its words found nothing for, with its words found nowhere spelt as the very
    close words of its language (Engine.corrected), and what that finds by its words:
    "arollar", answered by meaning alone (Amass, Exhaust…), is searched as "arrollar" (702.19);
    "il tocco letalle", which found nothing, as "il tocco letale"."""
    # Only a query its words found nothing for (no result, or the encoder's alone): one with
    # results may hold a word the rules never use, rightly ("uncrewed" is no misspelt
    # "crewed", "phone" no "hone").
    if outcome.results and not outcome.by_meaning:
        return None
    missing = outcome.missing or tuple(text.split())
    better = engine.corrected(text, missing)
    if better is None:
        return None
    found = engine.search(better, filters, limit)
    if not found.results or found.by_meaning or len(found.missing) >= len(missing):
        return None
    return better, found


def filters_agree(filters: Filters, show: Sequence[str]) -> None:
    """A usage error (400) for options that ask two things at once: --edition (one edition)
    beside --all-editions (every one), and --show a language --lang leaves out (`--lang it
    --show en` said "no English text for 205.4d", which there is)."""
    if filters.edition and filters.all_editions:
        raise Problem(
            "one edition (--edition) or every one (--all-editions): give one of them", 400
        )
    outside = [lang for lang in show if filters.langs and lang not in filters.langs]
    if outside:
        raise Problem(
            f"--show {','.join(outside)} asks for what --lang {','.join(filters.langs)} leaves "
            f"out; add {','.join(outside)} to --lang, or leave --show out",
            400,
        )


def _why_nothing(payload: dict[str, Any]) -> str:
    """The note of a search that found nothing, or the close words it may have meant; for a
    query in another alphabet ("κανόνας του θρύλου"), the languages the library reads."""
    if payload.get("note"):
        return f"; {payload['note']}"
    import unicodedata  # a search that found nothing only

    letters = [c for c in unicodedata.normalize("NFKD", payload["query"].lower()) if c.isalpha()]
    if letters and not any("a" <= c <= "z" for c in letters):
        return f"; ask in {named(list(LANGUAGES), ' or ')}, the languages of the rules here"
    return did_you_mean(payload) or "; check its spelling, or ask in other words"


def did_you_mean(payload: dict[str, Any]) -> str:
    """ "; did you mean: arrollar, arrolla?" from a search's close words, or nothing."""
    suggestions = payload.get("suggestions")
    return f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""


def named(codes: Sequence[str], last: str = " and ") -> str:
    """Languages by name: "Italian, French and Spanish"."""
    return listed([language_name(code) for code in codes], last)


def named_documents(docs: Sequence[str]) -> str:
    """Documents by code: "IPG", "IPG or JAR", "CR"."""
    return " or ".join(doc.upper() if doc != "cr" else "CR" for doc in docs)


def _judges_left_out(engine: Engine, filters: Filters) -> str | None:
    """What a tournament's question asked in languages the judge documents are not written in
    misses: "marked cards --lang es" found Spanish CR rules about cards, and not IPG 3.8."""
    from corpus.model.documents import JUDGE

    written = {doc: engine.languages_of(doc) for doc in JUDGE}
    left_out = [
        doc for doc, langs in written.items() if langs and not set(langs) & set(filters.langs)
    ]
    if not left_out:
        return None
    documents = listed([doc.upper() for doc in left_out])
    languages = sorted({lang for doc in left_out for lang in written[doc]}, key=SHOWN_ORDER.index)
    return (
        f"the {documents} are in {named(languages)} only here: --lang "
        f"{','.join(filters.langs)} leaves them out (search without --lang for them)"
    )


def _not_in_languages(engine: Engine, filters: Filters) -> str | None:
    """Why a search of documents in languages they are not written in found nothing: the
    library has none in those languages (--lang pt), or the judge's documents are often in
    English only ("--lang es --doc ipg")."""
    from corpus.model.documents import DOCUMENTS

    if not set(engine.languages_of()) & set(filters.langs):  # --lang pt, no Portuguese here
        return (
            f"the library has no {named(filters.langs, ' or ')} documents; search without"
            " --lang, or add one with `mtgrules add FILE`"
        )
    for doc in filters.docs:
        written = engine.languages_of(doc)
        if not written:
            return f"the library has no {DOCUMENTS[doc]}; add it with `mtgrules add FILE`"
        if not set(written) & set(filters.langs):
            return (
                f"the {DOCUMENTS[doc]} is in {named(written)} only here, not in "
                f"{named(filters.langs)}; search it with --lang {written[0]} or without --lang "
                "(a question in any language reaches its text)"
            )
    return None


def show(
    engine: Engine, rule: str, filters: Filters, show: Sequence[str] = ()
) -> tuple[dict[str, Any], list[Result]]:
    """{"query", "results", "refers_to", "referred_by"} of one rule."""
    filters_agree(filters, show)
    if not rule.strip():  # else every rule would match an empty number (`/rule/`, `show ""`)
        raise Problem(
            "no rule given; give a number, a title or a glossary entry, e.g. 704.5j, "
            '"MTR 2.3" or "trample"',
            400,
        )
    document = whole_document(rule)  # "IPG" alone: its contents
    if document is not None:
        return _contents(engine, document, filters), []
    part = written_key(rule)  # "MTR 2.3", "ipg3.1", "JAR serious problems"
    if part is not None:
        return _show_part(engine, rule, part, filters, show)
    number = as_number(rule)
    try:
        filters = engine.with_edition(filters)
    except QueryError as error:
        raise Problem.of(error) from None
    asked = None
    if number is None and rule.strip().lower().startswith("gone:"):
        _check_gone_key(rule)
    gone = _gone_key(rule)
    if number is None and gone is not None:
        # A gone rule's key (`gone:714.3a@2025-11-14`), this library's or one like it: the
        # rule that edition printed so, as `show 714.3a --edition 2025-11-14` finds it.
        results = renumbering.gone(engine, rule.strip(), filters)
        if not results and gone[1] in engine.english_editions and not filters.edition:
            filters = dataclasses.replace(filters, edition=gone[1])
            results, asked = _numbered(engine, gone[0], filters)
    elif number is None:
        # A glossary entry, a mechanic, a file's key; else a rule or entry by its title in any
        # language ("arrollar", "trample", "piétinement" through the term base).
        results = entry(engine, rule, filters)
        if not any(as_number(r.key) for r in results):
            # A headword that titles a rule too ("Trample", as "trample"): the rule first,
            # whatever the case it is written in.
            headed = titled(engine, rule, filters)
            if not results or any(as_number(r.key) for r in headed):
                results = headed
        if results and is_chapter(rule):
            results += _chapter_sections(engine, rule.strip(), filters)  # 7: its contents
        if not results:
            raise Problem(
                f"{rule!r} is no rule number, nor the title of a rule or glossary entry; write a "
                f"number like 205.4d, 205.4, 205.4. or 205, or search for words: "
                f"`mtgrules search {rule.strip()!r}`",
                400,
            )
    else:
        if filters.docs and "cr" not in filters.docs:  # "the IPG has no 704.5j" would be false
            asked_docs = ", ".join(d.upper() for d in filters.docs)
            raise Problem(
                f"{number.number} is a CR rule number, not of the {asked_docs}: show it without"
                " --doc, or with --doc cr",
                400,
            )
        results, asked = _numbered(engine, number, filters)
    if not results:
        raise Problem(_nothing_shown(engine, rule, filters), 404)
    keys = {r.key for r in results}
    cites = renumbering.cited_keys(engine.versions, (rec for r in results for rec in r.records))
    payload = {
        "query": rule,
        "results": [r.to_json(show) for r in results],
        **_citations(engine, [n for n in cites if n not in keys]),
        "referred_by": engine.referring_to(
            asked.key if asked and asked.key else number.number if number else rule
        ),
    }
    if asked is not None and asked.note:
        payload["note"] = asked.note
    if all(doc_of_key(r.key) == "cr" for r in results):
        # The CR's rules shown: which judge documents had no edition then is no concern here.
        filters = dataclasses.replace(filters, docs=("cr",))
    if filters.edition_note:
        payload["edition_note"] = filters.edition_note
    return payload, results


def _check_gone_key(rule: str) -> None:
    """A usage error for a gone rule's key written without its edition, or with no date."""
    number, _, edition = rule.strip()[5:].partition("@")
    how = (
        f"write it as gone:{number.strip()}@EDITION, the last edition that printed it"
        f" (`mtgrules history {number.strip()}` names it)"
    )
    if not edition.strip():
        raise Problem(f"{rule!r} is a gone rule's key without its edition: {how}", 400)
    if typed_edition(edition.strip()) is None:
        raise Problem(f"{edition.strip()!r} in {rule!r} is no edition's date: {how}", 400)


def _gone_key(rule: str) -> tuple[Any, str] | None:
    """(number, edition) of a gone rule's key, or None."""
    place = renumbering.gone_place_of(rule)
    number = as_number(place[0]) if place else None
    return None if place is None or number is None else (number, place[1])


def _nothing_shown(engine: Engine, rule: str, filters: Filters) -> str:
    """Why `show` has nothing: the rule is not in the library, or only the languages asked
    for have no text of it (then which languages have one), or only older editions print the
    number (then which, and the option to see it)."""
    number = as_number(rule)
    if number is not None and "cr" in dict(filters.not_yet):
        return _not_yet_in_effect(engine, "cr", number.number, filters)
    if number is not None and not filters.edition:
        printed = engine.versions.editions_numbering(number.number)
        newest = engine.english_editions[-1] if engine.english_editions else None
        if printed and printed[-1] != newest:  # else the newest prints it: --lang left it out
            return (
                f"{number.number} is no rule of the newest English edition ({newest}); English"
                f" {printed[-1]} printed it: `mtgrules show {number.number} --edition"
                f" {printed[-1]}`"
            )
    if filters.langs and number is not None:
        everywhere = _numbered(engine, number, dataclasses.replace(filters, langs=()))[0]
        written = {r.lang for result in everywhere for r in result.records}
        # `show 714.3a --lang es`: the Spanish text numbered so is another rule (a gone one).
        elsewhere = renumbering.printed_elsewhere(engine, number, filters.langs, option=True)
        if elsewhere is not None and elsewhere.note and written.isdisjoint(filters.langs):
            return elsewhere.note
        if written:
            held = sorted(written, key=SHOWN_ORDER.index)
            return (
                f"the library has no {named(filters.langs, ' or ')} text of {number.number},"
                f" only {named(held)}; show it without --lang or with --lang {','.join(held)}"
            )
    return f"no rule {rule} in the library (`mtgrules sources` lists its documents and editions)"


def _numbered(
    engine: Engine, number: Any, filters: Filters
) -> tuple[list[Result], renumbering.AsOf | None]:
    """A rule number's results, the number read in --edition's numbering when one is given:
    looked up under its rule's current key (725.1 of 2025-11-14 is 726.1), or under a gone
    key when the newest edition no longer has the rule."""
    if not filters.edition:
        # Only the languages shown: `--lang it,en` is told nothing of the French numbering.
        elsewhere = renumbering.printed_elsewhere(engine, number, filters.langs)
        return engine.lookup(number, filters), elsewhere
    asked = renumbering.as_of(engine, number, filters.edition)
    if asked.unprinted is not None:
        raise Problem(asked.unprinted, 404)
    if asked.key is not None and asked.number == number:
        return renumbering.gone(engine, asked.key, filters), asked  # not in the newest edition
    return engine.lookup(asked.number, filters), asked


def _show_part(
    engine: Engine, asked: str, part: str, filters: Filters, show: Sequence[str]
) -> tuple[dict[str, Any], list[Result]]:
    """One part of a judge document (a chapter with its sections, a section, an appendix) and
    its citations: other parts of the judges' documents and rules of the CR."""
    from corpus.model.citations import cited_keys

    doc = doc_of_key(part)
    if filters.docs and doc not in filters.docs:  # "the IPG has no IPG 3.1" would be false
        fix = f": show it without --doc, or with --doc {doc}"
        raise _part_of_another(part, doc, [d.upper() for d in filters.docs], fix)
    try:
        # --edition DATE: the document's own edition in effect then (its dates are not the CR's)
        filters = engine.with_edition(filters)
    except QueryError as error:
        # A date before every CR edition loaded may be before the document's too: that said.
        dates = engine.judge_editions.get(doc, [])
        asked_date = typed_edition(filters.edition or "")
        if dates and asked_date and asked_date < dates[0]:
            early = dataclasses.replace(filters, asked_edition=asked_date)
            raise Problem(_not_yet_in_effect(engine, doc, part, early), 404) from None
        raise Problem.of(error) from None
    results = engine.lookup_part(part, filters)
    if (
        not results
        and filters.langs
        and engine.lookup_part(part, dataclasses.replace(filters, langs=()))
    ):
        # The part is there, in another language than those asked for (the judge documents
        # are in English here).
        raise Problem(
            f"the library has no {named(filters.langs, ' or ')} text of {part} (the "
            f"{doc.upper()} is in {named(engine.languages_of(doc))} only); show it without --lang",
            404,
        )
    if not results and filters.edition and filters.edition_of(part) is None:
        raise Problem(_not_yet_in_effect(engine, doc, part, filters), 404)
    if not results and doc == "jar":
        # A JAR part's key is its heading's first words, cut: the start of one is that part
        # (`show "JAR a player sees a card"`: a-player-sees-a-card-in-a-library).
        started = {r.key for r in engine.versions.with_keys([], [f"{part}-"])}
        if len(started) == 1:
            part = started.pop()
            results = engine.lookup_part(part, filters)
    if not results:
        raise Problem(_no_such_part(engine, asked, part), 404)
    keys = {r.key for r in results}
    cites: dict[str, None] = {}
    for result in results:
        for record in result.records:
            cites.update(dict.fromkeys(cited_keys(record.text, record.key)))
    payload = {
        "query": asked,
        "document": doc,
        "results": [r.to_json(show) for r in results],
        **_citations(engine, [c for c in cites if c not in keys]),
        "referred_by": engine.referring_to(part),
    }
    return payload, results


def _citations(engine: Engine, cited: list[str]) -> dict[str, list[str]]:
    """`refers_to`, the keys a part's texts cite, and `not_in_library`, those the library has
    no rule of (the French seed's 420.5e, its 2006 number of 704.5j): no rule to open."""
    return {
        "refers_to": cited,
        "not_in_library": [key for key in cited if not engine.versions.has_key(key)],
    }


def _contents(engine: Engine, doc: str, filters: Filters) -> dict[str, Any]:
    """A judge document's contents: each of its parts (chapters, sections, appendices, the
    JAR's parts) in reading order, with its title and an infraction's penalty, of its newest
    edition or the one in effect on --edition's date."""
    from corpus.model.dates import in_effect_on

    dates = engine.judge_editions.get(doc, [])
    if not dates:
        raise Problem(f"no {doc.upper()} in the library; add the document with `mtgrules add`", 404)
    # By the document's own dates, whatever CR editions the library has (or has not).
    asked = resolve_edition(filters.edition, dates) if filters.edition else dates[-1]
    edition = in_effect_on(dates, asked)
    if edition is None:
        filters = dataclasses.replace(filters, asked_edition=asked)
        raise Problem(_not_yet_in_effect(engine, doc, doc.upper(), filters), 404)
    parts: dict[str, StoredRecord] = {}
    for record in engine.versions.with_keys([], prefixes=[f"{doc.upper()} "]):
        # Its parts, the JAR's issues under theirs; not an infraction's notes or examples.
        if record.kind == "rule" and record.title and edition in record.editions:
            parts.setdefault(record.key, record)
    ordered = sorted(parts.values(), key=lambda r: r.seq)
    return {
        "query": doc.upper(),
        "document": doc,
        "title": DOCUMENTS[doc],
        "edition": edition,
        "editions": dates,
        "contents": [
            {
                "key": r.key,
                "title": r.title,
                **({"parent": r.parent} if r.parent else {}),
                **({"penalty": r.penalty} if r.penalty else {}),
            }
            for r in ordered
        ],
        "results": [],
        "refers_to": [],
        "not_in_library": [],
        "referred_by": [],
    }


def _not_yet_in_effect(engine: Engine, doc: str, part: str, filters: Filters) -> str:
    """No edition of a document was in effect on the date asked: the oldest there is."""
    from shlex import quote

    dates = engine.english_editions if doc == "cr" else engine.judge_editions.get(doc, [])
    date = filters.asked_edition or filters.edition
    if not dates:
        return f"no {doc.upper()} in the library; add the document with `mtgrules add`"
    return (
        f"no {doc.upper()} in the library was in effect on {date}: its oldest edition here is"
        f" {dates[0]} (`mtgrules show {quote(part)} --edition {dates[0]}`)"
    )


def _no_such_part(engine: Engine, asked: str, part: str) -> str:
    """Why a judge document's part is not shown, and what to do: the document is not in the
    library, or it is and has no such part (its chapter's sections, or its parts, named)."""
    from shlex import quote

    name, _, number = part.partition(" ")
    found = {r.key for r in engine.versions.with_keys([], [f"{name} "])}
    keys = sorted(found, key=lambda key: (sort_key(key), key))
    if not keys:  # "MTR 99.9" must be quoted to be one query
        return (
            f"no {part} in the library; add the document with `mtgrules add`, "
            f"or try `mtgrules search {quote(asked)}`"
        )
    lettered = f"{name} {number[:-1]}"
    if number[-1:].isalpha() and number[:1].isdigit() and lettered in found:
        # "IPG 2.1a": the section is there, unlettered (no judge document letters its parts).
        return (
            f"the {name} in the library has no {part}: its sections are not lettered "
            f"(`mtgrules show {quote(lettered)}`)"
        )
    section = f"{name} {'.'.join(number.split('.')[:2])}"
    if number.count(".") > 1 and section in found:
        # "MTR 2.3.1": the section is there, with no numbered parts (none has any).
        return (
            f"the {name} in the library has no {part}: its sections have no numbered parts "
            f"(`mtgrules show {quote(section)}`)"
        )
    chapter = f"{name} {number.partition('.')[0]}"
    sections = [key for key in keys if key.startswith(f"{chapter}.")]
    if sections:
        return (
            f"the {name} in the library has no {part}; its chapter {chapter} has "
            f"{sections[0]} to {sections[-1]} (`mtgrules show {quote(chapter)}`)"
        )
    chapters = [key for key in keys if key.partition(" ")[2].isdigit()]
    if number[:1].isdigit() and chapters:
        return (
            f"the {name} in the library has no {part}; its chapters are {chapters[0]} to "
            f"{chapters[-1]} (`mtgrules show {quote(chapters[0])}`)"
        )
    shown = ", ".join(keys[:4]) + (", …" if len(keys) > 4 else "")
    return (
        f"the {name} in the library has no {part}; its parts: {shown} "
        f"(`mtgrules search --doc {name.lower()} WORDS`)"
    )


def entry(engine: Engine, key: str, filters: Filters) -> list[Result]:
    """The results of a key that is not a rule number: a glossary headword, a mechanic (with
    its rule), a translation's own key (205.2c@FILE), a judge document's section. [] when the
    library has nothing under it."""
    from corpus.model.mechanics import by_english

    mechanic = by_english(key)
    rule = as_number(mechanic.rule) if mechanic else None
    results = engine.lookup(rule, filters) if rule else []
    if any(r.key == key for result in results for r in result.records):
        return results  # the mechanic's own rule carries its records
    return _keyed(engine, [key], filters) + results


def _keyed(engine: Engine, keys: list[str], filters: Filters) -> list[Result]:
    """The records under exactly these keys (no subrules), a result per key, in rule order."""
    from search.results import Result, order_records, select_english

    found: dict[str, list[Any]] = {}
    for record in engine.versions.with_keys(keys):
        if filters.keep(record):
            found.setdefault(record.key, []).append(record)
    results = []
    for key in sorted(found, key=sort_key):
        result = Result(key, 1.0, order_records(found[key]))
        select_english(result, engine.english_editions, filters.edition_of(result.key))
        results.append(result)
    return results


def is_chapter(rule: str) -> bool:
    """A CR chapter's number as `show` is asked it ("7"): its title, then its sections'."""
    return len(rule.strip()) == 1 and rule.strip().isdigit()


def _chapter_sections(engine: Engine, chapter: str, filters: Filters) -> list[Result]:
    """A chapter's sections' titles (7: 700 General, 701 Keyword Actions …), in order."""
    return _keyed(engine, [f"{chapter}{n:02d}" for n in range(100)], filters)


# The IPG defines its penalties in one section ("1.1 Definition of Penalties"), each a
# run-in heading of it: a penalty named alone is shown there.
PENALTIES_DEFINED = "definition of penalties"
PENALTY_NAMES = frozenset(name.casefold() for name in PENALTIES)


def titled(engine: Engine, title: str, filters: Filters) -> list[Result]:
    """The rules and glossary entries titled so in any language (`arrollar`: 702.19 and the
    glossary's Trample), else titled as its English term (`piétinement`: trample); the rules
    first. [] when nothing is."""
    from corpus.model.text import fold

    def titled_as(name: str) -> list[str]:
        # An infraction's name titles its IPG section after its category ("Tournament Error —
        # Tardiness"): named alone, the section (`show Tardiness`, `show "Outside Assistance"`).
        listed = [k for k in engine.versions.listing(fold(name)) if is_judge_key(k)]
        if fold(name) in PENALTY_NAMES:  # `show "Game Loss"`: where the IPG defines them
            listed += [k for k in engine.versions.headed(PENALTIES_DEFINED) if is_judge_key(k)]
        # A designation's rule is headed with its article ("The Monarch", 725): `show Monarch`.
        headed = engine.versions.headed(fold(name)) + engine.versions.headed(f"the {fold(name)}")
        return headed + listed

    keys = titled_as(title.strip())
    if not any(as_number(k) for k in keys):
        # `show "gioco lento"`, `show ritardo`: the MTR's section and the IPG's; `show monarca`,
        # a glossary entry's headword in Spanish: the rule its English heads (725) too.
        english = {t for lang, t in engine.translations(title.strip()) if lang == "en"}
        keys += [k for t in sorted(english) for k in titled_as(t)]
    results: list[Result] = []
    others = []
    for key in dict.fromkeys(keys):
        if number := as_number(key):
            results += engine.lookup(number, filters)
        else:
            others.append(key)
    for key in others:
        if not any(r.key == key for r in results):
            results += entry(engine, key, filters)
    return results


def may_be_a_title(rule: str) -> bool:
    """Whether what `history` is asked is none of its keys: no number, judge document's part,
    gone or translation's own key (then perhaps a rule's title)."""
    from corpus.align.identity import gone_place

    written = RuleNumber.written(rule) or written_key(rule)
    return not written and "@" not in rule and not gone_place(rule.strip())


def as_titled(engine: Engine, rule: str, doc: str | None = None) -> str:
    """What `history` and `diff` are asked, with a title read as the rule or section it
    titles (`Trample`: 702.19; `Tardiness`: IPG 3.1), as `show` reads it; else as written."""
    if not may_be_a_title(rule):
        return rule
    return titled_number(engine, rule, doc) or rule


def titled_number(engine: Engine, title: str, doc: str | None = None) -> str | None:
    """The number of the rule a title names in any language ("tocco letale", "Trample": 702.2,
    702.19), as `show` finds it, else the judge document's section it titles ("Tardiness":
    IPG 3.1); with `doc` (mtr, ipg, jar), only that document's section. None when it titles
    none."""
    from corpus.model.numbers import cited_numbers
    from search.results import Filters

    found = titled(engine, title, Filters())
    if doc not in (None, "cr"):
        return next((r.key for r in found if doc_of_key(r.key) == doc), None)
    number = next((r.key for r in found if as_number(r.key)), None)
    if number is None:  # a glossary entry ("Legend Rule"): the rule its English text cites
        english = [rec for r in found for rec in r.records if rec.lang == "en"]
        number = next((n for rec in english for n in cited_numbers(rec.text)), None)
    if number is None and doc is None:  # `history Tardiness`: IPG 3.1's
        number = next((r.key for r in found if is_judge_key(r.key)), None)
    return number


def term(engine: Engine, phrase: str) -> dict[str, Any]:
    """{"query", "concepts": [{"english", "terms", "rules"}], "hidden"}: learned pairs below
    the shown confidence (corpus.terms.termbase.SHOWN_CONFIDENCE) are left out and counted."""
    from search.query import MAX_QUERY_CHARS

    phrase = phrase.strip()
    if not phrase:
        raise Problem("give a term, e.g. `mtgrules term leggendario`", 400)
    if len(phrase) > MAX_QUERY_CHARS:
        raise Problem(
            f"the term is {len(phrase):,} characters long; give a word or a phrase, under "
            f"{MAX_QUERY_CHARS} characters",
            400,
        )
    if not any(c.isalnum() for c in phrase):
        raise Problem(f"{phrase!r} has no word to look up; give a term, e.g. leggendario", 400)
    from corpus.terms.headwords import dictionary_form
    from corpus.terms.obsolete import replaced_by

    concepts: dict[str, list[dict[str, Any]]] = {}
    hidden = 0
    obsolete = engine.obsolete_concepts
    asked = phrase.lower()
    terms = engine.termbase.lookup(phrase, engine.lemmas)  # "piochent": piocher
    if not terms and asked in obsolete:
        # An English term the rules no longer use, translated nowhere ("casting cost"): said
        # obsolete, with the concept that replaced it and that one's terms.
        concepts[asked] = []
        new = obsolete[asked]
        terms = engine.termbase.lookup(new) if new else []
    for found in terms:
        if not found.shown:
            hidden += 1
            continue
        english = found.english.lower()
        row = _term_row(found, english in obsolete)
        if headword := dictionary_form(found.term, found.lang, engine.lemmas):
            row["dictionary_form"] = headword  # cards print "piochez": piocher
        concepts.setdefault(english, []).append(row)
    # A translation made before a rename names the old concept: listed under the new one too
    # ("mana value": Portuguese "custo de mana convertido", as converted mana cost).
    replaced = replaced_by(obsolete)
    for english, rows in concepts.items():
        for old in replaced.get(english, ()):
            rows.extend(
                {**_term_row(t, True), "as": old} for t in engine.termbase.terms_of(old) if t.shown
            )
    using = {english: engine.rules_using(english, limit=USAGE_COUNTED) for english in concepts}
    # The concept the rules use most first: Italian "pila" is the stack (405…) before a pile.
    # The concept asked for by its English name first ("casting cost", then mana cost).
    ordered = sorted(concepts, key=lambda e: (e != asked, -len(using[e]), e))
    return {
        "query": phrase,
        "concepts": [
            {
                "english": english,
                "obsolete": english in obsolete,
                "replaced_by": obsolete.get(english),
                "terms": _unique(concepts[english], asked),
                "rules": using[english][:RULES_LISTED],
            }
            for english in ordered
        ],
        "hidden": hidden,
    }


def _term_row(found: Any, concept_obsolete: bool) -> dict[str, Any]:
    """A term as `term --json` gives it; a term of a concept English no longer uses is no
    longer in use either, unless its own period says otherwise."""
    return {
        "lang": found.lang,
        "term": found.term,
        "source": found.source,
        "period": found.period,
        "obsolete": found.obsolete or (concept_obsolete and not found.period),
        "count": found.count or None,  # learned pairs: how often seen, how sure
        "confidence": found.confidence,
    }


USAGE_COUNTED = 100  # rules counted to order a term's concepts by use
RULES_LISTED = 20


def _unique(terms: list[dict[str, Any]], asked: str = "") -> list[dict[str, Any]]:
    """One row per (language, term), the first source kept; languages in a fixed order, the
    term asked for first in its language (`term neutralizzare`: neutralizzare above segnalini,
    the counters' noun of the same English word)."""
    seen: dict[tuple[str | None, str | None], dict[str, Any]] = {}
    for found in terms:
        seen.setdefault((found["lang"], (found["term"] or "").lower()), found)
    return sorted(
        seen.values(),
        key=lambda t: (SHOWN_ORDER.index(t["lang"] or "en"), (t["term"] or "").lower() != asked),
    )


def diff(
    records: Sequence[Record],
    from_: str | None,
    to: str | None,
    langs: Sequence[str],
    rule: str | None,
    ignore_typography: bool,
    doc: str = "cr",
    numbering: str = "both",
) -> dict[str, Any]:
    """{"from", "to", "lang", "changes"} for one language; {"diffs": [...]} for several. `doc`:
    which document's editions (cr, mtr, ipg, jar): each has its own. `numbering`: `rule` read
    in both editions' numbering (what happened at that number), or in the `to` edition's only
    (that rule's changes)."""
    from corpus.align.editions import by_edition, compare

    records = [r for r in records if doc_of_key(r.key) == doc]
    if doc != "cr":
        if any(lang != "en" for lang in langs):  # "no MTR in the library" would be false
            raise Problem(
                f"the {doc.upper()} is in English only here: compare its editions without --lang",
                400,
            )
        return _judge_diff(records, from_, to, rule, ignore_typography, doc)
    gone = _gone_key(rule) if rule else None
    # A gone rule's key (`gone:714.3a@2025-11-14`): that number in the older edition only.
    part = gone[0].rule if gone else RuleNumber.written(rule) if rule else None
    if rule and part is None:
        judged = written_key(rule)
        if judged is not None:  # "MTR 2" without --doc mtr: the option, with the command
            doc_asked = doc_of_key(judged)
            fix = (
                f"; compare its editions with --doc {doc_asked}: `mtgrules diff --doc "
                f"{doc_asked} --from DATE --to DATE {rule.strip()!r}`"
            )
            raise _part_of_another(repr(rule), doc_asked, ["CR"], fix)
        raise Problem(
            f"{rule!r} is not a rule number nor a rule's title; write it like 205, 205.4 or"
            ' 205.4d, or a title ("Trample", "tocco letale")',
            400,
        )
    payloads: list[dict[str, Any]] = []
    for lang in langs or ("en",):
        # A translation's editions are the English editions its documents follow.
        editions = by_edition(records, lang, followed=lang != "en")
        since = f"; what English changed since: `mtgrules stale --lang {lang}`"
        try:
            if not editions:  # no such translation: neither "no edition here" nor `stale`'s hint
                translations_held(records, [lang])
            hint = since if lang != "en" else ""
            old, new = _span(editions, from_, to, language_name(lang), hint)
        except Problem as problem:
            if len(langs) < 2:
                raise
            # One of several languages cannot be compared: the others still are.
            payloads.append({"lang": lang, "skipped": str(problem), "changes": []})
            continue
        # Through the editions loaded between: a rule is paired as its identity chains it.
        between = [editions[e] for e in editions if old < e < new]
        changes = compare(
            editions[old], editions[new], ignore_typography=ignore_typography, through=between
        )
        if part and (gone or numbering == "to"):
            # One rule's changes (the rule page's link): RULE read in the numbering of the
            # edition compared to, as keys are today's: 726.1 of 2025-11-14 → 2026-08-07 is the
            # initiative, moved there from 725.1, not also Restarting the Game, which moved
            # away from 726.1. A removed rule has only its old number; a gone key names that.
            changes = [c for c in changes if _under(part, c.old if gone or not c.new else c.new)]
        elif part:  # what happened at this number, in either edition
            changes = [c for c in changes if _under(part, c.old) or _under(part, c.new)]
        if part and not changes and not gone and len(langs or ("en",)) == 1:
            printed = (r for e in (old, new) for r in editions[e] if _under(part, r))
            if next(printed, None) is None:  # "0 changes" would say 999.9z stayed the same
                elsewhere = any(_under(part, r) for rs in editions.values() for r in rs)
                hint = (
                    f"which editions print it: `mtgrules history {part}`"
                    if elsewhere
                    else f"no loaded {language_name(lang)} edition prints it"
                )
                raise Problem(
                    f"no rule {part} in {language_name(lang)} {old} or {new}; {hint}", 404
                )
        payloads.append(
            {
                "from": old,
                "to": new,
                "backwards": old > new,  # the newer edition first: its additions are removals
                "lang": lang,
                **_read_as(((from_, old), (to, new)), language_name(lang)),
                "changes": [c.to_json() for c in changes],
            }
        )
    return payloads[0] if len(payloads) == 1 else {"diffs": payloads}


def _judge_diff(
    records: Sequence[Record],
    from_: str | None,
    to: str | None,
    rule: str | None,
    ignore_typography: bool,
    doc: str,
) -> dict[str, Any]:
    from corpus.align.editions import by_edition
    from corpus.align.judge_editions import compare_parts

    editions = by_edition(records, "en")
    if not editions:
        raise Problem(f"no {doc.upper()} in the library; add it with `mtgrules add`", 404)
    old, new = _span(editions, from_, to, f"the {doc.upper()}")
    changes = compare_parts(editions[old], editions[new], ignore_typography=ignore_typography)
    if rule:
        wanted = _judge_part_asked(rule, doc)
        if not any(
            r.key == wanted or r.key.startswith(f"{wanted}.")
            for r in (*editions[old], *editions[new])
        ):
            raise Problem(
                f"no part {rule.strip()!r} in the {doc.upper()} of {old} or {new}; its parts: "
                f"`mtgrules show {doc.upper()}`",
                404,
            )
        changes = [
            c
            for c in changes
            if any(
                r and (r.key == wanted or r.key.startswith(f"{wanted}.")) for r in (c.old, c.new)
            )
        ]
    return {
        "document": doc,
        "from": old,
        "to": new,
        "backwards": old > new,
        "lang": "en",
        **_read_as(((from_, old), (to, new)), f"the {doc.upper()}"),
        "changes": [c.to_json() for c in changes],
    }


def _judge_part_asked(rule: str, doc: str) -> str:
    """The key of the part a judge diff is asked for ("2.3" or "MTR 2.3" with --doc mtr); a
    usage error for another document's part or no part at all."""
    written = rule.strip()
    if RuleNumber.written(written):
        # Three digits, as no judge document numbers its parts: "704.5j" is the CR's rule.
        raise Problem(
            f"{rule!r} is a CR rule number, not a part of the {doc.upper()}; compare the CR's "
            f"editions without --doc: `mtgrules diff --from DATE --to DATE {written}`",
            400,
        )
    wanted = written_key(written) or written_key(f"{doc} {written}")
    if wanted is None:
        raise Problem(
            f'{rule!r} is not a part of the {doc.upper()}; write it like "{doc.upper()} 2.3" '
            f"or 2.3 (its parts: `mtgrules show {doc.upper()}`)",
            400,
        )
    if doc_of_key(wanted) != doc:
        other = doc_of_key(wanted)
        fix = f"; compare its editions with --doc {other}"
        raise _part_of_another(repr(rule), other, [doc.upper()], fix)
    return wanted


def _left_out_by_doc(part: str | None, filters: Filters) -> str | None:
    """The document of a judge document's part, or the CR's for a rule number (`part` None),
    when --doc leaves it out ("702.19 --doc mtr": cr)."""
    doc = doc_of_key(part) if part else "cr"
    return doc if filters.docs and doc not in filters.docs else None


def _part_of_another(part: str, doc: str, asked: Sequence[str], fix: str) -> Problem:
    """A usage error for a judge document's part asked of another document ("IPG 3.1" with
    --doc cr), followed by its fix (with its separator)."""
    return Problem(
        f"{part} is a part of the {doc.upper()}, not of the {', '.join(asked)}{fix}", 400
    )


def _current_key(events: Sequence[Any], loaded: Sequence[tuple[str, Any]]) -> str:
    """The rule's key today: its number in the newest loaded edition, or, gone from it, its
    last number and the last edition that had it (corpus.align.identity.gone_key)."""
    from corpus.align.identity import gone_key

    last = events[-1]
    if last.number:
        return str(last.number)
    # Its last edition is the one before its removal, not that of its last change.
    printed = [edition for edition, _ in loaded if edition < last.edition]
    return gone_key(str(last.previous), printed[-1] if printed else loaded[-1][0])


def _span(
    editions: dict[str, list[Record]],
    from_: str | None,
    to: str | None,
    what: str,
    hint: str = "",
) -> tuple[str, str]:
    """--from and --to as loaded editions (newer first is a diff backwards: what the newer
    edition added is removed); a usage error when they name two editions where the document
    has only one. Without --to, the newest edition; without --from, the one before --to (as the
    web's diff page)."""
    loaded = list(editions)
    old = _edition(editions, from_, "--from") if from_ else None
    new = _edition(editions, to, "--to") if to else (loaded[-1] if loaded else "")
    if old is None:
        return _edition_before(loaded, new, what, hint), new
    # Without --to, the newest edition: named as such, not as "--to None".
    asked = f"--from {from_} and --to {to}" if to else f"--from {from_} and the newest edition"
    if old == new and len(editions) == 1 and from_ != to:
        raise Problem(
            f"{what} has one edition here ({old}): {asked} both read as it, so there is"
            f" nothing to compare{hint}",
            400,
        )
    if old == new and to is None:
        raise Problem(
            f"--from {from_} reads as {what} {old}, the newest edition here: nothing newer to"
            f" compare it with; give an older --from, or --to; its editions here:"
            f" {', '.join(editions)}",
            400,
        )
    if old == new and from_ != to:  # two dates in effect under one edition
        raise Problem(
            f"{asked} both read as {what} {old}, the edition in effect on both dates; its"
            f" editions here: {', '.join(editions)}",
            400,
        )
    return old, new


def _edition_before(loaded: list[str], edition: str, what: str, hint: str) -> str:
    """The loaded edition before `edition`, or a usage error: nothing to compare."""
    earlier = [e for e in loaded if e < edition]
    if earlier:
        return earlier[-1]
    if len(loaded) > 1:
        having = f"no edition before {edition}"
    else:
        having = f"one edition ({edition})" if loaded else "no edition"
    raise Problem(f"{what} has {having} here: nothing to compare{hint}", 400)


def _read_as(asked: Sequence[tuple[str | None, str]], what: str) -> dict[str, str]:
    """{"edition_note"} when a date given is no edition of the document and was read as the
    one in effect then (as every command that takes --edition says), else {}."""
    notes = [
        f"{wanted} is no edition here: the rules in effect then, {what} {edition}"
        for wanted, edition in asked
        if wanted and wanted != "latest" and typed_edition(wanted) != edition
    ]
    return {"edition_note": "; ".join(dict.fromkeys(notes))} if notes else {}


def _edition(editions: dict[str, list[Record]], wanted: str, option: str) -> str:
    """A loaded edition, or the one in effect on a date between them (as --edition reads it)."""
    from corpus.model.dates import EDITION_FORMS, in_effect_on, typed_date

    typed = typed_edition(wanted)
    if typed is None:  # "2025-13-01", "yesterday": no date (the API's too)
        raise Problem(f"{wanted!r} for {option} is not a date; {EDITION_FORMS}", 400)
    date = resolve_edition(typed, list(editions))
    if date not in editions and typed_date(date):
        date = in_effect_on(list(editions), date) or date
    if date not in editions:
        # A date before every loaded edition: nothing of that (exit 1), as `search --edition`.
        known = ", ".join(editions) or "none (add an edition with `mtgrules add`)"
        raise Problem(f"no edition {wanted!r} for {option}; loaded editions: {known}", 404)
    return date


def own_key_history(records: Sequence[Record], key: str) -> dict[str, Any]:
    """A translated rule with no English counterpart (205.2c@FILE): what it is, and why it has
    no English history."""
    found = next((r for r in records if r.key == key and r.kind == "rule"), None)
    if found is None:
        raise Problem(f"no translated rule with the key {key}; see `mtgrules sources`", 404)
    edition = found.edition or "edition unknown"
    note = (
        f"{found.lang} {found.number} of {found.source} ({edition}) has no counterpart in "
        "the loaded English editions: it has no English history"
    )
    return {"rule": key, "edition": None, "history": [], "note": note, "text": found.text}


def _under(rule: RuleNumber, record: Record | None) -> bool:
    """Whether a record is the rule or below it: 704.5j under 704.5 and 704, 702.80 not under
    702.8."""
    number = RuleNumber.of(record.number or "") if record else None
    return number is not None and number.within(rule)


def history(
    records: Sequence[Record], rule: str, edition: str | None, ignore_typography: bool = True
) -> dict[str, Any]:
    """{"rule", "edition", "history": [events]}. A gone rule's key (gone:725.1@2025-11-14) is
    its last number in its last edition; a translation's own key (205.2c@FILE) says why it has
    no English history (`records` must then hold the translations too)."""
    from corpus.align.editions import by_edition, edition_texts
    from corpus.align.editions import history as events_of
    from corpus.align.identity import gone_place

    if last := gone_place(rule.strip()):
        rule, edition = last
    elif "@" in rule:
        return own_key_history(records, rule.strip())
    part = written_key(rule)
    if part is not None:
        return _part_history(records, part, edition, ignore_typography)
    records = [r for r in records if doc_of_key(r.key) == "cr"]  # the MTR's dates are its own
    written = RuleNumber.written(rule)  # else a translation's own key, 205.2c@FILE
    if written is None and "@" not in rule:
        raise Problem(
            f"{rule!r} is not a rule number nor a rule's title; write it like 205.4d, 205.4 or"
            ' 205, a title ("Trample", "tocco letale") or a judge document\'s section like'
            ' "MTR 2.3"',
            400,
        )
    number = str(written) if written else rule.strip()
    editions = by_edition(records, "en")
    if not editions:
        raise Problem("no English editions in the library; add one with `mtgrules add`", 404)
    asked_edition = edition
    if edition is not None:  # a date between editions: the one in effect then, as elsewhere
        edition = _edition(editions, edition, "--edition")
    loaded = list(editions.items())
    compared: dict[int, Any] = {}
    texts = edition_texts(loaded, ignore_typography)  # once for the rule and its subrules
    events = events_of(
        number,
        loaded,
        at=edition,
        ignore_typography=ignore_typography,
        compared=compared,
        texts=texts,
    )
    if not events:
        where = f"English {edition}" if edition else "any loaded English edition"
        raise Problem(f"no rule {rule} in {where}", 404)
    # A rule's history covers every rule below it (702.19 with 702.19a–g; 704 with 704.5j),
    # in the edition asked.
    shown_in = edition or max(d for d, rs in loaded if any(r.number == number for r in rs))
    heading = RuleNumber.of(number)
    below = sorted(
        {
            r.number
            for r in editions.get(shown_in, ())
            if r.kind == "rule"
            and r.number
            and r.number != number
            and heading
            and _under(heading, r)
        },
        key=sort_key,
    )
    subrules = {
        sub: [
            asdict(e)
            for e in events_of(
                sub,
                loaded,
                at=shown_in,
                ignore_typography=ignore_typography,
                compared=compared,
                texts=texts,
            )
        ]
        for sub in below
    }
    payload: dict[str, Any] = {
        "rule": number,
        "edition": edition,
        "key": _current_key(events, loaded),
        "oldest_loaded": loaded[0][0],
        "history": [asdict(e) for e in events],
        "subrules": subrules,
        **_read_as([(asked_edition, edition or "")], "English"),
    }
    if earlier := _numbered_before(number, events, loaded, texts, compared, ignore_typography):
        payload["before"] = earlier
    return payload


def _numbered_before(
    number: str,
    events: Sequence[Any],
    loaded: Sequence[tuple[str, Sequence[Record]]],
    texts: list[dict[str | None, str]],
    compared: dict[int, Any],
    ignore_typography: bool,
) -> dict[str, str] | None:
    """The rule an older edition numbered so, when the rule asked for took that number since
    (714.3a, a new rule of 2026-04-17, after the Saga rule of 2026-02-27; 725.1, The Monarch
    since 2026-08-07, the initiative before): that number's last edition and that rule's
    key, whose history is another."""
    from corpus.align.editions import history as events_of

    since = next((e.edition for e in events if e.number == number), None)
    if since is None:
        return None
    # Each edition's rules by number are at hand (`texts`): no edition's records read again.
    before = [
        d
        for (d, _), numbered in zip(loaded, texts, strict=True)
        if d < since and number in numbered
    ]
    if not before:
        return None
    # The history's own texts and comparisons, shared: the editions are not compared again.
    theirs = events_of(number, loaded, at=before[-1], ignore_typography=ignore_typography,
                       compared=compared, texts=texts)  # fmt: skip
    return {"until": before[-1], "key": _current_key(theirs, loaded)}


def _part_history(
    records: Sequence[Record], part: str, edition: str | None, ignore_typography: bool
) -> dict[str, Any]:
    from corpus.align.editions import by_edition
    from corpus.align.judge_editions import part_history

    doc = doc_of_key(part)
    editions = by_edition([r for r in records if doc_of_key(r.key) == doc], "en")
    loaded = list(editions.items())
    events = part_history(part, loaded, ignore_typography=ignore_typography)
    if not events:
        raise Problem(f"no {part} in any loaded edition; see `mtgrules sources`", 404)
    # A chapter's history covers its sections (MTR 2: 2.1 … 2.13), the JAR's Common Issues
    # its issues, as a rule's covers its subrules; a section is read whole, its parts included.
    chapter = part.rpartition(" ")[2].isdigit()
    below = sorted(
        {
            r.key
            for _, rs in loaded
            for r in rs
            if r.key != part and ((chapter and r.key.startswith(part + ".")) or r.parent == part)
        },
        key=lambda key: (sort_key(key), key),
    )
    subrules = {
        key: [asdict(e) for e in part_history(key, loaded, ignore_typography=ignore_typography)]
        for key in below
    }
    return {
        "rule": part,
        "edition": edition,
        "key": part,  # a judge document's part keeps its key through its editions
        "oldest_loaded": next(iter(editions)),
        "history": [asdict(e) for e in events],
        "subrules": subrules,
    }


def stale(records: Sequence[Record], langs: Sequence[str]) -> dict[str, Any]:
    """{"lang", "stale": [...]}."""
    from corpus.align.editions import by_edition
    from corpus.align.editions import stale as stale_rules

    records = [r for r in records if doc_of_key(r.key) == "cr"]  # translations follow the CR
    if not langs:
        from corpus.model.languages import TRANSLATED

        codes = ", ".join(TRANSLATED)
        raise Problem(f"give a translation's language with --lang: one of {codes}", 400)
    english = by_edition(records, "en")
    if not english:
        raise Problem("no English editions in the library; add one with `mtgrules add`", 404)
    from search.po_export import changed_besides_rules

    translations_held(records, langs)
    translated = newest_translations([r for r in records if r.lang in langs], list(english))
    found = stale_rules(translated, english)
    return {
        "lang": ",".join(langs),
        "stale": [s.to_json() for s in found],
        # The examples, notes and glossary entries whose English changed too: the PO export
        # marks them fuzzy beside the stale rules.
        "also_changed": [
            {"lang": lang, "key": key, "kind": kind}
            for lang in langs
            for key, kind in changed_besides_rules(records, english, lang)
        ],
        "notes": _compared_long_before(translated, list(english)),
    }


def newest_translations(translated: Sequence[Record], editions: list[str]) -> list[Record]:
    """Each language's rule from the document translated from the newest English among those
    that carry it (as `stale` dates them: corpus.align.editions.translated_from): a catalogue
    brought back from Crowdin beside its original is the translator's work now, and `stale`
    listed every rule twice, once per catalogue."""
    from corpus.align.editions import translated_documents, translated_from

    documents = translated_documents(translated)
    start = {source: translated_from(editions, own)[0] or "" for source, own in documents.items()}
    newest: dict[tuple[str, str], str] = {}
    for record in translated:
        at = (record.lang, record.key)
        newest[at] = max(newest.get(at, ""), start.get(record.source, ""))
    return [r for r in translated if start.get(r.source, "") == newest[r.lang, r.key]]


def also_changed(lang: str, items: Sequence[Mapping[str, Any]]) -> str:
    """One line for the examples, notes and glossary entries whose English changed too."""
    names = {"example": ("example", "examples"), "note": ("note", "notes")}
    names["glossary"] = ("glossary entry", "glossary entries")
    counts = {kind: sum(1 for i in items if i["kind"] == kind) for kind in names}
    counted = [f"{n} {names[kind][n > 1]}" for kind, n in counts.items() if n]
    glossary = [i["key"] for i in items if i["kind"] == "glossary"]
    named = f" ({', '.join(glossary[:5])}{', …' if len(glossary) > 5 else ''})" if glossary else ""
    return (
        f"also changed in English: {', '.join(counted)}{named}; `mtgrules export --format po "
        f"--lang {lang}` marks them fuzzy, with the English they were translated from"
    )


def translations_held(records: Sequence[Record], langs: Sequence[str]) -> None:
    """Problem (404) when a language asked for has no translation in the library: "0 pt rules
    are stale" or "0 problems" would read as a translation up to date."""
    held = {r.lang for r in records if r.lang != "en"}
    absent = [lang for lang in langs if lang != "en" and lang not in held]
    if absent:
        raise Problem(
            f"no {named(absent, ' or ')} translation in the library; add one with `mtgrules"
            " add` (`mtgrules sources` lists the documents here)",
            404,
        )


def stale_status(item: Mapping[str, Any]) -> str:
    """What happened to a stale translation's English, in words (the CLI's line, the web page):
    "changed", "moved and changed", "removed from English 2025-04-04"…"""
    status = item["status"]
    if status == "removed":
        return f"removed from English {item.get('removed_in') or item['english_to']}"
    if status == "moved" and item.get("references_only"):
        return "moved; only the rule numbers it cites changed"
    if status == "moved":
        return "moved; English text unchanged"
    if status == "changed" and item.get("references_only"):  # a number to update, no wording
        return "changed; only the rule numbers it cites"
    return "moved and changed" if status == "moved+changed" else "changed"


def stale_since(item: Mapping[str, Any]) -> str:
    """The English a stale translation was made from: an edition, or a fuzzy catalogue entry's
    previous msgid."""
    from corpus.align.editions import PREVIOUS_MSGID

    since: str = item["english_from"]
    return "of its previous msgid" if since == PREVIOUS_MSGID else since


def _compared_long_before(translated: Sequence[Record], dates: list[str]) -> list[str]:
    """A note for each dated translation compared with an English edition long before its date
    (corpus.qa.days_behind): its list holds what it may already have."""
    from corpus.align.editions import rules_of
    from corpus.qa import days_behind

    by_source: dict[str, list[Record]] = {}
    for record in translated:
        by_source.setdefault(record.source, []).append(record)
    notes = []
    for source, mine in sorted(by_source.items()):
        rules = rules_of(mine)
        compared = followed(dates, rules[0]) if rules else None
        if rules and compared and (gap := days_behind(rules[0], compared)) is not None:
            edition = rules[0].edition
            notes.append(
                f"{rules[0].lang} {source} is dated {edition} and compared with English "
                f"{compared}, the newest loaded on or before it ({gap:,} days older): what English "
                f"changed in between is listed too; add the English edition in effect on "
                f"{edition} for a truer list"
            )
    return notes


def check(records: Sequence[Record], langs: Sequence[str], termbase: Any) -> dict[str, Any]:
    """{"problems": [{"source", "number", "check", "message"}]}."""
    from corpus.align.editions import by_edition, rules_of
    from corpus.qa import coverage_problems, far_behind, translation_problems, translator_notes
    from corpus.read.numbering import numbering_problems

    records = [r for r in records if doc_of_key(r.key) == "cr"]  # translations follow the CR
    translations_held(records, langs)
    english = by_edition(records, "en")
    dates = list(english)
    by_source: dict[str, list[Record]] = {}
    for record in records:
        if not langs or record.lang in langs:
            by_source.setdefault(record.source, []).append(record)
    problems = []
    for _, mine in sorted(by_source.items()):
        rules = rules_of(mine)
        problems.extend(numbering_problems(mine))
        problems.extend(translator_notes(mine))
        if not rules or rules[0].lang == "en" or not english:
            continue
        compared = followed(dates, rules[0]) or ""
        if (far := far_behind(rules[0], compared)) is not None:
            problems.append(far)
        followed_rules = rules_of(english[compared])
        reference = {r.number: r for r in followed_rules}
        numbers = frozenset(r.number for r in followed_rules if r.number)
        if rules[0].follows and all(r.align.method == "number" for r in rules):
            problems.extend(coverage_problems(rules, followed_rules))
        for rule in rules:
            # In the translation's own numbering: its key is today's rule (rule identity),
            # its printed number the followed edition's; a content alignment has only its key,
            # and a misprinted number (the Spanish Clue printed 111.10b, read as 111.10f) is
            # compared as what it was read as, not with the other rule of that number.
            misprinted = "misnumbered" in rule.flags
            own_number = rule.key if rule.align.method == "content" or misprinted else rule.number
            counterpart = reference.get(own_number) if rule.align.method != "own" else None
            if counterpart is not None:
                problems.extend(translation_problems(rule, counterpart, termbase, numbers))
    from corpus.qa import ranked, severity

    out = [
        {**asdict(p), "kind": p.check, "severity": severity(p.check)[0]} for p in ranked(problems)
    ]
    counts = dict(Counter(p["kind"] for p in out))
    return {"counts": counts, "problems": out}


def sources(home: Path, write: bool = True) -> dict[str, Any]:
    """{"documents": [...], "failures": [...]}: every document with what was made of it.
    `write=False`: the parse cache is only read (the web app's routes write nothing)."""
    from corpus.model.dates import days_between

    loaded = library.load(home, write)
    summaries = [d.summary() for d in sorted(loaded.documents, key=lambda d: d.source)]
    english = sorted({str(d.edition) for d in loaded.documents if is_english_edition(d)})
    follows = followings(record for d in loaded.documents for record in d.records)
    for summary in summaries:
        summary["document"] = doc_of_layout(summary["format"])  # cr, mtr, ipg or jar
        metadata = summary["metadata"]
        pdf = metadata.get("format") == "PDF"
        summary["encoding"] = metadata.get("encoding") or ("PDF text" if pdf else "unknown")
        following = follows.get(summary["source"])
        summary["follows"] = (
            {**asdict(following), "evidence": following.evidence()} if following else None
        )
        summary["lag"] = None
        if following and english:
            days = days_between(following.edition, english[-1])
            summary["lag"] = {
                "english_in_effect": following.edition,
                "newest_english": english[-1],
                "days": days,
            }
    return {"documents": summaries, "failures": list(loaded.failures)}
