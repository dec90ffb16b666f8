"""Stage 1, parse: a query's text to a `Query`: whether it is a rule number, a question, plain
words or operators, its content words and phrases, and the language it is written in.

Nothing here searches: what the index knows of a word (whether a language's text has it, what
the term base says of it) is asked of a `Lexicon`, the engine."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from corpus.model.documents import LEVEL_WORDS, PENALTIES, PENALTY_WORDS
from corpus.model.languages import LANGUAGES
from search.query import (
    ELISION,
    OPERATORS,
    TOKEN,
    NumberQuery,
    as_number,
    validate,
    without_bare_parentheses,
    without_question_marks,
)

# The words of a question, in each language: "how does warp work", "come funziona la
# curvatura", "comment fonctionne", "cómo funciona". They say what is asked, not about what.
QUESTION_WORDS_BY_LANG = {code: lang.question_words for code, lang in LANGUAGES.items()}
QUESTION_WORDS = frozenset().union(*QUESTION_WORDS_BY_LANG.values())

# The words that open a question in each language (not "can" or "si": "can" opens "can't").
OPENERS = frozenset().union(*(lang.question_openers for lang in LANGUAGES.values()))
INTERROGATIVES = frozenset().union(*(lang.interrogatives for lang in LANGUAGES.values()))
ASKED_AFTER = 4  # the words a query needs for a question word inside it to make it a question

# A tournament's words in every language ("penalità", "REL"): judges type "decklist" in any.
TOURNAMENT_WORDS = frozenset().union(
    *(lang.tournament_words | lang.asking_words for lang in LANGUAGES.values())
)
# And its things in several words: the IPG's penalties as it writes them ("game loss"), each
# language's `tournament_phrases` ("lista de mazo").
TOURNAMENT_NAMES = (
    *(penalty.lower() for penalty in PENALTIES),
    *(phrase for lang in LANGUAGES.values() for phrase in lang.tournament_phrases),
)
# An English irregular past form's verb ("drew": draw, "forgot": forget): the words are
# searched (search/builder.py) and infractions named (search/judge_named.py) in the present.
PAST_FORMS = LANGUAGES["en"].past_forms
# The words that ask a judge without naming what about, and the levels' ("REL Regular").
ASKING_WORDS = frozenset().union(
    *(lang.asking_words for lang in LANGUAGES.values()), *LEVEL_WORDS.values()
)
# A multiplayer game's or a casual variant's words in every language ("Commander", "équipe").
VARIANT_WORDS = frozenset().union(*(lang.variant_words for lang in LANGUAGES.values()))
VARIANT_NAMES = tuple(phrase for lang in LANGUAGES.values() for phrase in lang.variant_phrases)


class Lexicon(Protocol):
    """What the parse stage asks of the index about a word."""

    def written_in(self, word: str, languages: Sequence[str]) -> bool:
        """Whether any of these languages' text in the index has the word."""
        ...

    def term_languages(self, word: str) -> set[str]:
        """The languages whose terms of the term base the word is ("joueur": fr)."""
        ...

    def words_like(self, typed: str) -> list[str]:
        """The library's words a wildcard word stands for ("tramp*": trample, tramples…)."""
        ...


@dataclass(frozen=True)
class Query:
    """A query as the later stages take it."""

    text: str  # as validated, without question marks
    number: NumberQuery | None  # a rule number to look up ("205.4d", "regla 205,4d")
    plain: bool  # words and "quoted phrases" only: no operators, parentheses or wildcards
    asked: bool  # a question: answered by the rules with most of its words, not only all
    words: tuple[str, ...]  # content words and "phrases": no stop or question words
    languages: tuple[str, ...]  # the language it is written in, when its words say so
    # Its words that are English though it is not ("ordine APNAP", "une decklist illégale"):
    # searched as typed in the English text too.
    english: tuple[str, ...] = ()
    tournament: bool = False  # asked of a tournament: a word of TOURNAMENT_WORDS is in it
    level_document: str | None = None  # the judge document its tournament's level is judged by
    variant: bool = False  # names a multiplayer game or a casual variant: a word of VARIANT_WORDS
    # What the encoder reads, when not `text`: a tournament's question whole, though the judge
    # documents' words are searched without the words that only ask a judge.
    meant: str | None = None
    # Each wildcard word ("tramp*", "legg?ndario") and the library's words it stands for.
    wildcards: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def named(self) -> str:
        """The text that may name a concept: a question's content words, else all of it."""
        return (" ".join(self.words) if self.asked else self.text).strip().strip('"')


def parse(text: str, lexicon: Lexicon) -> Query:
    """A query's text as a Query; QueryError (one line, with the fix) when it cannot run."""
    text = validate(text)
    questioned = text.rstrip().endswith("?")
    text = without_bare_parentheses(without_question_marks(text))
    plain = is_plain(text)
    words = tuple(content_tokens(with_extra(text), is_stop_word))
    languages = tuple(languages_of(text, lexicon))
    return Query(
        text=text,
        number=as_number(text),
        plain=plain,
        asked=plain and (questioned or is_question(text)),
        words=words,
        languages=languages,
        english=tuple(english_words(words, languages, lexicon)),
        tournament=is_about_a_tournament(text),
        level_document=level_document(text),
        variant=names_a_variant(text),
        wildcards=() if plain else wildcard_words(text, lexicon),
    )


def wildcard_words(text: str, lexicon: Lexicon) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each wildcard word of a query with the library's words it matches: Whoosh's index holds
    stems, which a pattern typed as a word does not match ("tramp*" is not "trampl")."""
    return tuple(
        (token, tuple(lexicon.words_like(bare(token, "+-"))))
        for token in TOKEN.findall(text)
        if WILDCARD.search(token) and not token.startswith('"')
    )


def is_about_a_tournament(text: str) -> bool:
    """Whether a query has a tournament's word ("che penalità…", "en REL Regular…") or names
    one of the IPG's penalties ("après une game loss…"): the judge documents answer it."""
    words = plain_words(text)
    spaced = f" {' '.join(words)} "
    if any(f" {phrase} " in spaced for phrase in TOURNAMENT_NAMES):
        return True
    said = {word for word in words if word in TOURNAMENT_WORDS}
    # "draft" is a tournament's format and Conspiracy Draft's (CR 905): beside "conspiracy"
    # it asks about the variant.
    return bool(said - VARIANT_WORDS) or (
        bool(said) and not (VARIANT_WORDS - said).intersection(words)
    )


def without_asking_words(query: Query) -> Query:
    """A tournament's question as the judge documents are searched for it: without the words
    that only ask a judge ("pénalité", "REL compétitif"), which every part of those documents
    has (their introductions first); unchanged when nothing else is left, or one word beside
    the levels ("the difference between regular and competitive REL" is about the levels).
    "cheating penalty" is asked "cheating": with "penalty", the penalty chapters came first."""
    words = tuple(w for w in query.words if not asks(w))
    levels = any(plain_word(w) in level for w in query.words for level in LEVEL_WORDS.values())
    if not words or len(words) == len(query.words) or (len(words) == 1 and levels):
        return query
    kept = [t for t in TOKEN.findall(query.text) if not asks(t)]
    return dataclasses.replace(query, text=" ".join(kept), words=words, meant=query.text)


PLAYER_WORDS = frozenset().union(*(lang.player_words for lang in LANGUAGES.values()))


def names_a_player(word: str) -> bool:
    """Whether a word says who did it ("player", "avversario"), not what was done."""
    return plain_word(word) in PLAYER_WORDS


def asks(word: str) -> bool:
    """Whether a word only asks a judge ("pénalité", "REL", "compétitif"): it chooses the judge
    documents and their level, and is no part of what they are asked."""
    return plain_word(word) in ASKING_WORDS


def names_a_variant(text: str) -> bool:
    """Whether a query names a multiplayer game or a casual variant ("a Commander", "en
    multijoueur", "mi compañero de equipo", "en chacun pour soi"): sections 800-999 may answer
    it."""
    words = plain_words(text)
    spaced = f" {' '.join(words)} "
    return not VARIANT_WORDS.isdisjoint(words) or any(f" {n} " in spaced for n in VARIANT_NAMES)


def level_document(text: str) -> str | None:
    """The judge document of the tournament level a query names ("en REL Regular": jar,
    "a competitive": ipg; corpus.model.documents.LEVEL_WORDS), if it names one only; at no
    level, the IPG for a penalty ("cheating penalty")."""
    words = set(plain_words(text))
    named = [doc for doc, level in LEVEL_WORDS.items() if words & level]
    if not named and words & PENALTY_WORDS:
        return "ipg"
    return named[0] if len(named) == 1 else None


def plain_words(text: str) -> list[str]:
    """A query's words, lowercase, without the punctuation around them or an elided article."""
    return [plain_word(t) for t in TOKEN.findall(text)]


def plain_word(token: str) -> str:
    return bare(token.strip(SENTENCE_MARKS)).lower()


def is_plain(text: str) -> bool:
    """Words and quoted phrases only: no operators, parentheses or wildcards. A wildcard is a
    "*" or "?" against a letter or digit ("tapp*", "?ood", "205.4?"): a star alone, or in
    "*/*", is the one printed for power and toughness ("una criatura que tiene * en su
    fuerza")."""
    tokens = TOKEN.findall(text)
    return not any(
        t in OPERATORS or t in "()" or (WILDCARD.search(t) and not t.startswith('"'))
        for t in tokens
    )


WILDCARD = re.compile(r"\w[*?]|[*?]\w")


def is_question(text: str) -> bool:
    """Whether a query is asked as a question: it ends with "?", opens with a question word
    of some language ("how", "come", "comment", "cómo"), or has an interrogative further on, the
    situation told first ("my opponent is cheating what do I do")."""
    tokens = [t.lower() for t in TOKEN.findall(text)]
    opening = (tokens[:1], tokens[:2])  # one word ("como") or two ("o que")
    inside = len(tokens) >= ASKED_AFTER and any(t in INTERROGATIVES for t in tokens[1:])
    return (
        text.rstrip().endswith("?") or inside or any(" ".join(o) in OPENERS for o in opening if o)
    )


# "More than allowed" in every language's stop words ("de más", "in più"), longest first.
EXTRA_PHRASES = re.compile(
    r"(?<!\w)(?:"
    + "|".join(
        re.escape(phrase)
        for phrase in sorted(
            {p for lang in LANGUAGES.values() for p in lang.extra_phrases}, key=len, reverse=True
        )
    )
    + r")(?!\w)",
    re.IGNORECASE,
)


def with_extra(text: str) -> str:
    """The text with each phrase of stop words meaning "more than allowed" as the word "extra"
    ("robó una carta de más": robó, carta, extra; the judges' Hidden Card Error, IPG 2.3)."""
    return EXTRA_PHRASES.sub("extra", text)


# Sentence punctuation around a word ("regole,", "¡atención!", «peut»): not part of it.
SENTENCE_MARKS = ",;:.!¡¿«»“”„…"


def content_tokens(text: str, stop: Callable[[str], bool]) -> list[str]:
    """The query's phrases and content words, without the sentence punctuation around them:
    stop words and, when there is more, question words left out."""
    tokens = [t if t.startswith('"') else t.strip(SENTENCE_MARKS) for t in TOKEN.findall(text)]
    tokens = [t for t in tokens if t and (t.startswith('"') or not is_common(t, stop))]
    asked = [t for t in tokens if t.startswith('"') or t.lower() not in QUESTION_WORDS]
    return asked or tokens


def bare(token: str, marks: str = "*?+-") -> str:
    """A word without its elided article and its operator marks: "l'artefatto" -> artefatto.
    A wildcard word keeps its wildcards (`marks` "+-")."""
    return ELISION.sub("", token.strip(marks))


def is_common(token: str, stop: Callable[[str], bool]) -> bool:
    """A stop word in some language: searched, it would make every other language miss. So is
    a French inverted verb and pronoun of stop words ("sont-elles", "a-t-on")."""
    word = bare(token).lower()
    parts = [part for part in word.split("-") if part != "t"]
    return stop(word) or ("-" in word and bool(parts) and all(stop(part) for part in parts))


def languages_of(text: str, lexicon: Lexicon) -> list[str]:
    """The language a query is written in, when its words say so: a word found in only one
    language's texts is a vote for it ("sous-types" is French, "séparés" could be English
    "separate" too)."""
    from indexer.schema import INDEX_LANGS

    votes: dict[str, float] = {}
    words = re.findall(r"[^\W\d_][\w'’-]*", text)
    # A term of two or three words of one language's is a vote for it per word ("tocco
    # letale", Italian: "letale" alone is in the Spanish texts as "letal", and the brief list
    # answered an Italian query in Spanish).
    for size in (3, 2):
        for start in range(len(words) - size + 1):
            run = " ".join(words[start : start + size]).lower()
            if any(is_stop_word(word) for word in run.split()):
                continue  # "le premier", "par un" are no one language's term
            named = lexicon.term_languages(run) - {"en"}
            if len(named) == 1:
                (lang,) = named
                votes[lang] = votes.get(lang, 0) + size
    for word in words:
        if word in OPERATORS:
            continue
        lower = word.lower()
        # Question and function words of the language table ("comment", "gli"; "que", "en").
        marked = {
            code
            for code, language in LANGUAGES.items()
            if lower in language.marker_words or lower in QUESTION_WORDS_BY_LANG[code]
        }
        if marked:
            # A function word of one language votes for it; of several ("que": Spanish,
            # Portuguese, French; "en": Spanish and French), a share of a vote for each: its
            # presence in another language's texts is no vote for that one.
            sharing = marked | function_word_of(lower)
            for lang in sharing:
                votes[lang] = votes.get(lang, 0) + 1 / len(sharing)
            continue
        present = {lang for lang in INDEX_LANGS if lexicon.written_in(word, [lang])}
        present |= lexicon.term_languages(word)
        if any(not c.isascii() for c in word if c.isalpha()):
            # Found in English folded ("défense" as "defense"): an accent is no English word's.
            present.discard("en")
        if len(present) == 1:
            (lang,) = present
            votes[lang] = votes.get(lang, 0) + 1
    if not votes:
        return []
    best = max(votes.values())
    winners = [lang for lang, n in votes.items() if n == best]
    return winners if len(winners) == 1 else []


def function_word_of(word: str) -> set[str]:
    """The languages whose stop words a word is ("en": Spanish and French)."""
    from corpus.model.words import stop_words as language_stop_words

    return {code for code in LANGUAGES if word in language_stop_words(code)}


def english_words(words: Sequence[str], languages: Sequence[str], lexicon: Lexicon) -> list[str]:
    """The words of a query in another language that are English: each word's language is
    decided on its own. A word that is no term of the query's language and is not in its text,
    but is in the English text or names an English concept, is English ("APNAP", "decklist":
    judges type them in every language)."""
    if not languages or "en" in languages:
        return []
    english = []
    for token in words:
        word = bare(token)
        if token.startswith('"') or not word:
            continue
        terms = lexicon.term_languages(word)
        if terms & set(languages) or lexicon.written_in(word, languages):
            continue  # a word of the query's language
        if "en" in terms or lexicon.written_in(word, ["en"]):
            english.append(token)
    return english


@cache
def stop_words() -> frozenset[str]:
    """Every language's stop words, as its analyzer drops them."""
    from indexer.analyzers import stop_words as language_stop_words
    from indexer.schema import INDEX_LANGS

    return frozenset(word for lang in INDEX_LANGS for word in language_stop_words(lang))


def is_stop_word(word: str) -> bool:
    return word in stop_words()
