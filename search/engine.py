"""Run lookups and searches against the current index; results grouped by English key."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterable
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus import paths
from corpus.dates import resolve_edition
from corpus.languages import LANGUAGES
from corpus.mechanics import by_english, owned_rules, result_key
from corpus.numbers import RuleNumber, cited_numbers, sort_key
from corpus.paths import TERMBASE, TERMBASE_READY, VOCABULARY
from corpus.text import fold
from corpus.words import plural
from indexer.sidestore import CurrentKeys, Reader
from search.query import (
    OPERATORS,
    NumberQuery,
    QueryError,
    expand,
    validate,
    without_question_marks,
)
from search.results import Filters, Result, order_records, select_english

__all__ = ["Engine", "Filters", "Result"]

if TYPE_CHECKING:
    from corpus.terms import TermBase

ANSWERS_KEPT = 256  # searches an engine remembers
EXACT_NAME_BONUS = 2.0
DEFINITION_LEADS = 1.05  # the rule a glossary entry sends to, just above the entry
OTHER_LANGUAGE_WEIGHT = 0.5


class Engine:
    """Whoosh finds and ranks versions; the side store gives the records of a key. A lookup by
    rule number needs only the side store, so Whoosh is opened on the first search."""

    def __init__(self, folder: Path, english_editions: Iterable[str] = ()) -> None:
        self.english_editions = tuple(sorted(english_editions))
        self.folder = folder
        self.versions = Reader(folder)  # each version's record, editions and sources
        # After a search that no rule matched in full: it fell back to some of the words
        # (partial), and these were found nowhere (missing).
        self.missing: list[str] = []
        self.partial = False
        # Answers by (query, filters, limit), oldest first: an engine serves one build.
        self._answers: dict[tuple[str, Filters, int], Any] = {}

    @classmethod
    def of_build(cls, home: Path, current: dict[str, Any]) -> Engine:
        """The engine of the build `current` (a home's CURRENT) names."""
        folder = paths.index_root(home) / current["dir"]
        return cls(folder, current.get("english_editions", []))

    @cached_property
    def searcher(self) -> Any:
        from search.light_imports import light_imports

        with light_imports():
            from whoosh import (
                index,
                reading,  # noqa: F401 - the module that needs cached_property
                searching,  # noqa: F401 - the modules that import morph_en's variations
            )

        from search.scoring import PerLanguageBM25F

        # Weaker length normalization than the default (0.75): a long rule that defines a term
        # and repeats it should not lose to a short one that mentions it once.
        return index.open_dir(str(self.folder)).searcher(weighting=PerLanguageBM25F(B=0.4))

    @cached_property
    def _columns(self) -> tuple[Any, Any]:
        """Each document's key and language, by document number."""
        reader = self.searcher.reader()
        # Whoosh keeps each rule's origin; a renumbering renames the current key beside it.
        keys = CurrentKeys(reader.column_reader("key"), self.versions.current_keys())
        return keys, reader.column_reader("lang")

    def _definitions_lead_to_rules(self, best: dict[str, float]) -> None:
        """A glossary entry among the best hits puts the rule it sends to ("See rule 704.5j";
        of several, the most specific) just above itself: the definition is found, the rule is
        the answer."""
        if not self.english_editions:
            return
        top = sorted(best, key=lambda k: -best[k])[:10]
        # A mechanic's key already shows its rule (Station with 702.184).
        entries = [k for k in top if RuleNumber.of(k) is None and by_english(k) is None]
        if not entries:
            return
        newest = self.english_editions[-1]
        for record in self.versions.with_keys(entries):
            if record.lang != "en" or record.kind != "glossary":
                continue
            if newest not in record.editions:
                continue
            cited = cited_numbers(record.text)
            if cited and record.key in best:
                target = max(
                    cited, key=lambda n: (n.count(".") + n[-1:].isalpha(), -cited.index(n))
                )
                best[target] = max(best.get(target, 0.0), best[record.key] * DEFINITION_LEADS)

    @cached_property
    def _outdated(self) -> set[int]:
        """Document numbers of English versions no longer in the newest edition (stored by the
        build: indexer/masks.py)."""
        from indexer.masks import read_outdated

        return read_outdated(self.folder) or set()

    def close(self) -> None:
        if "searcher" in self.__dict__:
            self.searcher.close()
        self.versions.close()

    def with_edition(self, filters: Filters) -> Filters:
        """The filters with `latest` read as the newest English edition; QueryError when no
        text of the library has the edition asked for."""
        edition = filters.edition
        if edition:
            edition = resolve_edition(edition, self.english_editions)
            filters = dataclasses.replace(filters, edition=edition)
        if edition and not self.versions.has_edition(edition):
            loaded = ", ".join(self.english_editions) or "none"
            raise QueryError(
                f"no text of edition {edition} in the library; English editions loaded: {loaded}"
            )
        return filters

    def _filter(self, filters: Filters) -> Any:
        """A Whoosh filter: a query for languages and kinds, a set of documents with an
        edition (editions are in the side store, not in the index)."""
        from whoosh.query import Or, Term

        query = filters.whoosh()
        if not filters.edition:
            return query
        vids = self.versions.vids_in(filters.edition)
        documents = set(self.searcher.docs_for_query(Or([Term("vid", v) for v in vids])))
        if query is not None:
            documents &= set(self.searcher.docs_for_query(query))
        return documents

    # --- rule numbers ------------------------------------------------------------------------

    def lookup(self, number: NumberQuery, filters: Filters) -> list[Result]:
        if number.is_section:
            records = self.versions.in_section(number.number)
        elif number.alone:
            records = self.versions.with_keys([number.number])
        else:
            records = self.versions.with_keys([], prefixes=[number.number])
        groups: dict[str, Result] = {}
        for record in records:
            key = record.key
            if number.covers(key) and filters.keep(record):
                groups.setdefault(key, Result(key, 1.0)).records.append(record)
        mechanic = owned_rules().get(number.number)
        if mechanic and number.number in groups:
            groups[number.number].records.extend(
                r for r in self.versions.with_keys([mechanic]) if filters.keep(r)
            )
        results = sorted(groups.values(), key=lambda r: sort_key(r.key))
        self._arrange(results, filters)
        return results

    def _arrange(self, results: list[Result], filters: Filters) -> None:
        """Each result's records in reading order, with the English versions a reader needs."""
        for result in results:
            result.records = order_records(result.records)
            select_english(result, self.english_editions, filters.edition)

    # --- words --------------------------------------------------------------------------------

    def search(self, text: str, filters: Filters, limit: int) -> tuple[list[Result], set[str]]:
        """Ranked results and the folded, stemmed words that matched (for highlighting). A
        query asked again of the same engine (the web app's) is answered from memory."""
        asked_before = self._answers.get((text, filters, limit))
        if asked_before is not None:
            results, matched, self.missing, self.partial = copy.deepcopy(asked_before)
            return results, matched
        results, matched = self._search(text, filters, limit)
        if len(self._answers) >= ANSWERS_KEPT:
            self._answers.pop(next(iter(self._answers)))  # the oldest
        self._answers[text, filters, limit] = copy.deepcopy(
            (results, matched, self.missing, self.partial)
        )
        return results, matched

    def _search(self, text: str, filters: Filters, limit: int) -> tuple[list[Result], set[str]]:
        from search import builder

        text = validate(text)
        questioned = text.rstrip().endswith("?")
        text = without_question_marks(text)
        self.missing, self.partial = [], False
        languages = self.query_languages(text)
        # A question is answered by the rules with most of its words, not only all of them.
        asked = builder.is_plain(text) and (questioned or builder.is_question(text))
        query, matched = (
            builder.build(text, self.translations, is_stop_word, False, tuple(languages))
            if asked
            else self.query(text, tuple(languages))
        )
        found = self._filter(filters)
        # A key is ranked on the text it shows: English as of the newest edition, unless an
        # edition is asked for (--edition) or all of them (--all-editions).
        hidden = None if filters.edition or filters.all_editions else self._outdated
        hits = self.searcher.search(
            query, limit=max(200, limit * 20), filter=found, mask=hidden or None
        )
        if asked:
            self.missing = self._not_found(text, tuple(languages))
            self.partial = bool(self.missing)
        elif (
            not hits.top_n
            and builder.is_plain(text)
            and len(builder.content_tokens(text, is_stop_word)) > 1
        ):
            # No rule has every word: rules with some of them, ranked by how many and how rare,
            # and which words were found nowhere.
            self.missing, self.partial = self._not_found(text, tuple(languages)), True
            query, matched = builder.build(
                text, self.translations, is_stop_word, False, tuple(languages)
            )
            hits = self.searcher.search(
                query, limit=max(200, limit * 20), filter=found, mask=hidden or None
            )
        keys, langs = self._columns
        best: dict[str, float] = {}
        for score, docnum in hits.top_n:
            key = result_key(keys[docnum])
            # Evidence in the query's own language counts fully, and in English, the language
            # every key is ruled in; another translation's match less.
            own = not languages or langs[docnum] in languages or langs[docnum] == "en"
            weight = 1.0 if own else OTHER_LANGUAGE_WEIGHT
            best[key] = max(best.get(key, 0.0), score * weight)
        # A query that names a key or a heading exactly ("Station", "Supertipi"), or a concept
        # in any language ("azione generata dallo stato": State-Based Actions), asks for it:
        # the concept's own section and definition outrank the rules that mention it.
        asking = " ".join(builder.content_tokens(text, is_stop_word)) if asked else text
        named = {fold(asking.strip().strip('"'))}
        for concept in self._concepts_named(asking.strip().strip('"'), asked):
            named |= {fold(concept), fold(plural(concept))}
        named_keys = {key for key in best if fold(key) in named}
        headed = {result_key(key) for name in named for key in self.versions.headed(name)}
        # A word a list names has its place in that list (Wizard: the creature types, 205.3m).
        headed |= {key for name in named for key in self.versions.listing(name)}
        named_keys |= headed & set(best)
        for key in named_keys:
            best[key] *= EXACT_NAME_BONUS
        self._definitions_lead_to_rules(best)
        ranked = sorted(best.items(), key=lambda item: (-item[1], sort_key(item[0])))[:limit]
        results = [Result(key, score) for key, score in ranked]
        self._fill(results, filters)
        return results, set(matched)

    def _concepts_named(self, text: str, asked: bool) -> set[str]:
        """The concepts the whole query names; for a question, else those all of it but one
        word names, in one piece ("come si sacrifica un permanente": sacrifice). A query of
        terms ("supertipo mondo") asks for the rule where they meet, not for their sections."""
        whole = self.termbase.named_by(text)
        words = [w for w in text.split() if not is_stop_word(w.lower())]
        if whole or len(words) < 2 or not asked:
            return whole
        return self.termbase.named_by(" ".join(words[1:])) | self.termbase.named_by(
            " ".join(words[:-1])
        )

    def _not_found(self, text: str, languages: tuple[str, ...]) -> list[str]:
        """The query's words found nowhere in the index, nor through their translations."""
        from search import builder

        words = builder.content_tokens(text, is_stop_word)
        return [w for w in words if not self._finds(w, languages)]

    def _finds(self, word: str, languages: tuple[str, ...] = ()) -> bool:
        from search import builder

        try:
            query, _ = builder.build(word, self.translations, is_stop_word, True, languages)
        except QueryError:
            return False
        # One word's query is an OR of terms and phrases: found when any term is in the index
        # (a phrase's words are, at least). Counting is much quicker than searching.
        reader = self.searcher.reader()
        return any(reader.doc_frequency(field, text) for field, text in query.iter_all_terms())

    def query(self, text: str, languages: tuple[str, ...] = ()) -> tuple[Any, list[str]]:
        """The Whoosh query and the words it searches: built directly for words and phrases,
        parsed when the query has operators."""
        from search import builder

        if builder.is_plain(text):
            return builder.build(text, self.translations, is_stop_word, True, languages)
        query = self.parse(text)
        return query, sorted({w for _, w in query.iter_all_terms() if isinstance(w, str)})

    def _fill(self, results: list[Result], filters: Filters) -> None:
        if not results:
            return
        by_key = {result.key: result for result in results}
        owned = [rule for rule, name in owned_rules().items() if name in by_key]
        for record in self.versions.with_keys(list(by_key), prefixes=owned):
            key = record.key if record.key in by_key else result_key(record.key)
            if key in by_key and filters.keep(record):
                by_key[key].records.append(record)
        self._arrange(results, filters)

    def parse(self, text: str):
        from whoosh import qparser
        from whoosh.query import NullQuery

        from indexer.schema import INDEX_LANGS, TERMS_FIELD, text_field

        fields = [text_field(lang) for lang in INDEX_LANGS] + [TERMS_FIELD]
        parser = qparser.MultifieldParser(fields, self.searcher.schema, group=qparser.AndGroup)
        for plugin in (qparser.WildcardPlugin, qparser.FieldsPlugin, qparser.PlusMinusPlugin):
            parser.remove_plugin_class(plugin)
        expanded = expand(text, self.translations, is_stop_word)
        if not expanded.strip():
            raise QueryError(
                f"query {text!r} has only common words (stop words); add a content word"
            )
        try:
            query = parser.parse(expanded)
        except Exception:  # Whoosh's parser fails on some operator tangles ("* NOT OR *")
            plain = " ".join(re.findall(r"[^\W_]+(?:[-'’.][^\W_]+)*", text))
            if not plain or plain == text:
                raise QueryError(
                    f"query {text!r} cannot be parsed; check its operators and quotes"
                ) from None
            return self.parse(plain)  # the words alone, all required
        if query is NullQuery or not list(query.iter_all_terms()):
            raise QueryError(f"query {text!r} has no searchable words")
        return query

    def query_languages(self, text: str) -> list[str]:
        """The language a query is written in, when its words say so: a word found in only one
        language's texts is a vote for it ("sous-types" is French, "séparés" could be English
        "separate" too)."""
        from indexer.schema import INDEX_LANGS
        from search.builder import QUESTION_WORDS_BY_LANG

        votes: dict[str, int] = {}
        for word in re.findall(r"[^\W\d_][\w'’-]*", text):
            if word in OPERATORS:
                continue
            lower = word.lower()
            # Question and function words that belong to one language only ("comment", "gli").
            marked = {
                code
                for code, language in LANGUAGES.items()
                if lower in language.marker_words or lower in QUESTION_WORDS_BY_LANG[code]
            }
            if len(marked) == 1:
                (lang,) = marked
                votes[lang] = votes.get(lang, 0) + 1
                continue
            present = {lang for lang in INDEX_LANGS if self._written_in(word, [lang])}
            if self.termbase.names_english_concept(word):
                present.add("en")  # English even when no English text is loaded
            present |= self.termbase.languages_of(word)  # "joueur": a French term
            if len(present) == 1:
                (lang,) = present
                votes[lang] = votes.get(lang, 0) + 1
        if not votes:
            return []
        best = max(votes.values())
        winners = [lang for lang, n in votes.items() if n == best]
        return winners if len(winners) == 1 else []

    # --- the term base --------------------------------------------------------------------------

    @cached_property
    def termbase(self) -> TermBase:
        """The term base the index was built with (parenthesised names included)."""
        from corpus.terms import TermBase, static_terms

        built = TermBase.read(self.folder / TERMBASE_READY, self.folder / TERMBASE)
        return built or TermBase(static_terms())

    def translations(self, word: str) -> set[tuple[str, str]]:
        """A word in any language -> (language, term) of its English concepts in every
        language, English included."""
        found: set[tuple[str, str]] = set()
        for term in self.termbase.lookup(word):
            found.update((("en", term.english), (term.lang, term.term)))
        return {(lang, t) for lang, t in found if len(t.split()) <= 5}

    def rules_using(self, concept: str, limit: int = 20) -> list[str]:
        """Keys of the records that mention an English concept, most mentions first: English
        rules by their text, translations by the concepts found in theirs."""
        from whoosh.query import Or, Phrase, Term

        from indexer.analyzers import stems
        from indexer.schema import TERMS_FIELD, text_field

        words = stems(concept, "en")
        if not words:
            return []
        query = Or(
            [
                Term(field, words[0]) if len(words) == 1 else Phrase(field, words)
                for field in (TERMS_FIELD, text_field("en"))
            ]
        )
        keys: dict[str, None] = {}
        column, _ = self._columns
        for _, docnum in self.searcher.search(query, limit=200).top_n:
            keys.setdefault(result_key(column[docnum]), None)
        # The index stems ("deserter" finds "desert"): keep the rules whose text names the
        # concept itself, as the term base reads it.
        naming: dict[str, None] = {}
        for record in self.versions.with_keys(list(keys)):
            if concept in record.terms or concept in self.termbase.concepts_in(
                f"{record.title or ''} {record.text}", record.lang
            ):
                naming.setdefault(result_key(record.key), None)
        return [key for key in keys if key in naming][:limit]

    # --- suggestions and references ---------------------------------------------------------

    def suggestions(self, text: str, limit: int = 3) -> list[str]:
        """Close words from the index vocabulary, for a query that matched nothing."""
        from difflib import get_close_matches

        from indexer.analyzers import folding_analyzer

        try:
            words = (self.folder / VOCABULARY).read_text("utf-8").split("\n")
        except OSError:
            return []
        known = set(words)
        found: dict[str, None] = {}
        for token in folding_analyzer()(text):
            if len(token.text) > 2 and token.text not in known:
                found.update(
                    dict.fromkeys(get_close_matches(token.text, words, n=limit * 3, cutoff=0.75))
                )
        # A Spanish judge is offered Spanish words, not Italian ones ("neve" for "nieve").
        languages = self.query_languages(text)
        if languages:
            found = {word: None for word in found if self._written_in(word, languages)}
        return list(found)[:limit]

    def _written_in(self, word: str, languages: list[str]) -> bool:
        """Whether a word is in the index's text of any of these languages."""
        from indexer.analyzers import analyzer
        from indexer.schema import text_field

        reader = self.searcher.reader()
        return any(
            reader.doc_frequency(text_field(lang), token.text)
            for lang in languages
            for token in analyzer(lang)(word)
        )

    def referring_to(self, key: str) -> list[str]:
        """Keys of the records whose text cites this rule number."""
        keys = set(self.versions.citing(key))
        keys.discard(key)
        return sorted(keys, key=sort_key)


@cache
def stop_words() -> frozenset[str]:
    """Every language's stop words, as its analyzer drops them."""
    from indexer.analyzers import stop_words as language_stop_words
    from indexer.schema import INDEX_LANGS

    return frozenset(word for lang in INDEX_LANGS for word in language_stop_words(lang))


def is_stop_word(word: str) -> bool:
    return word in stop_words()
