"""The judge documents' parts a query names: an IPG infraction or a section a judge's concept
titles, by its name in any language (the term base), in another order, with a word inside it, or
by meaning (the encoder: search/infraction_names.py); and, at Regular REL, each infraction's part
of the JAR."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from corpus.model.documents import REGULAR_COUNTERPARTS, doc_of_key, is_judge_key, slug
from corpus.model.documents import key as doc_key
from corpus.model.text import fold
from search.parse import PAST_FORMS, asks, names_a_player
from search.query import runs

if TYPE_CHECKING:
    from search.engine import Engine
    from search.parse import Query


@dataclass(frozen=True)
class Infractions:
    """The IPG infractions a query names (its words, any language), and those of them it names
    only in another order or by meaning, which come first whatever its words found."""

    named: set[str]
    first: set[str]
    # Whether naming them makes the query a tournament's question: it names one only in another
    # order or by meaning (a name its words say is a tournament's word already).
    tournament: bool = False


class JudgeNaming:
    """Which judge documents' parts an engine's queries name (its term base, side store and
    encoder)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def of(self, query: Query) -> Infractions:
        """The infractions a parsed query names, and those that come first."""
        named, whole = self.named(query)
        # An infraction its words name in another order, or mean though the term base has not
        # them ("aiuto esterno"): a tournament's question, that infraction first; so is the
        # part a query is the whole name of ("USC major": IPG 4.2, before IPG 4 its words fit).
        meant = set() if named else self.reordered(query) or self.meant(query)
        tournament = bool(meant)  # before the JAR's level leaves the IPG's out
        if query.level_document == "jar":
            # At Regular REL the JAR judges, not the IPG: an infraction the question names
            # asks the JAR's sections ("en REL Regular mi oponente robó una carta de más").
            named = {key for key in named if doc_of_key(key) != "ipg"}
            meant = {key for key in meant if doc_of_key(key) != "ipg"}
        first = meant | (named if whole else set())
        return Infractions(named | meant, first, tournament)

    def named(self, query: Query) -> tuple[set[str], bool]:
        """The judge documents' parts a query names, and whether the whole query is one's name.
        A question names an IPG infraction or a titled section anywhere in it, by one to four
        consecutive words ("…si un joueur arrive en retard": tardiness, IPG 3.1): a name so
        specific asks for its section, wherever the question puts it. Another query names one
        whole ("cartas marcadas": Marked Cards, IPG 3.8), or by two to four of its words
        ("conducta antideportiva menor en competitivo": IPG 4.1); one word of it is too little
        ("marcadas" alone is stemmed as "marco", a frame)."""
        if not query.words:
            return set(), False
        # An English verb's past is its name's present: "drew an extra card" names "draw an
        # extra card" (Hidden Card Error), as the words are searched (search/builder.py).
        words = tuple(PAST_FORMS.get(word, word) for word in query.words)
        # Whole, or whole but for the words that only ask a judge ("penalty for drawing an
        # extra card": Hidden Card Error, as "drawing an extra card" is) or say who did it
        # ("player drew an extra card").
        asked_of = tuple(word for word in words if not asks(word) and not names_a_player(word))
        for named in dict.fromkeys((words, asked_of)):
            if not query.asked and named and (whole := self.listed({" ".join(named)})):
                return whole, True
        # The longest name wins: "condotta antisportiva grave" is IPG 4.2, not also the
        # chapter its first two words title (IPG 4, Unsporting Conduct).
        found: set[str] = set()
        taken: set[int] = set()
        for size in (4, 3, 2, 1) if query.asked else (4, 3, 2):
            for start in range(len(words) - size + 1):
                span = set(range(start, start + size))
                if span & taken:
                    continue
                if keys := self.listed({" ".join(words[start : start + size])}):
                    found |= keys
                    taken |= span
        if not found and query.asked:
            found = self._split(words)
        return found, False

    def _split(self, words: tuple[str, ...]) -> set[str]:
        """The infraction a question names with one word put inside its name ("ho pescato per
        sbaglio una carta di troppo": pescare carte extra, Hidden Card Error): three or four
        consecutive words, one inside left out."""
        found: set[str] = set()
        for size in (4, 3):
            for start in range(len(words) - size + 1):
                window = words[start : start + size]
                runs = {" ".join(window[:at] + window[at + 1 :]) for at in range(1, size - 1)}
                found |= self.listed(runs)
        return found

    def reordered(self, query: Query) -> set[str]:
        """The infractions two words of a query name in the other order: a verb before its noun
        ("oublié un déclenchement", "ha dimenticato un innesco", "a oublié sa capacité
        déclenchée") is the name's noun and participle ("déclenchement oublié", "innesco
        dimenticato", "capacité déclenchée oubliée")."""
        if not query.plain:
            return set()
        moved = {" ".join([*rest, first]) for _, (first, *rest) in runs(query.words, (2, 3))}
        return self.listed(moved)

    def listed(self, named: set[str]) -> set[str]:
        """The judge documents' parts these texts name: an infraction their lists name, else
        the section a judge's concept titles ("prendere appunti": Taking Notes, MTR 2.11)."""
        found: set[str] = set()
        for run in named:
            for concept in self.engine.termbase.named_by(run):
                listed = [k for k in self.engine.versions.listing(fold(concept)) if is_judge_key(k)]
                found.update(listed or self._titled(concept))
        return found

    def _titled(self, concept: str) -> list[str]:
        """The judge documents' sections titled by a concept only the curated rows name: a
        tournament's word, not a game's ("sleeves" yes; "sideboard", learned from the CR, and
        "player", whose plural titles MTR 1.10, no)."""
        terms = self.engine.termbase.terms_of(concept.lower())
        if not terms or not all(t.source.startswith("curated") for t in terms):
            return []
        return [k for k in self.engine.versions.headed(fold(concept)) if is_judge_key(k)]

    def meant(self, query: Query) -> set[str]:
        """The infraction two or three consecutive words of a query mean though the term base
        has not that name ("aiuto esterno", "ayuda externa": Outside Assistance, IPG 3.2): by
        the encoder, near its names in every language (MEANT_NAME_FLOOR). Not for a query of
        English words: the term base has the English names as printed, and a short English
        query would load the encoder for nothing (`search "legend rule"` answered in process
        took 0.46 s instead of 0.20)."""
        if self.engine.meaning is None or not query.plain:
            return set()
        if all(self.engine.written_in(word, ["en"]) for word in query.words):
            return set()  # every word English ("legend rule"; "aide extérieure" is not)
        texts = list(dict.fromkeys(" ".join(words) for _, words in runs(query.words, (2, 3))))
        if not texts:
            return set()
        names = self._names
        return names.meant(texts, self.engine.meaning.embed) if names is not None else set()

    @cached_property
    def regular_counterparts(self) -> dict[str, str]:
        """Each IPG infraction's JAR part in the library (REGULAR_COUNTERPARTS), by key."""
        parts = self.engine.versions.keys_under(doc_key("jar", ""))
        counterparts: dict[str, str] = {}
        for title, infractions in REGULAR_COUNTERPARTS.items():
            # A part's key is its title's first words (corpus/read/layouts/
            # judging_at_regular.py), the table's a title's start: one begins the other.
            start = doc_key("jar", slug(title))
            keyed = [p for p in parts if p.startswith(start) or start.startswith(p)]
            if len(keyed) == 1:
                counterparts.update(dict.fromkeys(infractions, keyed[0]))
        return counterparts

    @cached_property
    def _names(self) -> Any:
        """The judge documents' listed names (IPG infractions) in every language, encoded."""
        from search.infraction_names import InfractionNames

        listed = {
            item: tuple(judge)
            for item, keys in self.engine.versions.listings().items()
            if (judge := [k for k in keys if is_judge_key(k)])
        }
        return InfractionNames.of(listed, self.engine.termbase, self._embedded)

    def _embedded(self, texts: list[str]) -> Any:
        """Vectors of texts every process asks again (the infractions' names): from the home's
        cache of embeddings by text hash when it can be read and written, else encoded."""
        if self.engine.home is not None:
            from indexer.vectors import vectors_for

            with contextlib.suppress(OSError):  # a read-only home: encoded each time
                return vectors_for(self.engine.home, texts)[0]
        return self.engine.meaning.embed(texts)
