"""Plain queries are built straight into Whoosh queries; translations stay in their language."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from whoosh.query import Not, Phrase, Term

from search.engine import Engine
from search.query import QueryError
from search.results import Filters


def leaves(query: object) -> set[object]:
    return set(query.leaves())  # type: ignore[attr-defined]


def terms(query: object) -> set[Any]:
    """The query's terms (its phrases of words side by side left out)."""
    return {leaf for leaf in leaves(query) if isinstance(leaf, Term)}


def test_translations_are_searched_in_their_own_language(seeds_engine: Engine):
    """'regola' is also looked for as English 'rule', but 'rule' is not stemmed as Italian."""
    query, words = seeds_engine.query("regola delle leggende")
    found = leaves(query)
    assert Term("text_en", "rule", boost=0.5) in found
    assert Term("terms", "rule", boost=0.5) in found
    assert Term("text_it", "rul", boost=0.5) not in found
    assert "regol" in words
    results = seeds_engine.search("regola delle leggende", Filters(), 5).results
    assert results[0].key == "205.4d"


def test_a_number_is_searched_in_english_too(seeds_engine: Engine):
    """'resistencia 0': the 0 is written alike in every language, so the English rule that
    says "toughness 0" (704.5f) has it too, not only the Spanish text; a word is not."""
    query, _ = seeds_engine.query("criatura con resistencia 0")
    found = leaves(query)
    assert Term("text_es", "0") in found and Term("text_en", "0") in found
    assert Term("text_en", "criatura") not in found


def test_a_count_is_searched_as_the_english_rules_spell_it(seeds_engine: Engine):
    """ "10 segnalini veleno": the English rules spell a count ("ten or more poison counters",
    704.5c), so the digits are also the English word; a number past twenty is digits only."""
    found = leaves(seeds_engine.query("10 segnalini veleno")[0])
    assert Term("text_en", "ten") in found and Term("text_en", "10") in found
    assert not {t for t in terms(seeds_engine.query("21 danni")[0]) if t.text == "twenty-one"}


def test_an_irregular_past_form_is_also_searched_as_its_verb(seeds_engine: Engine):
    """ "drew", "forgot": the rules write "draw", "forget" ("A player forgets a triggered
    ability"), which the stemmer does not reach from the past form; "left" is not "leave" (the
    cards left in a library)."""
    found = leaves(seeds_engine.query("my opponent drew an extra card")[0])
    assert Term("text_en", "draw") in found and Term("text_en", "drew") in found
    assert Term("text_en", "forget") in leaves(seeds_engine.query("forgot trigger")[0])
    assert Term("text_en", "leav") not in leaves(seeds_engine.query("cards left")[0])


def test_a_players_word_is_also_searched_as_the_rules_words(seeds_engine: Engine):
    """ "fizzle" (a spell that doesn't resolve, its targets illegal: 608.2b), "ETB" (enters),
    "bounced" (returned to hand): the rules never write them; each is also searched as the
    rules' words, in English."""

    def english(query: str) -> set[str]:
        found = leaves(seeds_engine.query(query)[0])
        return {str(t.text) for t in found if isinstance(t, Term) and t.fieldname == "text_en"}

    assert {"resolv", "illeg"} <= english("when does a spell fizzle")
    assert "enter" in english("ETB trigger")
    assert {"return", "hand"} <= english("the blocker got bounced")


def test_a_creature_is_also_searched_as_a_permanent(seeds_engine: Engine):
    """The rules say "permanent" where a question says "creature" (704.5j's "legendary
    permanents", 514.2's damage "marked on permanents"): typed in English or reached through a
    translation ("creature", Italian "creature"), weighed as a translation; "land" is not."""
    for query in ("legendary creature", "creature leggendarie"):
        assert Term("text_en", "perman", boost=0.5) in leaves(seeds_engine.query(query)[0])
    assert not {t for t in terms(seeds_engine.query("legendary land")[0]) if t.text == "perman"}


def test_a_graveyard_is_also_searched_as_a_zone(seeds_engine: Engine):
    """111.7 says a token "in a zone other than the battlefield ceases to exist": a question
    about a token put into a graveyard ("cementerio" through its translation) reaches it by
    "zone", weighed as a translation; a library is not searched so."""
    for query in ("token graveyard", "ficha cementerio"):
        assert Term("text_en", "zone", boost=0.5) in leaves(seeds_engine.query(query)[0])
    assert not {t for t in terms(seeds_engine.query("token library")[0]) if t.text == "zone"}


def test_more_than_allowed_in_stop_words_is_the_word_extra(seeds_engine: Engine):
    """ "de más", "in più", "a mais" are stop words alone: a query reads each as "extra", so
    "robó una carta de más" keeps what sets it apart from "robó una carta"."""
    from search.parse import parse

    words = parse("el jugador robó una carta de más", seeds_engine).words
    assert words == ("jugador", "robó", "carta", "extra")
    assert parse("pesca una carta in più", seeds_engine).words[-1] == "extra"
    assert parse("comprou cartas a mais", seeds_engine).words[-1] == "extra"
    assert "extra" not in parse("¿cuántas cartas roba cada jugador?", seeds_engine).words
    assert "extra" not in parse("velas de mástiles", seeds_engine).words  # a word, not "más"


def test_operators_go_through_the_parser(seeds_engine: Engine):
    """NOT, OR and parentheses keep Whoosh's query syntax."""
    query, _ = seeds_engine.query("leggendario NOT mondo")
    assert any(isinstance(q, Not) for q in query.children())
    results = seeds_engine.search("leggendario NOT mondo", Filters(), 10).results
    assert results and all(
        "mondo" not in r.text.lower() for res in results for r in res.records if r.lang == "it"
    )


def test_parentheses_without_an_operator_are_an_aside(seeds_engine: Engine):
    """ "regola (delle leggende)" is the plain query: parentheses group only for an operator,
    and as a group every word of "(REL Regular)" in a question was required (nothing found);
    with OR they still group."""
    from search.parse import parse

    aside = parse("regola (delle leggende)", seeds_engine)
    assert aside.plain and aside.text == "regola delle leggende"
    assert not parse("(leggendario OR mondo) regola", seeds_engine).plain
    results = seeds_engine.search("regola (delle leggende)", Filters(), 5).results
    assert results[0].key == "205.4d"


def test_a_judges_question_is_searched_without_the_words_that_only_ask(seeds_engine: Engine):
    """ "penalità", "torneo", "REL Competitive" are left out of the words searched (not of what
    the encoder reads); a question of those words alone keeps them."""
    from search.parse import parse, without_asking_words

    asked = parse(
        "Torneo a REL Competitive: ho pescato una carta di troppo, che penalità?", seeds_engine
    )
    searched = without_asking_words(asked)
    assert searched.words == ("pescato", "carta", "extra")
    assert searched.text == "a ho pescato una carta di troppo, che"
    assert searched.meant == asked.text
    alone = parse("penalità torneo", seeds_engine)
    assert without_asking_words(alone) == alone
    # One word left beside the levels ("difference"): the question is about the levels; one
    # beside a penalty is what the judge documents are asked.
    levels = parse("what is the difference between regular and competitive REL", seeds_engine)
    assert without_asking_words(levels) == levels
    assert without_asking_words(parse("cheating penalty", seeds_engine)).words == ("cheating",)


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("my opponent is cheating what do I do", True),
        ("il mio avversario bara, cosa faccio", True),
        ("mon adversaire a oublié sa capacité, comment on répare", True),
        ("en un torneo mi rival roba de más qué hago", True),
        ("un joueur est en retard à sa table, quelle pénalité", True),
        ("how does trample work", True),
        ("discard down to seven at end of turn", False),
        ("la créature que j'ai ciblée avec mon sort", False),
        ("a creature which has flying and reach", False),
    ],
)
def test_a_question_word_inside_a_sentence_makes_it_a_question(query: str, asked: bool):
    """An interrogative that is never a relative pronoun ("what", "cosa", "comment", "quelle") asks
    wherever it stands, the situation told first; "que" or "which" may only join a clause."""
    from search.parse import is_question

    assert is_question(query) is asked


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(
            [
                "règle",
                "tipi",
                "l'artefatto",
                "sur-type",
                '"first',
                'strike"',
                "de",
                "*",
                "créature",
                "205.4d",
                "—",
                "“legend”",
            ]
        ),
        max_size=6,
    )
)
def test_plain_queries_never_crash(seeds_engine: Engine, words: list[str]):
    """Any mix of words, quotes and symbols gives results or a one-line QueryError."""
    try:
        seeds_engine.search(" ".join(words), Filters(), 5)
    except QueryError as error:
        assert "\n" not in str(error)


def test_a_word_spelt_alike_in_english_is_searched_in_english_too(seeds_engine: Engine):
    """French "saga" is English "saga": a French question searches the English text for it,
    though the translation is spelt as the word is."""
    query, _ = seeds_engine.query("comment fonctionne une saga")
    assert Term("text_en", "saga", boost=0.5) in leaves(query)


def test_one_word_whose_english_is_a_phrase_searches_the_phrase(seeds_engine: Engine):
    """Italian "battibaleno" is English "split second", two words: the one word searches the
    English phrase, and the keyword's rule is found."""
    query, _ = seeds_engine.query("battibaleno")
    phrases = [q for q in leaves(query) if isinstance(q, Phrase) and q.fieldname == "text_en"]
    assert [tuple(q.words) for q in phrases] == [("split", "second")]


def test_a_function_word_of_several_languages_is_a_share_of_a_vote(seeds_engine: Engine):
    """ "en" is Spanish and French, "il" Italian and French, "le" three languages': each counts
    a share of a vote for each of its languages, so French "en premier" and Italian "le carte"
    no longer tie their query with another language (both were read as no language)."""
    from search.parse import languages_of

    assert languages_of("qui reçoit la priorité en premier", seeds_engine) == ["fr"]
    assert languages_of(
        "quando si scartano le carte in eccesso alla fine del turno", seeds_engine
    ) == ["it"]
    assert languages_of("¿qué pasa si llego a 0 vidas?", seeds_engine) == ["es"]
    assert languages_of("can a tapped creature block?", seeds_engine) == ["en"]


def test_a_term_of_several_words_votes_for_its_language(seeds_engine: Engine):
    """ "tocco letale" is an Italian term (deathtouch): a vote per word for Italian, though
    "letale" alone is in the Spanish texts as "letal" (the query was read as Spanish, and
    `--brief` answered it in Spanish); a run with a stop word in it votes for nothing."""
    from search.parse import languages_of

    assert languages_of("tocco letale", seeds_engine) == ["it"]
    assert languages_of("sous-type séparé par un et", seeds_engine) != ["it"]


def test_power_and_toughness_are_searched_side_by_side(seeds_engine: Engine):
    """ "-1/-1" is its two numbers next to each other, not a "1" anywhere (a tiebreaker table of
    the MTR, full of ones, came first; 704.5q fifth)."""
    query, _ = seeds_engine.query("-1/-1")
    phrases = [q for q in leaves(query) if isinstance(q, Phrase)]
    assert Phrase("text_en", ["1", "1"]) in phrases
    assert Term("text_en", "1") not in leaves(query)


def test_a_french_inverted_verb_of_stop_words_is_a_stop_word(seeds_engine: Engine):
    """ "sont-elles", "a-t-on", "est-ce" are a verb and its pronoun, both stop words: not
    searched, nor said to be "found nowhere"; "sous-type" and "pioche-t-il" are words."""
    from search.parse import parse

    words = parse("quand les actions basées sur un état sont-elles vérifiées", seeds_engine).words
    assert "sont-elles" not in words and "actions" in words
    assert parse("a-t-on le droit de piocher", seeds_engine).words == ("droit", "piocher")
    assert "sous-type" in parse("sous-type de créature", seeds_engine).words
