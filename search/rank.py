"""Stage 3, rank: candidates to scores by key, then each re-ranking rule in turn. Every rule
is a pure function from scores (and what it needs to know, passed in) to new scores, so each
can be tested alone and the order they apply in is read in one place (Engine.search)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from corpus.model.documents import doc_of_key, is_judge_key
from corpus.model.mechanics import by_english
from corpus.model.numbers import RuleNumber, sort_key

if TYPE_CHECKING:
    from search.retrieve import Candidate

Scores = dict[str, float]  # key -> score

# A key the query names (a key, a heading, a concept's own place): ×3 keeps it first through
# the learned order more often than ×2 (the six tuning files' hit@1 386 -> 393 of 680: `jetons`,
# `pedine`, `Clue`; one lost, `leggendaria` 205.4d second -> fourth).
EXACT_NAME_BONUS = 3.0
DEFINITION_LEADS = 1.05  # the rule a glossary entry sends to, just above the entry
OTHER_LANGUAGE_WEIGHT = 0.5
DEFINITIONS_LOOKED_AT = 10  # the best keys whose glossary entries lead to their rules


def by_key(
    candidates: Iterable[Candidate],
    languages: Sequence[str],
    coverage: Mapping[str, float] | None = None,
) -> Scores:
    """Each key's best candidate. Evidence in the query's own language counts fully, and in
    English, the language every key is ruled in; another translation's match less. With
    `coverage` (each language's share of the English rules), the query's own language counts
    less where the library has little of it (`own_language_weight`)."""
    scores: Scores = {}
    for candidate in candidates:
        lang = candidate.lang
        own = not languages or lang in languages or lang == "en"
        weight = 1.0 if own else OTHER_LANGUAGE_WEIGHT
        if own and coverage is not None and lang != "en":
            weight = own_language_weight(coverage.get(lang, 1.0))
        scores[candidate.key] = max(scores.get(candidate.key, 0.0), candidate.score * weight)
    return scores


FULL_COVERAGE = 0.5  # a translation of half the rules or more is weighed as English is


def own_language_weight(coverage: float) -> float:
    """The weight of the query language's text when that language covers `coverage` of the
    English rules: an Italian library of section 205 can answer few Italian questions, and its
    words ("vuoto", "costo") should not outrank the English rule the term base reaches; a whole
    translated CR counts fully. From OTHER_LANGUAGE_WEIGHT (nothing) to 1 (half or more)."""
    share = min(coverage / FULL_COVERAGE, 1.0)
    return OTHER_LANGUAGE_WEIGHT + (1.0 - OTHER_LANGUAGE_WEIGHT) * share


def raised_to_the_best(scores: Mapping[str, float], keys: Iterable[str]) -> Scores:
    """These keys at the best score so far at least: a keyword named with its quality
    ("protection from red", 702.16) is asked for, though the rules that print the whole phrase
    (613.10's example) outscore its section by words."""
    top = max(scores.values(), default=0.0)
    return (
        {**scores, **{key: max(scores.get(key, 0.0), top) for key in keys}} if top else dict(scores)
    )


def exact_name_bonus(scores: Mapping[str, float], named: Iterable[str]) -> Scores:
    """A query that names a key or a heading exactly ("Station", "Supertipi"), or a concept in
    any language, asks for it: the named keys outrank the rules that merely mention them."""
    named = set(named)
    return {
        key: score * EXACT_NAME_BONUS if key in named else score for key, score in scores.items()
    }


def named_rules_present(scores: Mapping[str, float], rules: Iterable[str]) -> Scores:
    """The rules a query names whole (`Engine._concept_rules`) among its candidates, at the
    best score so far where its words and meaning missed them: a name asks for its rule, which
    exact_name_bonus then puts first."""
    top = max(scores.values(), default=0.0)
    return (
        {**{rule: top for rule in rules if rule not in scores}, **scores} if top else dict(scores)
    )


KEYWORD_SECTION_BONUS = 2.0


def keyword_sections_first(scores: Mapping[str, float], sections: Iterable[str]) -> Scores:
    """A question that names a keyword ability ("¿destello me deja lanzar…?": flash) is asked
    about it: its section's rules (702.8, 702.8a…) outrank the rules that merely mention the
    keyword ("601.3b … has flash"); which of them comes first is still the ranking's."""
    sections = tuple(sections)
    return {
        key: score * KEYWORD_SECTION_BONUS if any(in_section(key, s) for s in sections) else score
        for key, score in scores.items()
    }


JUDGE_DOCUMENT_BONUS = 3.0  # measured on eval/judge-tuning.tsv (2: hit@3 0.48, 3: 0.52)
LEVEL_DOCUMENT_BONUS = 2.0  # and the level's document (1.5 and 2: 0.50 -> 0.56)


def judge_documents_first(
    scores: Mapping[str, float], tournament: bool, level_document: str | None = None
) -> Scores:
    """A query about a tournament ("mis fundas están marcadas, ¿qué penalización…?") is asked
    of the judge documents: their sections (MTR, IPG, JAR) outrank the CR's rules that share
    its words or its meaning (104.3k, a game's loss, for a penalty). One that names its
    level is asked of the document that level is judged by above the others ("en REL Regular":
    the JAR, not the IPG's infraction with the same words)."""
    if not tournament:
        return dict(scores)
    return {
        key: score * judge_weight(key, level_document) if is_judge_key(key) else score
        for key, score in scores.items()
    }


def fixed_at_regular(scores: Mapping[str, float], counterparts: Mapping[str, str]) -> Scores:
    """A question about Regular REL is answered by the JAR's part for the IPG infraction its
    words or meaning find best ("en REL régulier mon adversaire a pioché deux cartes": IPG 2.3,
    so "A player accidentally draws more cards"): that part scores at least as that infraction
    does. The JAR's few parts share their words with its introduction, which came first. One
    infraction only: every infraction that scored a little handed its part on (IPG 3.9's
    shuffling for a forgotten trigger), and eval/judge-tuning.tsv read hit@3 0.65, not 0.69."""
    best = next((key for key in in_order(scores) if key in counterparts), None)
    if best is None:
        return dict(scores)
    part = counterparts[best]
    return {**scores, part: max(scores.get(part, 0.0), scores[best])}


def judge_weight(key: str, level_document: str | None) -> float:
    level = doc_of_key(key) == level_document
    return JUDGE_DOCUMENT_BONUS * (LEVEL_DOCUMENT_BONUS if level else 1.0)


def in_section(key: str, section: str) -> bool:
    """Whether a key is a rule heading or one of its subrules: 702.8 and 702.8a are of 702.8;
    702.80 is not (RuleNumber.within)."""
    number, heading = RuleNumber.of(key), RuleNumber.of(section)
    return number is not None and heading is not None and number.within(heading)


def definition_entries(scores: Mapping[str, float]) -> list[str]:
    """The best keys that may be glossary entries: neither a rule number nor a mechanic (a
    mechanic's key already shows its rule: Station with 702.184)."""
    top = sorted(scores, key=lambda k: -scores[k])[:DEFINITIONS_LOOKED_AT]
    return [k for k in top if RuleNumber.of(k) is None and by_english(k) is None]


def most_specific(cited: Sequence[str], named: Sequence[str] = ()) -> str:
    """Of the rules a definition cites, one of `named` (those cited under the entry's own name:
    Static Ability's "rule 113, “Abilities,” and rule 604, “Handling Static Abilities”": 604;
    Draw's "rule 121, “Drawing a Card,”" before its second sense's 104.4, a drawn game); then
    the most specific ("See rules 704.5j and 704.5k"), else the first."""
    return max(
        cited,
        key=lambda n: (n in named, n.count(".") + n[-1:].isalpha(), -cited.index(n)),
    )


_CITED_TITLE = re.compile(r"\b(?:rules?|section)\s+(\d{3}(?:\.\d+[a-z]?)?),?\s+[“\"]([^”\"]+)[”\"]")


def cited_under(headword: str, text: str) -> list[str]:
    """The rules a glossary definition cites with a title that names its headword, word for
    word but for inflections ("Static Ability": rule 604, “Handling Static Abilities”)."""
    from corpus.model.words import plain_words, stem

    def stems(phrase: str) -> set[str]:
        return {stem(word, "en") for word in plain_words(phrase)}

    wanted = stems(headword.split(",")[0])
    return [n for n, title in _CITED_TITLE.findall(text) if wanted and wanted <= stems(title)]


def definitions_lead_to_rules(
    scores: Mapping[str, float], leads: Iterable[tuple[str, str]]
) -> Scores:
    """Each (entry, rule) of `leads` puts the rule just above the glossary entry that sends to
    it: the definition is found, the rule is the answer."""
    led = dict(scores)
    for entry, rule in leads:
        if entry in scores:
            led[rule] = max(led.get(rule, 0.0), scores[entry] * DEFINITION_LEADS)
    return led


def ranked(scores: Mapping[str, float], limit: int) -> list[tuple[str, float]]:
    """The best `limit` keys, ties in rule order."""
    return sorted(scores.items(), key=lambda item: (-item[1], sort_key(item[0])))[:limit]


# --- fusion -----------------------------------------------------------------------------------

# Reciprocal rank fusion's constant (Cormack et al. 2009): rank r counts 1/(k + r). 60, the
# paper's, let a key both rankings put near the tenth beat one words put first and the encoder
# did not ("activez uniquement en tant que rituel": 602.5d). 30 on the six tuning files: hit@3
# 515 -> 522 of 680 queries, the two blind ones 0.59 -> 0.62 and 0.68 -> 0.71 (20 and 40: 517
# and 521).
RRF_K = 30
DENSE_WEIGHT = 0.7  # the encoder's ranking against Whoosh's: measured on eval/judges-queries.tsv


def in_order(scores: Mapping[str, float]) -> list[str]:
    """Keys best first, ties in rule order."""
    return [key for key, _ in ranked(scores, len(scores))]


def fused(
    lexical: Mapping[str, float],
    dense: Mapping[str, float],
    *,
    k: int = RRF_K,
    dense_weight: float = DENSE_WEIGHT,
) -> Scores:
    """Whoosh's and the encoder's rankings as one, by reciprocal rank fusion: each key scores
    the sum of weight / (k + its rank) over the rankings it is in. Ranks, not scores: BM25 and
    cosine are on scales that do not compare."""
    scores: Scores = {}
    for weight, ranking in ((1.0, lexical), (dense_weight, dense)):
        for position, key in enumerate(in_order(ranking), start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + position)
    return scores


# --- the two-player game first ---------------------------------------------------------------

# A variant's rule against a two-player game's, for a query that names no variant: questions-
# tuning hit@3 0.73 -> 0.74 and the third tuning file's 0.61 -> 0.62 (0.3 read the same).
VARIANT_SHARE = 0.5


def two_player_game_first(scores: Mapping[str, float], variant: bool) -> Scores:
    """A query that names no multiplayer game or casual variant (Query.variant) asks about a
    two-player game: the rules of sections 800-999 (Two-Headed Giant, Commander…) count half,
    or "how many poison counters does it take to kill a player" had 810.10 (fifteen, for a
    team) first and "¿qué pasa si llego a 0 vidas?" 810.9b."""
    if variant:
        return dict(scores)
    return {key: s * VARIANT_SHARE if is_variant_rule(key) else s for key, s in scores.items()}


# A rule or glossary entry the newest English edition no longer has, whose translation still
# does (the Spanish CR's "Vancouver Mulligan", gone from English 2026-04-17): it counts half, so
# `london mulligan` has the current rules first and `vancouver mulligan` still its entry. On the
# tuning files it moves no query (hit@3 717 either way): the rules in force come first.
GONE_SHARE = 0.5


def current_rules_first(scores: Mapping[str, float], gone: Iterable[str]) -> Scores:
    """The keys the newest English edition has before those it no longer has (`gone`)."""
    gone = set(gone)
    return {key: s * GONE_SHARE if key in gone else s for key, s in scores.items()}


def is_variant_rule(key: str) -> bool:
    """A rule of the multiplayer rules (800-811) or the casual variants (900 onwards)."""
    number = RuleNumber.of(key)
    return number is not None and number.section >= 800


# --- the final order, learned ------------------------------------------------------------------

REORDERED = 30  # the best keys the final order looks at
# A pairwise logistic regression on the tuning files' queries asked of the encoder (294 of the
# 370 of eval/questions-tuning.tsv, eval/judge-tuning.tsv and eval/judges-queries.tsv, on the
# README's relevance library), by scripts/learn-order, which prints these: hit@3 of those
# queries 0.69 -> 0.73, 5-fold cross-validated.
ORDER_WEIGHTS = (
    -1.31,  # × ln(the key's place after the rules above)
    1.60,  # words found it (Whoosh's candidates): the encoder alone is often near, not right
    1.81,  # × 1 / its rank by meaning: the encoder's first is worth more than RRF gives it
    -3.58,  # a glossary entry: it says what a word means, a rule answers the question
)


def order_features(
    best: Sequence[str], lexical: Mapping[str, float], dense: Mapping[str, float]
) -> list[tuple[str, tuple[float, ...]]]:
    """Each of the `best` keys (best first) with what the final order weighs (the order of
    ORDER_WEIGHTS)."""
    by_meaning = {key: rank for rank, key in enumerate(in_order(dense), start=1)}
    return [
        (
            key,
            (
                math.log(place),
                1.0 if key in lexical else 0.0,
                1.0 / by_meaning[key] if key in by_meaning else 0.0,
                1.0 if is_glossary_entry(key) else 0.0,
            ),
        )
        for place, key in enumerate(best, start=1)
    ]


def learned_order(
    scores: Mapping[str, float],
    lexical: Mapping[str, float],
    dense: Mapping[str, float],
    weights: Sequence[float] = ORDER_WEIGHTS,
) -> Scores:
    """The best keys of a query asked of the encoder in the order the tuning queries taught
    (ORDER_WEIGHTS): their place so far, whether words found them, how near the encoder put
    them, whether they are glossary entries. The keys below keep their order, under them."""
    keys = in_order(scores)
    top, rest = order_features(keys[:REORDERED], lexical, dense), keys[REORDERED:]
    learned = [sum(w * f for w, f in zip(weights, features, strict=True)) for _, features in top]
    floor = min(learned, default=0.0)
    ordered = {key: 1.0 + value - floor for (key, _), value in zip(top, learned, strict=True)}
    # Under the reordered keys, in their order: scores from 1 down to 0 (ties in rule order).
    ordered.update({key: 1.0 - (i + 1) / (len(rest) + 1) for i, key in enumerate(rest)})
    return ordered


def is_glossary_entry(key: str) -> bool:
    """A key that is neither a rule number, a mechanic nor a judge document's part."""
    return RuleNumber.of(key) is None and by_english(key) is None and not is_judge_key(key)


# --- siblings answered by their rule ------------------------------------------------------------

SIBLINGS_LOOKED_AT = 3  # the best keys among which two subrules of one rule are gathered
# More subrules are a list of distinct things (205.4, the supertypes): one of them is the answer.
GATHERED_MOST = 6


def siblings_gathered(
    scores: Mapping[str, float], subrules_of: Callable[[str], int]
) -> tuple[Scores, frozenset[str]]:
    """Where two or more of the best keys are subrules of one rule (305.2a and 305.2b for
    "how many lands can I play per turn"), that rule answers in the first one's place, with
    its subrules in order: the question was about the rule, and one of its parts answers it
    (305.2 itself, or 702.2b among deathtouch's). `subrules_of` counts a rule's subrules; a
    rule with more than GATHERED_MOST stays in parts. The keys gathered, with the scores."""
    best = in_order(scores)[:SIBLINGS_LOOKED_AT]
    parents: dict[str, list[str]] = {}
    for key in best:
        number = RuleNumber.of(key)
        above = number.parent if number and number.letters else None
        if above is not None and above.depth == 1:
            parents.setdefault(str(above), []).append(key)
    gathered = {
        rule
        for rule, keys in parents.items()
        if len(keys) >= 2 and subrules_of(rule) <= GATHERED_MOST
    }
    out = dict(scores)
    for rule in gathered:
        # Just above its best subrule: those below it are then in its answer (present.py).
        out[rule] = max(scores[k] for k in parents[rule]) * (1 + 1e-9) + 1e-12
    return out, frozenset(gathered)
