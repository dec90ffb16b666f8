"""Stage 2a, the lexical query: a parsed query to a Whoosh query, the one builder.

Plain queries (words and "quoted phrases") are built directly, without Whoosh's parser. Each
word is searched as typed in every language's text (or its own language's, when the query's is
known) and in the English concepts of the translations; its translations from the term base are
searched only in their own language's text (an English word stemmed as Italian finds nothing,
and looking for it costs as much as looking for a real one). The same for the multi-word terms
consecutive words name, as phrases. Queries with operators, parentheses or wildcards go through
Whoosh's parser, their words expanded with the same translations first (`parsed`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from corpus.model.languages import LANGUAGES
from corpus.model.numbers import RuleNumber
from indexer.analyzers import analyzer
from indexer.schema import INDEX_LANGS, TERMS_FIELD, text_field
from search.parse import PAST_FORMS, Query, bare, content_tokens, is_stop_word
from search.query import ELISION, OPERATORS, TOKEN, QueryError, Translations, runs

TRANSLATION_WEIGHT = 0.5  # a word's translations count less than the word as typed
PHRASE_WEIGHT = 2.0  # a multi-word term (tipo di artefatto) is strong evidence


def lexical(query: Query, translations: Translations, schema: Any, *, every_word: bool) -> Any:
    """The Whoosh query of a parsed query and the words it searches (for highlighting): built
    directly for words and phrases, parsed when the query has operators. With `every_word`
    False, a plain query's rules need only some of its words."""
    if query.plain:
        return build(
            query.text,
            translations,
            every_word=every_word,
            languages=query.languages,
            english=query.english,
        )
    found = parsed(query.text, translations, schema, dict(query.wildcards))
    return found, sorted({w for _, w in found.iter_all_terms() if isinstance(w, str)})


def fields_for(lang: str) -> tuple[str, ...]:
    return (text_field(lang), TERMS_FIELD) if lang == "en" else (text_field(lang),)


def searched(token: str, stop: Callable[[str], bool] = is_stop_word) -> str | None:
    """The word a plain token searches (without its elided article and operator marks), or
    None for a stop word in any language (it would make every other language miss)."""
    word = bare(token)
    return None if stop(word.lower()) else word


# A number as the rules write it in every language: "0", "7", "+1/+1", "-1/-1", "1/1".
_NUMBER_WORD = re.compile(r"^[+-]?\d+(?:/[+-]?\d+)?$")
# A count as the English rules spell it ("10": ten), players' words and the rules' words for
# them ("bounced": return, hand); an irregular past form's verb is search.parse.PAST_FORMS.
SPELT_COUNTS = LANGUAGES["en"].spelt_counts
SLANG = LANGUAGES["en"].slang
BROADER = LANGUAGES["en"].broader


def build(
    text: str,
    translations: Translations,
    *,
    every_word: bool = True,
    languages: tuple[str, ...] = (),
    english: Collection[str] = (),
    stop: Callable[[str], bool] = is_stop_word,
) -> tuple[Any, list[str]]:
    """The Whoosh query of a plain query, and the words it searches (for highlighting). With
    `every_word` False, any of the words (ranked by how many and how rare). `languages`: the
    query's language when known; its words are then searched as typed in that language's text
    only (French "partie" is not English "party"), and elsewhere through their translations;
    those in `english` (English words of a query in another language) in English too."""
    from whoosh.query import And, AndMaybe, Or

    every_field = [f for lang in (languages or INDEX_LANGS) for f in fields_for(lang)]
    if not languages:
        every_field = [text_field(lang) for lang in INDEX_LANGS] + [TERMS_FIELD]
    tokens = content_tokens(text, stop)
    groups = []
    for token in tokens:
        if token.startswith('"'):
            group = [_phrase(field, token.strip('"'), 1.0) for field in every_field]
            groups.append(Or([q for q in group if q is not None]))
            continue
        word = searched(token, stop)
        if word is None:
            continue
        fields = every_field
        number = bool(_NUMBER_WORD.match(token))
        if token in english or number:
            # An English word of the query, or a number ("resistencia 0"), written alike in
            # every language: in English too, where the rule that answers is surely ruled.
            fields = [*every_field, *(f for f in fields_for("en") if f not in every_field)]
        # Power and toughness ("-1/-1", "+2/+2") are one thing: their numbers side by side,
        # not a "1" anywhere (the MTR's appendices came before 704.5q and 122.3).
        as_written = _phrase if number and "/" in token else _word
        alternatives: list[Any] = [as_written(field, token, 1.0) for field in fields]
        # A rule's number is that rule too ("100 cards" is no section: a number without its
        # dot is a count).
        if "." in token and (rule := _rule_key(token)) is not None:
            alternatives.append(rule)
        translated = word_translations(word, translations, languages or INDEX_LANGS)
        alternatives += [
            _word(field, term, TRANSLATION_WEIGHT)
            for lang, term in translated
            for field in fields_for(lang)
        ]
        # The English rules' words for it: its readings, and the broader word of its English
        # translation too ("criatura": creature, permanent).
        readings = english_readings(token) + [
            (broader, TRANSLATION_WEIGHT)
            for lang, term in translated
            if lang == "en"
            for broader in BROADER.get(term.lower(), ())
        ]
        alternatives += [
            _word(field, english, weight)
            for english, weight in readings
            for field in fields_for("en")
        ]
        groups.append(Or([q for q in alternatives if q is not None]))
    groups = [g for g in groups if g.subqueries]
    if not groups:
        raise QueryError(f"query {text!r} has only common words (stop words); add a content word")
    query: Any = And(groups) if every_word else Or(groups)
    # Words of a question that stand together in a rule ("toughness 0" in 704.5f) say
    # more than the same words apart.
    words = [t for t in tokens if not t.startswith('"')]
    near = [
        _phrase(field, f"{a} {b}", PHRASE_WEIGHT)
        for a, b in near_pairs(words)
        for field in every_field
    ]
    if languages and "en" not in languages:
        # The same in English, through the words' translations ("costituzione 0").
        near += [
            _phrase(text_field("en"), f"{x} {y}", PHRASE_WEIGHT * TRANSLATION_WEIGHT)
            for a, b in near_pairs(words)
            for x in _english_of(a, translations)
            for y in _english_of(b, translations)
        ]
    near = [p for p in near if p is not None]
    if not every_word:
        query = Or([query, *near])
    elif near:  # every word required, those side by side first ("toughness 0": 704.5f)
        query = AndMaybe(query, Or(near))
    phrases = [
        _phrase(field, phrase, PHRASE_WEIGHT if " " in phrase else TRANSLATION_WEIGHT)
        for lang, phrase in named_phrases(tokens, translations)
        for field in fields_for(lang)
    ]
    if any(phrases):
        named = Or([p for p in phrases if p is not None])
        # With every word of an English query required, a term the words name together
        # ("replacement effect") ranks the documents with every word and admits none without
        # them (616 "Interaction of Replacement … Effects" was under rules with the phrase
        # alone). In another language the term is the query's bridge to English where a word
        # has no translation ("cartas marcadas": Marked Cards): there it admits documents.
        in_english = languages == ("en",)
        query = AndMaybe(query, named) if every_word and in_english else Or([query, named])
    query = query.normalize()
    return query, sorted({word for _, word in query.iter_all_terms() if isinstance(word, str)})


def near_pairs(words: list[str]) -> Iterator[tuple[str, str]]:
    """Each two words side by side, and a number with its neighbour the other way round too: a
    rule writes "toughness 0" (704.5f) where a question asks about "0 toughness"."""
    for a, b in pairwise(words):
        yield a, b
        if _NUMBER_WORD.match(a) or _NUMBER_WORD.match(b):
            yield b, a


def _english_of(token: str, translations: Translations) -> list[str]:
    """A word's English one-word translations (a number is itself)."""
    if token.isdigit():
        spelt = spelt_number(token)
        return [token, spelt] if spelt else [token]
    return [term for lang, term in word_translations(token, translations) if lang == "en"][:2]


def english_readings(token: str) -> list[tuple[str, float]]:
    """What the English rules write for a word of a question, with its weight: a count spelt
    ("10": ten), an irregular past form's verb ("drew": draw), a player's word's meaning
    ("fizzle": resolve, illegal) or the broader word the rules use ("creature": permanent),
    those two weighed as a translation."""
    word = token.lower()
    readings = [(w, 1.0) for w in (spelt_number(token), PAST_FORMS.get(word)) if w]
    meant = [*SLANG.get(word, ()), *BROADER.get(word, ())]
    return readings + [(w, TRANSLATION_WEIGHT) for w in meant]


def spelt_number(token: str) -> str | None:
    """A count in ASCII digits as the English rules spell it ("10": "ten"); None for another
    number or a digit of another script ("¹" is a digit to str.isdigit, no int) or a long one
    (int() refuses 5,000 digits)."""
    if not (token.isascii() and token.isdigit() and len(token) <= 2):
        return None
    return SPELT_COUNTS[int(token)] if int(token) < len(SPELT_COUNTS) else None


def _analyze(field: str, text: str) -> list[str]:
    lang = "en" if field == TERMS_FIELD else field.removeprefix("text_")
    return [token.text for token in analyzer(lang)(text)]


def _word(field: str, text: str, boost: float) -> Any:
    """A word in one field: a term, all the terms of a compound (sur-type), or None (a stop
    word there)."""
    from whoosh.query import And, Term

    return _combined(field, text, boost, lambda words: And([Term(field, w) for w in words]))


def _phrase(field: str, text: str, boost: float) -> Any:
    """A phrase in one field (a term when it is one word there), or None."""
    from whoosh.query import Phrase

    return _combined(field, text, boost, lambda words: Phrase(field, words, slop=1))


def _combined(field: str, text: str, boost: float, several: Callable[[list[str]], Any]) -> Any:
    from whoosh.query import Term

    words = _analyze(field, text)
    if not words:
        return None
    query = Term(field, words[0]) if len(words) == 1 else several(words)
    return query.with_boost(boost) if boost != 1.0 else query


# --- the term base's part ---------------------------------------------------------------------


def word_translations(
    word: str, translations: Translations, searched: Collection[str] = ()
) -> list[tuple[str, str]]:
    """A word's one-word translations other than itself, with their language, in order. With
    `searched` (the languages whose text the word is searched in as typed), a term spelt like
    the word is kept in the other languages: French "saga" is English "saga" too."""
    return sorted(
        (lang, term)
        for lang, term in translations(word)
        if " " not in term and (term.lower() != word.lower() or (searched and lang not in searched))
    )


def named_phrases(tokens: list[str], translations: Translations) -> list[tuple[str, str]]:
    """The terms named by two or three consecutive plain words of the query ("punti vita":
    life total; "legame vitale": lifelink), or multi-word terms named by one word that has no
    one-word English ("battibaleno": split second), with their language; none when the query
    has operators or quotes of its own."""
    if any(t in OPERATORS or t in "()" or t.startswith('"') for t in tokens):
        return []
    found: set[tuple[str, str]] = set()
    for size, words in runs([ELISION.sub("", t) for t in tokens], (1, 2, 3)):
        named = translations(" ".join(words))
        if size == 1 and any(lang == "en" and " " not in term for lang, term in named):
            continue  # the word's English is searched as a word
        # Two or three words name a term in every language, one word in some ("legame
        # vitale": lifelink, whose English is one word and searched nowhere else).
        found.update((lang, term) for lang, term in named if " " in term or size > 1)
    return sorted(found)


def words_of_terms(tokens: list[str], translations: Translations) -> set[str]:
    """The tokens that are part of two or three consecutive words naming a term ("legame
    vitale": lifelink): found through the term, whether or not each is found alone."""
    found: set[str] = set()
    for _, words in runs(tokens, (2, 3)):
        if translations(" ".join(ELISION.sub("", w) for w in words)):
            found.update(words)
    return found


# --- queries with operators -------------------------------------------------------------------


def expand(
    text: str,
    translations: Translations,
    stop: Callable[[str], bool] = is_stop_word,
    wildcards: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """Whoosh query syntax for a query with operators: each word's translations as weaker
    alternatives, `tierra` -> `(tierra OR land^0.5 OR terra^0.5 ...)`, and the multi-word terms
    that consecutive words name as phrases.

    Operators, parentheses and quoted phrases are left as they are; leading or trailing
    operators are dropped so that `OR legendary` still searches; bare stop words go."""
    tokens = TOKEN.findall(text)
    while tokens and tokens[0] in OPERATORS - {"NOT", "ANDNOT"}:
        tokens.pop(0)
    while tokens and tokens[-1] in OPERATORS:
        tokens.pop()
    out: list[str] = []
    for token in tokens:
        if token in OPERATORS or token in "()" or token.startswith('"'):
            out.append(token)
            continue
        if wildcards and wildcards.get(token):  # the library's words it stands for
            out.append(f"({' OR '.join(wildcards[token])})")
            continue
        word = searched(token, stop)
        if word is None:
            continue
        others = sorted({term for _, term in word_translations(word, translations)})
        weighted = [f"{alt}^{TRANSLATION_WEIGHT}" for alt in others]
        out.append(f"({token} OR {' OR '.join(weighted)})" if weighted else token)
    phrases = sorted({phrase for _, phrase in named_phrases(tokens, translations)})
    if not phrases or not out:
        return " ".join(out)
    quoted = " OR ".join(f'"{p}"^{PHRASE_WEIGHT}' for p in phrases)
    return f"({' '.join(out)}) OR {quoted}"


def parsed(
    text: str,
    translations: Translations,
    schema: Any,
    wildcards: Mapping[str, Sequence[str]] | None = None,
) -> Any:
    """A query with operators through Whoosh's parser (every field, AND between words); each
    wildcard word is the OR of the library's words it matches (`wildcards`, from the parse
    stage: Whoosh's own wildcards would match the index's stems, not the words typed)."""
    from whoosh import qparser
    from whoosh.query import NullQuery

    fields = [text_field(lang) for lang in INDEX_LANGS] + [TERMS_FIELD]
    parser = qparser.MultifieldParser(fields, schema, group=qparser.AndGroup)
    for plugin in (qparser.WildcardPlugin, qparser.FieldsPlugin, qparser.PlusMinusPlugin):
        parser.remove_plugin_class(plugin)
    expanded = expand(text, translations, wildcards=wildcards)
    if not expanded.strip():
        raise QueryError(f"query {text!r} has only common words (stop words); add a content word")
    try:
        query = parser.parse(expanded)
    except Exception:  # Whoosh's parser fails on some operator tangles ("* NOT OR *")
        plain = " ".join(re.findall(r"[^\W_]+(?:[-'’.][^\W_]+)*", text))
        if not plain or plain == text:
            raise QueryError(
                f"query {text!r} cannot be parsed; check its operators and quotes"
            ) from None
        return parsed(plain, translations, schema, wildcards)  # the words alone, all required
    if query is NullQuery or not list(query.iter_all_terms()):
        raise QueryError(f"query {text!r} has no searchable words")
    return query.accept(_with_rule_keys)


RULE_NUMBER_BOOST = 20.0  # a rule named by its number among words comes before the words' rules


def _with_rule_keys(node: Any) -> Any:
    """A rule number among a query's words is that rule too, not only the texts that cite it
    (`205.4d OR trample` left 205.4d out)."""
    from whoosh.query import Or, Term  # loaded already: the query was just parsed

    english = isinstance(node, Term) and node.fieldname == text_field("en")
    if english and (rule := _rule_key(str(node.text))) is not None:
        return Or([node, rule])
    return node


def _rule_key(token: str) -> Any:
    """The rule a rule number among a query's words names, by its key, ahead of the texts that
    cite it; None for a token that is no rule number."""
    from whoosh.query import Term

    if RuleNumber.written(token) is None:
        return None
    return Term("key", token, boost=RULE_NUMBER_BOOST)
