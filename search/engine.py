"""Run lookups and searches against the current index; results grouped by English key."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus import paths
from corpus.model.dates import in_effect_on, resolve_edition
from corpus.model.documents import JUDGE, doc_of_key
from corpus.model.mechanics import result_key
from corpus.model.numbers import RuleNumber, cited_numbers, parent_of, sort_key
from corpus.model.text import fold
from corpus.paths import TERMBASE, TERMBASE_READY, VOCABULARY
from indexer.sidestore import CurrentKeys, Reader
from search import present
from search.errors import UnknownEdition
from search.query import NumberQuery, Translations
from search.results import Filters, Result, SearchOutcome

__all__ = ["Engine", "Filters", "Result", "SearchOutcome"]

if TYPE_CHECKING:
    from corpus.model.lemmas import Lemmas
    from corpus.model.records import StoredRecord
    from corpus.terms.termbase import TermBase
    from indexer.store import Current
    from search.judge_named import Infractions, JudgeNaming
    from search.parse import Query

ANSWERS_KEPT = 256  # searches an engine remembers
# How alike a word found nowhere and the word it is searched as must be (difflib's ratio):
# "arollar" and "arrollar" 0.93, "letalle" and "letale" 0.92; "arrolarr" (0.875) is offered, not
# searched.
CORRECTED_RATIO = 0.88
LEXICAL_DEPTH = 200  # Whoosh's candidates, at least: re-ranking needs more than are shown
DENSE_DEPTH = 100  # the encoder's nearest texts
GONE_LOOKED_AT = 40  # the best keys asked whether the newest English edition still has them
# A tournament's question: the judge documents' best come first, then every document's.
# eval/judge-tuning.tsv, hit@3 0.56 -> 0.65 (questions-tuning's judge questions 0.75 -> 0.88).
JUDGE_FIRST = 5
WILDCARD_WORDS = 30  # the words a wildcard stands for, the most frequent
KEYWORD_SECTION = re.compile(r"702\.\d+")  # a keyword ability's section
GLOSSARY_REDIRECT = re.compile(r"See ([^.]+)\.")  # an entry that is another's other name
KEYWORD_HEADING = r"70[12]\.\d+"  # a keyword action's or ability's section
# The word between a keyword and its quality as cards print it, in each language ("protection
# from red", "affinity for artifacts", "protezione dal rosso", "protection contre le rouge",
# "protección contra el rojo"), and how many words the quality may have.
QUALITY_LINKS = frozenset(
    {"from", "for"}  # English: protection from red, affinity for artifacts
    | {"da", "dal", "dalla", "dai", "dagli", "dalle", "contro", "per"}  # Italian
    | {"contre", "pour"}  # French: protection contre le rouge, affinité pour les artefacts
    | {"contra", "por"}  # Spanish: protección contra el rojo, afinidad por los artefactos
)
QUALITY_WORDS = 3


class Remembered:
    """A Whoosh column read once per document: a stored column decodes on every read, and the
    same documents come back query after query."""

    def __init__(self, column: Any) -> None:
        self.column = column
        self.read: dict[int, Any] = {}

    def __getitem__(self, docnum: int) -> Any:
        if docnum not in self.read:
            self.read[docnum] = self.column[docnum]
        return self.read[docnum]


class Engine:
    """Whoosh finds and ranks versions; the side store gives the records of a key. A lookup by
    rule number needs only the side store, so Whoosh is opened on the first search."""

    def __init__(
        self, folder: Path, english_editions: Iterable[str] = (), home: Path | None = None
    ) -> None:
        self.english_editions = tuple(sorted(english_editions))
        self.folder = folder
        self.home = home  # where the encoder's cache is (meaning-based retrieval)
        self.versions = Reader(folder)  # each version's record, editions and sources
        # Answers by (query, filters, limit), oldest first: an engine serves one build.
        self._answers: dict[tuple[str, Filters, int], SearchOutcome] = {}
        self._searches = 0
        self._written: dict[tuple[str, tuple[str, ...]], bool] = {}
        self._translated: dict[tuple[str, tuple[str, ...]], set[tuple[str, str]]] = {}
        self._in_rules: dict[str, bool] = {}  # English concepts the CR has (_in_the_rules)
        self._scan: Any = None

    @classmethod
    def of_build(cls, home: Path, current: Current) -> Engine:
        """The engine of the build `current` (a home's CURRENT) names."""
        return cls(paths.index_root(home) / current.dir, list(current.english_editions), home)

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
        return Remembered(keys), Remembered(reader.column_reader("lang"))

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
        text of the library has the edition asked for (UnknownEdition)."""
        edition = filters.edition
        known = True
        if edition:
            asked = edition = resolve_edition(edition, self.english_editions)
            # Each judge document's edition in effect on the date asked, by its own dates (the
            # MTR of 2024-12-16 on 2024-12-20, though the CR's then is 2024-11-08's).
            in_effect = tuple(
                (doc, newest)
                for doc, dates in self.judge_editions.items()
                if (newest := in_effect_on(dates, asked))
            )
            if not (known := self.versions.has_edition(edition)):
                # A date between editions: the rules in effect then, the newest English
                # edition on or before it; a library of judge documents only has theirs.
                newest = in_effect_on(self.english_editions, edition)
                edition, known = newest or edition, newest is not None or bool(in_effect)
            not_yet = tuple(
                (doc, dates[0])
                for doc, dates in self.judge_editions.items()
                if dates and doc not in dict(in_effect)
            )
            oldest = self.english_editions[0] if self.english_editions else None
            if oldest and asked < oldest:
                # Before the CR's first edition here, only judge documents answer: say so
                # ("no rule 725.1 in the library" was false).
                not_yet = (("cr", oldest), *not_yet)
            filters = dataclasses.replace(
                filters,
                edition=edition,
                in_effect=in_effect,
                not_yet=not_yet,
                asked_edition=filters.edition,
            )
        if not known:
            raise UnknownEdition(
                f"no text of edition {edition} in the library; {self._editions_loaded(filters)}"
            )
        return filters

    def _editions_loaded(self, filters: Filters) -> str:
        """The editions a date could have asked for: the judge documents' own when only they
        are searched (`--doc ipg`), else the English CR's."""
        if filters.docs and set(filters.docs) <= set(JUDGE):
            loaded = {doc: ", ".join(self.judge_editions.get(doc, [])) for doc in filters.docs}
            return "; ".join(
                f"{doc.upper()} editions loaded: {dates or 'none'}" for doc, dates in loaded.items()
            )
        return f"English editions loaded: {', '.join(self.english_editions) or 'none'}"

    @cached_property
    def judge_editions(self) -> dict[str, list[str]]:
        """Each judge document's editions in this build, oldest first (read once: a web app
        asks often)."""
        return self.versions.judge_editions()

    def _filter(self, filters: Filters) -> Any:
        """A Whoosh filter: a query for languages and kinds, a set of documents with an
        edition (editions are in the side store, not in the index)."""
        from whoosh.query import Or, Term

        query = filters.whoosh()
        if not filters.edition:
            return query
        dates = {filters.edition, *(date for _, date in filters.in_effect)}
        vids = [vid for date in sorted(dates) for vid in self.versions.vids_in(date)]
        documents = set(self.searcher.docs_for_query(Or([Term("vid", v) for v in vids])))
        if query is not None:
            documents &= set(self.searcher.docs_for_query(query))
        return documents

    # --- rule numbers ------------------------------------------------------------------------

    def lookup(self, number: NumberQuery, filters: Filters) -> list[Result]:
        """The results of a rule number (no Whoosh: the side store has them by key)."""
        return present.looked_up(number, self.versions, filters, self.english_editions)

    def lookup_part(self, key: str, filters: Filters) -> list[Result]:
        """A part of a judge document by its key (corpus/model/documents.py): a chapter with its
        sections ("MTR 2": MTR 2.1, MTR 2.2 …), a section, an appendix, a JAR part."""
        return present.looked_up_part(key, self.versions, filters, self.english_editions)

    # --- words --------------------------------------------------------------------------------

    def search(self, text: str, filters: Filters, limit: int) -> SearchOutcome:
        """Ranked results, the words that matched and those found nowhere. A query asked
        again of the same engine (the web app's) is answered from memory."""
        asked_before = self._answers.get((text, filters, limit))
        if asked_before is not None:
            return asked_before.copied()
        outcome = self._search(text, filters, limit)
        if len(self._answers) >= ANSWERS_KEPT:
            self._answers.pop(next(iter(self._answers)))  # the oldest
        self._answers[text, filters, limit] = outcome.copied()
        return outcome

    def _search(self, text: str, filters: Filters, limit: int) -> SearchOutcome:
        """The stages in order: parse, retrieve, rank (each rule in turn), present."""
        # Whoosh first, under its light imports (search/light_imports.py), before the stages'
        # modules import parts of it as they are.
        self.searcher  # noqa: B018
        from search.parse import parse, without_asking_words

        query = parse(self._without_keyword_parameter(text), self)
        infractions = self.judge_naming.of(query)
        if infractions.tournament:
            query = dataclasses.replace(query, tournament=True)
        if query.tournament and not filters.docs:
            # A tournament's question is asked of the judge documents first, ranked among
            # themselves: a penalty's section against the other sections, not against the
            # CR's thousands of rules that share its words ("pesca otto carte": 103.5 beside
            # IPG 2.4's example). Then the rest, as any query.
            judged = dataclasses.replace(filters, docs=JUDGE)
            own = self._ranked(without_asking_words(query), judged, limit, infractions)
            general = self._ranked(query, filters, limit, infractions)
            return own.followed_by(general, limit, JUDGE_FIRST)
        if query.tournament and filters.docs and set(filters.docs) <= set(JUDGE):
            # Asked of the judge documents alone (--doc ipg,mtr): as the judge pass above.
            query = without_asking_words(query)
        return self._ranked(query, filters, limit, infractions)

    def _ranked(
        self, query: Query, filters: Filters, limit: int, infractions: Infractions
    ) -> SearchOutcome:
        """Retrieve, rank and present a parsed query's results among the filters'."""
        from search import rank, retrieve

        # A key is ranked on the text it shows: English as of the newest edition, unless an
        # edition is asked for (--edition) or all of them (--all-editions).
        ranking = self._as_today(filters)
        older_edition = bool(ranking.edition or ranking.all_editions)
        hidden = None if older_edition else self._outdated
        lexical = retrieve.lexical(
            self.searcher,
            self._columns,
            query,
            self.translator(query),
            depth=max(LEXICAL_DEPTH, limit * 20),
            within=self._filter(ranking),
            older_edition=older_edition,
            hidden=hidden,
            scanner=self._scanner(),
        )
        by_words = scores = rank.by_key(lexical.candidates, query.languages, self.coverage)
        dense = ()
        if retrieve.wants_meaning(query, lexical):
            dense = self._dense(query, ranking, retrieve.dense_floor(lexical))
        by_meaning = rank.by_key(dense, query.languages)
        if dense:
            scores = rank.fused(scores, by_meaning)
        scores = rank.two_player_game_first(scores, query.variant)
        named = infractions.named
        keyword = self._keyword_with_quality(query)
        # The rules headed by what the query typed, as written ("counters": 122).
        typed = self._headed({fold(query.named)}) if query.named else set()
        scores = rank.named_rules_present(scores, self._concept_rules(query))
        scores = rank.raised_to_the_best(scores, keyword)
        named_keys = self._named_keys(query, scores, named, typed)
        scores = rank.exact_name_bonus(scores, named_keys | keyword)
        scores = rank.keyword_sections_first(scores, self._keyword_sections(query))
        leads = self._definition_leads(rank.definition_entries(scores), typed)
        scores = rank.definitions_lead_to_rules(scores, leads)
        # An infraction's name, in any language, is a tournament's word ("cartas marcadas").
        tournament = query.tournament or bool(named)
        if query.level_document == "jar":
            scores = rank.fixed_at_regular(scores, self.judge_naming.regular_counterparts)
        scores = rank.judge_documents_first(scores, tournament, query.level_document)
        if dense:
            scores = rank.learned_order(scores, by_words, by_meaning)
        if infractions.first:
            # First, whether or not the query's words found it (they are not its name's).
            top = max(scores.values(), default=0.0)
            scores = {**scores, **{key: top + 1.0 for key in infractions.first}}
        if filters.docs:
            # The encoder's nearest keep their ranks among every text (`_dense`): ranked
            # among the judge documents' texts alone, the judge pass read hit@3 0.60 against
            # 0.67 on eval/judge-tuning.tsv. So the documents asked for are kept here, by key,
            # or other documents' keys would be results with nothing to show.
            scores = {key: s for key, s in scores.items() if doc_of_key(key) in filters.docs}
        if hidden is not None:  # the newest English edition's text is what is shown
            scores = rank.current_rules_first(scores, self._gone(scores))
        scores, gathered = rank.siblings_gathered(scores, self._subrule_count)
        results = present.first_filled(
            limit, scores, self.versions, filters, self.english_editions, gathered
        )
        alone = bool(dense) and bool(results) and not lexical.candidates  # "arollar"
        if infractions.first:  # the infraction its words mean answers it: none "nowhere"
            return SearchOutcome(results, lexical.matched, judged=tournament)
        return SearchOutcome(
            results, lexical.matched, lexical.missing, lexical.partial, alone, tournament
        )

    def _as_today(self, filters: Filters) -> Filters:
        """The filters a search ranks by: an edition asked for that is today's (`latest`, the
        newest English edition's date, each judge document's newest edition in effect then)
        ranks as no edition does, on the texts shown by default and by meaning too. Ranked
        among that edition's texts alone, `--edition latest` lost the translations and the
        encoder, and answered otherwise than a search without it."""
        newest = self.english_editions[-1] if self.english_editions else None
        if not filters.edition or filters.edition != newest:
            return filters
        judges = self.judge_editions
        if any(date != judges.get(doc, [date])[-1] for doc, date in filters.in_effect):
            return filters
        return dataclasses.replace(filters, edition=None, in_effect=())

    def _gone(self, scores: Mapping[str, float]) -> set[str]:
        """The best keys' CR rules and entries that the newest English edition no longer has."""
        if not self.english_editions:
            return set()
        from search.rank import ranked

        best = [key for key, _ in ranked(scores, GONE_LOOKED_AT) if doc_of_key(key) == "cr"]
        return self.versions.gone_from(best, self.english_editions[-1])

    def _without_keyword_parameter(self, text: str) -> str:
        """A keyword with its number as cards print it ("scry 2", "egida 2", "macinare 3"),
        alone or in a question ("profetizzare 2 come funziona", "cosa vuol dire macinare 3
        carte"), asks for the keyword: its number is a parameter no rule prints (701.22 says
        "scry N"), and as a required word it left the keyword's rules out for those that print
        the number."""
        tokens = text.split()
        kept = [
            token
            for at, token in enumerate(tokens)
            if not (at and is_keyword_number(token) and self._a_keyword(tokens[:at]))
        ]
        return " ".join(kept) if len(kept) < len(tokens) else text.strip()

    def _keyword_with_quality(self, query: Query) -> set[str]:
        """The keyword ability's section a few words name with its quality, as cards print it
        ("protection from red", "protección contra el rojo": 702.16): the keyword is asked for,
        not the rules that happen to print the same quality (613.10's example, Splice's)."""
        if query.asked or not query.plain:
            return set()
        tokens = query.text.split()
        for at in range(1, min(4, len(tokens) - 1)):
            if tokens[at].lower() in QUALITY_LINKS and len(tokens) - at - 1 <= QUALITY_WORDS:
                keys = {result_key(k) for k in self._keyword_headings(" ".join(tokens[:at]))}
                # Keyword abilities only: an action's "cast from exile", "sacrifice for mana"
                # are a verb's objects, not its quality.
                return {key for key in keys if KEYWORD_SECTION.fullmatch(key)}
        return set()

    def _a_keyword(self, before: list[str]) -> bool:
        """Whether the last one to three words of `before` name a keyword (701 or 702)."""
        from search.parse import SENTENCE_MARKS

        return any(
            self._keyword_headings(" ".join(before[-size:]).strip(SENTENCE_MARKS))
            for size in range(1, min(3, len(before)) + 1)
        )

    def _keyword_headings(self, name: str) -> set[str]:
        """The keyword actions' and abilities' sections (701.x, 702.x) headed by the concepts
        these words name."""
        concepts = self.termbase.named_by(name)
        keys = {key for concept in concepts for key in self.versions.headed(fold(concept))}
        return {key for key in keys if re.fullmatch(KEYWORD_HEADING, key)}

    @cached_property
    def judge_naming(self) -> JudgeNaming:
        """The judge documents' parts queries name (search/judge_named.py)."""
        from search.judge_named import JudgeNaming

        return JudgeNaming(self)

    def _subrule_count(self, rule: str) -> int:
        """How many subrules a rule has (any edition, any language: its keys)."""
        return sum(parent_of(key) == rule for key in self.versions.keys_under(rule))

    def _scanner(self) -> Any:
        """Whoosh's documents scored in arrays (search/scan.py) from an engine's second search
        on: a process that searches once (the command line) would spend more on importing numpy
        than it saves; one that answers many (the web app, the eval) saves most of each query's
        time, and keeps each term's scored postings for the next."""
        self._searches += 1
        if self._searches < 2:
            return None
        if self._scan is None:
            from search.scan import Scanner

            self._scan = Scanner(self.searcher)
        return self._scan

    @cached_property
    def coverage(self) -> dict[str, float]:
        """Each language's share of the English texts a default search shows: its indexed
        texts against English's newest (the outdated ones are all English)."""
        from indexer.schema import INDEX_LANGS

        reader = self.searcher.reader()
        counts = {lang: reader.doc_frequency("lang", lang) for lang in INDEX_LANGS}
        english = counts["en"] - len(self._outdated)
        shares = {lang: n / english if english > 0 else 1.0 for lang, n in counts.items()}
        return {**shares, "en": 1.0}

    def languages_of(self, doc: str | None = None) -> list[str]:
        """The languages the library has a document (cr, mtr, ipg, jar) in; any, without one."""
        from whoosh.query import And, Term

        from indexer.schema import INDEX_LANGS

        def has(lang: str) -> bool:
            query = And([Term("doc", doc), Term("lang", lang)]) if doc else Term("lang", lang)
            return next(iter(self.searcher.docs_for_query(query)), None) is not None

        return [lang for lang in INDEX_LANGS if has(lang)]

    @cached_property
    def meaning(self) -> Any:
        """The build's vectors and the encoder (search/meaning.py), or None while there are
        none: numpy and the encoder load on the first search that ranks by meaning."""
        from search.meaning import open_meaning

        return open_meaning(self.folder, self.home)

    def _dense(self, query: Query, filters: Filters, floor: float) -> tuple[Any, ...]:
        """The candidates by meaning: none while the vectors are being prepared, and none for
        an edition other than the newest (the vectors are of the texts a default search
        shows). Of every document, whatever `filters.docs` asks (`_ranked` keeps those)."""
        from search import retrieve

        if self.meaning is None or filters.edition or filters.all_editions:
            return ()
        kinds = filters.kinds and Filters(kinds=filters.kinds).whoosh()
        allowed = set(self.searcher.docs_for_query(kinds)) if kinds else None
        keys, _ = self._columns
        return retrieve.dense(
            self.meaning,
            query,
            keys,
            depth=DENSE_DEPTH,
            langs=filters.langs,
            allowed=allowed,
            floor=floor,
        )

    def query(self, text: str) -> tuple[Any, list[str]]:
        """The Whoosh query of a query's text and the words it searches, every word required."""
        from search import builder
        from search.parse import parse

        query = parse(text, self)
        return builder.lexical(query, self.translator(query), self.searcher.schema, every_word=True)

    def _named_keys(
        self, query: Query, scores: dict[str, float], infractions: set[str], typed: set[str]
    ) -> set[str]:
        """The keys a query names: a key or a heading exactly ("Station", "Supertipi"), a
        concept in any language ("azione generata dallo stato": State-Based Actions), or a
        word of a list (Wizard: the creature types, 205.3m). `typed`: the rules headed by the
        query as written."""
        named = {fold(query.named), *self._names(self._concepts_named(query.named, query.asked))}
        keys = {key for key in scores if fold(key) in named}
        # A heading typed as it is written is the one asked for, not those of the concept's
        # other form: "counters" heads 122 (Counters), "counter" 701.6 (the keyword action).
        headed = typed or self._headed(named)
        headed |= {k for name in named for k in self.versions.listing(name)}
        return keys | (headed & set(scores)) | (infractions & set(scores))

    def _concept_rules(self, query: Query) -> set[str]:
        """The rules headed by the concept a whole query names through the term base, in any
        language ("ação baseada no estado": 704, State-Based Actions), though its words found
        only texts that use the term (306.9 "…ação baseada-no-estado", hyphenated)."""
        if not query.named:
            return set()
        return self._headed(self._names(self.termbase.named_by(query.named)))

    @staticmethod
    def _names(concepts: Iterable[str]) -> set[str]:
        """Concepts as headings write them, folded: singular and plural ("state-based actions")."""
        from corpus.model.words import plural

        return {fold(name) for concept in concepts for name in (concept, plural(concept))}

    def _headed(self, names: Iterable[str]) -> set[str]:
        """The keys of the rules and entries headed by these folded names."""
        return {result_key(key) for name in names for key in self.versions.headed(name)}

    def _keyword_sections(self, query: Query) -> set[str]:
        """The keyword abilities' sections (702.x) a question or sentence mentions in its own
        language or in English ("la célérité permet-elle…": haste, 702.10). A term or two
        names its concept already (`_named_keys`). Keyword actions (701) are not taken: cast
        and activate are in every other question and answer few of them."""
        from search import retrieve

        if not retrieve.is_sentence(query):
            return set()
        languages = {*(query.languages or ()), "en"}
        concepts = {c for lang in languages for c in self.termbase.concepts_in(query.text, lang)}
        return {
            key
            for concept in concepts
            for key in self.versions.headed(fold(concept))
            if KEYWORD_SECTION.fullmatch(key)
        }

    def _concepts_named(self, text: str, asked: bool) -> set[str]:
        """The concepts the whole query names; for a question, else those all of it but one
        word names, in one piece ("come si sacrifica un permanente": sacrifice). A query of
        terms ("supertipo mondo") asks for the rule where they meet, not for their sections."""
        from search.parse import is_stop_word

        whole = self.termbase.named_by(text)
        words = [w for w in text.split() if not is_stop_word(w.lower())]
        if whole or len(words) < 2 or not asked:
            return whole
        return self.termbase.named_by(" ".join(words[1:])) | self.termbase.named_by(
            " ".join(words[:-1])
        )

    def _definition_leads(
        self, entries: Sequence[str], typed: Collection[str] = ()
    ) -> list[tuple[str, str]]:
        """(glossary entry, the rule it sends to) for these keys: the newest English edition's
        entries that cite rules ("See rule 704.5j"), the most specific rule of several; a rule
        headed by what the query typed before them (Counter's two senses: "counters" asks for
        122, Counters, not for 701.6, the keyword action)."""
        from search import rank

        if not entries or not self.english_editions:
            return []
        newest = self.english_editions[-1]

        def definitions(keys: list[str]) -> list[StoredRecord]:
            return [
                r
                for r in self.versions.with_keys(keys)
                if r.lang == "en" and r.kind == "glossary" and newest in r.editions
            ]

        leads = []
        for record in definitions(list(entries)):
            cited = cited_numbers(record.text)
            if not cited and (seen := GLOSSARY_REDIRECT.fullmatch(record.text)):
                # "APNAP Order: See Active Player, Nonactive Player Order.": that entry's rule.
                cited = [n for r in definitions([seen[1]]) for n in cited_numbers(r.text)]
            if cited:
                named = rank.cited_under(record.key, record.text)
                asked = [n for n in cited if n in typed]
                leads.append((record.key, asked[0] if asked else rank.most_specific(cited, named)))
        return leads

    def written_in(self, word: str, languages: Sequence[str]) -> bool:
        """Whether a word is in the index's text of any of these languages (remembered: a
        query seen for the first time is mostly words seen before)."""
        from indexer.analyzers import analyzer
        from indexer.schema import text_field

        asked = word, tuple(languages)
        if asked not in self._written:
            reader = self.searcher.reader()
            self._written[asked] = any(
                reader.doc_frequency(text_field(lang), token.text)
                for lang in languages
                for token in analyzer(lang)(word)
            )
        return self._written[asked]

    def words_like(self, typed: str) -> list[str]:
        """The index vocabulary's words a wildcard word matches, folded ("leggend*": leggendaria,
        leggendario…), the most frequent first, at most WILDCARD_WORDS of them; when it matches
        none, the term base's words it matches and their names in the other languages."""
        pattern = fold(typed)
        pieces = (r"\w*" if c == "*" else r"\w" if c == "?" else re.escape(c) for c in pattern)
        wanted = re.compile("".join(pieces))
        matching = (word for word, _ in self._vocabulary if wanted.fullmatch(word))
        found = list(itertools.islice(matching, WILDCARD_WORDS))
        if found:
            return found
        # None in the texts: the term base's one-word terms it matches, with their one-word
        # names in the other languages. A keyword's French or Italian name is in no text of a
        # library without that language's CR ("piétin*": piétinement, so trample, arrolla).
        named = [word for word in self._term_words if wanted.fullmatch(word)]
        names = (
            fold(term)
            for word in named
            for _, term in sorted(self.translations(word))
            if " " not in term
        )
        return list(itertools.islice(dict.fromkeys([*named, *names]), WILDCARD_WORDS))

    @cached_property
    def obsolete_concepts(self) -> dict[str, str | None]:
        """English concepts the newest glossary calls obsolete, each with what replaced it
        (corpus/terms/obsolete.py): "converted mana cost" -> "mana value"."""
        from corpus.terms.obsolete import obsolete_concepts, still_used

        found = obsolete_concepts(self.versions.obsolete_entries())
        if not found or not self.english_editions:
            return found
        # "Removed (Obsolete)" is "removed from the game"; "removed from combat" is today's.
        texts = self.versions.english_rule_texts(self.english_editions[-1])
        return {old: new for old, new in found.items() if not still_used(old, texts)}

    @cached_property
    def _term_words(self) -> list[str]:
        """The term base's one-word terms, folded, in its order."""
        words = (fold(term.term) for term in self.termbase.terms if " " not in term.term.strip())
        return list(dict.fromkeys(words))

    @cached_property
    def _term_vocabulary(self) -> list[tuple[str, str, str]]:
        """(word folded, language, word as written) of every word of the term base's shown
        terms: what a misspelt query may have meant in a language the library has little text
        of."""
        from corpus.model.words import plain_words

        return list(
            dict.fromkeys(
                (fold(word), term.lang or "en", word)
                for term in self.termbase.terms
                if term.shown
                for word in plain_words(term.term)
                if len(word) > 3
            )
        )

    @cached_property
    def _vocabulary(self) -> list[tuple[str, set[str]]]:
        """The index vocabulary's words, most frequent first, each with the languages whose
        texts have it (vocabulary.txt)."""
        try:
            lines = (self.folder / VOCABULARY).read_text("utf-8").split("\n")
        except OSError:
            return []
        rows = (line.partition("\t") for line in lines if line)
        return [(word, set(langs.split())) for word, _, langs in rows]

    def term_languages(self, word: str) -> set[str]:
        """The languages of the term base's terms the word is ("joueur": fr); English for an
        English concept's name, even when no English text is loaded."""
        found = set(self.termbase.languages_of(word))
        if self.termbase.names_english_concept(word):
            found.add("en")
        return found

    # --- the term base --------------------------------------------------------------------------

    @cached_property
    def termbase(self) -> TermBase:
        """The term base the index was built with (parenthesised names included)."""
        from corpus.terms.termbase import TermBase, static_terms

        built = TermBase.read(self.folder / TERMBASE_READY, self.folder / TERMBASE)
        return built or TermBase(static_terms())

    @cached_property
    def lemmas(self) -> Lemmas | None:
        """The lemmas of the query's words (corpus/model/lemmas.py): each language's tables are
        read from the home's cache on the first word that needs them; while the cache lacks
        them, a detached process writes them and words are searched without lemmas."""
        from corpus.model.lemmas import for_cache

        return for_cache(paths.lemma_cache(self.home) if self.home else None)

    def translations(self, word: str, languages: Sequence[str] = ()) -> set[tuple[str, str]]:
        """A word in any language -> (language, term) of its English concepts in every
        language, English included. A word no term is written like is read as its lemma in
        `languages` (the query's, when known; else in every language with lemmas)."""
        # Remembered (read only, not to be changed): one query asks for the same words and
        # runs of words two to four times over (its words, its phrases, the words found
        # nowhere, each pass), and a query seen for the first time is mostly words seen before.
        asked = word, tuple(languages)
        if asked in self._translated:
            return self._translated[asked]
        lemmas = self.lemmas
        found: set[tuple[str, str]] = set()
        for term in self.termbase.lookup(word, lemmas, languages):
            found.add(("en", term.english))
            # A concept of the judge documents alone (tardiness) is searched in English, the
            # only language they are in: its Spanish "retraso" found the Spanish CR's delayed
            # triggers ("retrasada") for `tardiness --doc cr`. In the query's language too.
            if term.lang in languages or self._in_the_rules(term.english):
                found.add((term.lang, term.term))
        translated = {(lang, t) for lang, t in found if len(t.split()) <= 5}
        if lemmas is None or lemmas.complete:
            # Not before every lemma table is read: one the detached process writes later
            # may answer what was not found.
            self._translated[asked] = translated
        return translated

    def _in_the_rules(self, concept: str) -> bool:
        """Whether the English CR has an English concept's words (tardiness: only the IPG's).
        Without an English edition nothing says so: the seeds' Trample is searched in every
        language (its Italian and Spanish names were left out)."""
        if not self.english_editions:
            return True
        known = self._in_rules.get(concept)
        if known is None:
            from whoosh.query import And, Phrase, Term

            from indexer.analyzers import stems
            from indexer.schema import text_field

            words = stems(concept, "en")
            field = text_field("en")
            named = Term(field, words[0]) if len(words) == 1 else Phrase(field, words)
            known = not words or bool(
                self.searcher.search(And([Term("doc", "cr"), named]), limit=1)
            )
            self._in_rules[concept] = known
        return known

    def translator(self, query: Query) -> Translations:
        """The translations of a query's words, their lemmas read in the query's language."""
        return partial(self.translations, languages=query.languages)

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
        # The concept's own rule and glossary entry first ("stack": 405, Stack; "state-based
        # action": 704, State-Based Actions), then the rules that mention it most, rules gone
        # from the newest edition last.
        from corpus.align.identity import GONE
        from corpus.model.words import plural
        from search.rank import in_section

        titles = {fold(concept), fold(plural(concept))}
        own = [key for title in titles for key in self.versions.headed(title) if key in naming]
        own.sort(key=lambda key: (RuleNumber.of(key) is None, sort_key(key)))
        mentioning = [key for key in keys if key in naming]
        # Its own section's rules in their order (702.19a, 702.19b… under 702.19), then the
        # others, most mentions first, those gone from the newest edition last.
        under_own = [
            key for key in mentioning if any(key != rule and in_section(key, rule) for rule in own)
        ]
        under_own.sort(key=sort_key)
        mentioning.sort(key=lambda key: key.startswith(GONE))  # stable: most mentions first
        return list(dict.fromkeys([*own, *under_own, *mentioning]))[:limit]

    # --- suggestions and references ---------------------------------------------------------

    def terms_starting(self, prefix: str, limit: int = 3) -> list[str]:
        """The term base's shown terms, as written, with a word beginning so ("tocco": tocco
        letale), the most often seen first."""
        from corpus.model.words import plain_words

        begun = fold(prefix)
        found = [
            term
            for term in self.termbase.terms
            if term.shown and any(fold(word).startswith(begun) for word in plain_words(term.term))
        ]
        found.sort(key=lambda term: -term.count)
        return list(dict.fromkeys(term.term for term in found))[:limit]

    def corrected(self, text: str, missing: Sequence[str]) -> str | None:
        """The query with each word found nowhere (`missing`) spelt as the closest word of its
        language's texts or terms, when one is very close ("arollar": arrollar, "piétinemant":
        piétinement); None when none is."""
        from difflib import SequenceMatcher

        wanted = {part for word in missing for part in re.findall(r"\w+", fold(word))}
        close = self._close_words(text)

        def spelt(found: re.Match[str]) -> str:
            word = found[0]
            best = (close.get(fold(word)) or [word])[0] if fold(word) in wanted else word
            alike = SequenceMatcher(None, fold(word), fold(best)).ratio() >= CORRECTED_RATIO
            return best if alike else word

        # Word by word in place: the question mark and the other words stay as typed.
        better = re.sub(r"[^\W\d_]\w*", spelt, text)
        return better if better != text else None

    def suggestions(self, text: str, limit: int = 3) -> list[str]:
        """Close words from the index vocabulary, for a query that matched nothing: each
        misspelt word's best first, then their second best ("déclencheur oublé": déclenche,
        oublié, …), not the first word's three."""
        per_word = list(self._close_words(text, limit * 3).values())
        found = [word for tier in itertools.zip_longest(*per_word) for word in tier]
        return [word for word in dict.fromkeys(found) if word][:limit]

    def _close_words(self, text: str, most: int = 3) -> dict[str, list[str]]:
        """Each word of a query that no text or term has, folded, with the close words of the
        query's language's texts and terms (and English ones), closest first, as written."""
        from difflib import get_close_matches

        from corpus.model.lemmas import LANGS as LEMMA_LANGUAGES
        from indexer.analyzers import folding_analyzer
        from search.parse import QUESTION_WORDS, is_stop_word, languages_of

        # A Spanish judge is offered Spanish words (and English ones), not Italian ones ("neve"
        # for "nieve"): the words of the query's language's texts, when it is known.
        languages = languages_of(text, self)
        allowed = {*languages, "en"} if languages else None
        words = [word for word, langs in self._vocabulary if allowed is None or allowed & langs]
        # And the words of the term base's terms in those languages: a library without the
        # French CR has "piétinement" and "oublié" only there ("piétinemnt" was "pertinents").
        written: dict[str, str] = {}  # a term's word as written ("piétinement"), by its folding
        for word, lang, as_written in self._term_vocabulary:
            if allowed is None or lang in allowed:
                written.setdefault(word, as_written)
        words = list(dict.fromkeys([*words, *written]))
        known = set(words)
        lemmas = self.lemmas
        per_word: dict[str, list[str]] = {}
        for token in folding_analyzer()(text):
            # A word the language's dictionary knows is spelt right ("morire", "succede").
            # A query whose language is not told ("dégâts de commandant") is checked in each
            # language's: "dégâts" is a French word, not a misspelt English "designates".
            spelt = lemmas and any(
                lemmas.lemmas(token.text, lang) for lang in (languages or LEMMA_LANGUAGES)
            )
            common = is_stop_word(token.text) or token.text in QUESTION_WORDS  # "comment"
            if len(token.text) > 2 and token.text not in known and not spelt and not common:
                close = get_close_matches(token.text, words, n=most, cutoff=0.75)
                per_word[token.text] = [written.get(word) or word for word in close]
        return per_word

    def referring_to(self, key: str) -> list[str]:
        """Keys of the records whose text cites this rule number."""
        keys = set(self.versions.citing(key))
        keys.discard(key)
        return sorted(keys, key=sort_key)


def is_keyword_number(token: str) -> bool:
    """A keyword's number as cards print it: "scry 2", "ward X" (or "x", as typed)."""
    return (token.isdigit() and len(token) <= 2) or token in ("X", "x")
