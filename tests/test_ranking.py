"""Ranking, one behaviour at a time, on tiny in-memory Whoosh indexes of real rule text (the
English CR 2026-08-07 and the seeds), in the manner of whoosh-reloaded's tests/test_results.py:
a few documents, the score order each behaviour asks for."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from math import log
from typing import Any

import pytest
from whoosh.filedb.filestore import RamStorage
from whoosh.scoring import BM25F

from corpus.model.numbers import cited_numbers
from indexer.analyzers import analyzer
from indexer.schema import build_schema, text_field
from search import rank, retrieve
from search.parse import (
    Query,
    content_tokens,
    is_about_a_tournament,
    is_stop_word,
    level_document,
    names_a_variant,
)
from search.retrieve import Candidate
from search.scoring import LENGTH_CAP, PerLanguageBM25F

# (key, lang, text): real rule text, shortened to what each test needs.
LEGEND_ENTRY_TEXT = (
    "A state-based action that causes a player who controls two or more legendary permanents "
    "with the same name to put all but one into their owners’ graveyards. See rule 704.5j."
)
ENGLISH = [
    ("704.5j", "en", "If a player controls two or more legendary permanents with the same "
     "name, that player chooses one of them, and the rest are put into their owners’ "
     "graveyards. This is called the “legend rule.”"),
    ("205.4d", "en", "Any permanent that has the supertype legendary is subject to the "
     "state-based action for legendary permanents, also called the “legend rule” (see rule "
     "704.5j)."),
    ("205.4a", "en", "An object can have one or more supertypes. A card’s supertypes are "
     "printed directly before its card types. The supertypes are basic, legendary, ongoing, "
     "snow, and world."),
    ("205.2a", "en", "The card types are artifact, battle, conspiracy, creature, dungeon, "
     "enchantment, instant, kindred, land, phenomenon, plane, planeswalker, scheme, sorcery, "
     "and vanguard."),
]  # fmt: skip
FRENCH = [
    ("205.4a", "fr", "Un objet peut avoir un ou plusieurs sur-types. Les sur-types d'une carte "
     "sont imprimés juste avant ses types. Les sur-types sont base, légendaire, neige et monde."),
    ("205.2a", "fr", "Les types sont artéfact, créature, enchantement, éphémère, terrain et "
     "rituel."),
]  # fmt: skip
# 205.4e, the casting restriction of legendary spells: a word all three share, "planeswalker".
PLANESWALKER = [
    ("205.4e", "it", "Ogni magia istantaneo o stregoneria con il supertipo “leggendario” è "
     "soggetta a una restrizione di lancio. Un giocatore non può lanciare una magia istantaneo "
     "o stregoneria leggendaria a meno che non controlli una creatura leggendaria o un "
     "planeswalker leggendario."),
    ("205.4e", "es", "Cualquier hechizo instantáneo o de conjuro con el supertipo "
     "“legendario” está sujeto a una restricción de lanzamiento. Un jugador no puede lanzar "
     "hechizos instantáneos o de conjuro a menos que ese jugador controle una criatura o "
     "planeswalker legendario."),
    ("205.4e", "en", "Any instant or sorcery spell with the supertype “legendary” is subject "
     "to a casting restriction. A player can’t cast a legendary instant or sorcery spell "
     "unless that player controls a legendary creature or a legendary planeswalker."),
]  # fmt: skip
LEGEND_ENTRY = ("Legend Rule", "en", "Legend Rule. " + LEGEND_ENTRY_TEXT)


@contextmanager
def tiny_index(documents: list[tuple[str, str, str]], weighting: Any = None) -> Iterator[Any]:
    """A searcher over an in-memory index of the project's schema, one document per
    (key, lang, text), weighted as the engine weights (or as asked)."""
    ix = RamStorage().create_index(build_schema())
    with ix.writer() as writer:
        for number, (key, lang, text) in enumerate(documents):
            writer.add_document(
                key=key, vid=str(number), lang=lang, kind="rule", **{text_field(lang): text}
            )
    with ix.searcher(weighting=weighting or PerLanguageBM25F(B=0.4)) as searcher:
        yield searcher


def no_translations(word: str) -> set[tuple[str, str]]:
    return set()  # an empty term base: only the words as typed


def plain_query(text: str, languages: tuple[str, ...] = (), asked: bool = False) -> Query:
    words = tuple(content_tokens(text, is_stop_word))
    return Query(text, None, True, asked, words, languages)


def candidates(searcher: Any, query: Query) -> tuple[Candidate, ...]:
    reader = searcher.reader()
    columns = reader.column_reader("key"), reader.column_reader("lang")
    return retrieve.lexical(searcher, columns, query, no_translations, depth=50).candidates


def stem(lang: str, word: str) -> str:
    return next(token.text for token in analyzer(lang)(word))


def test_a_word_is_as_rare_as_it_is_in_its_own_language():
    """A French word's rarity is counted among the French documents (two here), an English
    word's among the English ones (four): Whoosh's own idf counts all six, and every French
    word would look rare."""
    with tiny_index([*ENGLISH, *FRENCH]) as searcher:
        ours = PerLanguageBM25F()
        french = ours.idf(searcher, "text_fr", stem("fr", "légendaire"))  # 1 of 2
        english = ours.idf(searcher, "text_en", stem("en", "supertypes"))  # 2 of 4
        assert french == pytest.approx(log(2 / (1 + 1)) + 1)
        assert english == pytest.approx(log(4 / (2 + 1)) + 1)
        assert BM25F().idf(searcher, "text_fr", stem("fr", "légendaire")) > french


def test_a_long_list_is_not_buried_by_its_length():
    """Past LENGTH_CAP times the average length, a longer text scores no lower: the rule that
    lists every supertype keeps its score however long its list."""
    long_list = ("205.3m", "en", "Creature types: " + ", ".join(["Advisor", "Angel"] * 60))
    with tiny_index([*ENGLISH, long_list]) as searcher:
        scorer = PerLanguageBM25F(B=0.4).scorer(searcher, "text_en", stem("en", "legendary"))
        capped = LENGTH_CAP * scorer.avgfl
        assert scorer._score(1, capped) == scorer._score(1, 10 * capped)
        assert scorer._score(1, scorer.avgfl) > scorer._score(1, capped)
        uncapped = BM25F(B=0.4).scorer(searcher, "text_en", stem("en", "legendary"))
        assert uncapped._score(1, 10 * capped) < uncapped._score(1, capped)


def test_a_query_that_names_a_key_gets_it_first():
    """ "legend rule": 205.4d, which names the legend rule among other words, scores higher
    than the glossary entry, but the entry is what was asked for: the exact-name bonus puts it
    first."""
    with tiny_index([LEGEND_ENTRY, *ENGLISH]) as searcher:
        scores = rank.by_key(candidates(searcher, plain_query("legend rule")), ())
    assert [key for key, _ in rank.ranked(scores, 2)] == ["205.4d", "Legend Rule"]
    named = rank.exact_name_bonus(scores, {"Legend Rule"})
    assert [key for key, _ in rank.ranked(named, 2)] == ["Legend Rule", "205.4d"]
    assert named["Legend Rule"] == scores["Legend Rule"] * rank.EXACT_NAME_BONUS


def test_a_definition_leads_to_the_rule_it_cites():
    """The glossary entry "Legend Rule", first, sends to 704.5j ("See rule 704.5j"), which then
    comes just above it; the rules below keep their places."""
    with tiny_index([LEGEND_ENTRY, *ENGLISH]) as searcher:
        scores = rank.by_key(candidates(searcher, plain_query("legend rule")), ())
    named = rank.exact_name_bonus(scores, {"Legend Rule"})
    assert rank.definition_entries(named) == ["Legend Rule"]
    target = rank.most_specific(cited_numbers(LEGEND_ENTRY_TEXT))
    led = rank.definitions_lead_to_rules(named, [("Legend Rule", target)])
    assert [key for key, _ in rank.ranked(led, 3)] == ["704.5j", "Legend Rule", "205.4d"]
    assert led["704.5j"] == pytest.approx(named["Legend Rule"] * rank.DEFINITION_LEADS)
    assert led["205.4d"] == named["205.4d"]


def test_the_most_specific_rule_cited_is_the_one_led_to():
    """ "See rule 704.5, “State-Based Actions,” and 704.5j": the subrule, not the rule."""
    assert rank.most_specific(["704.5", "704.5j"]) == "704.5j"
    assert rank.most_specific(["702.184", "721"]) == "702.184"


# English 2026-08-07's glossary: Static Ability cites "rule 113, “Abilities,” and rule 604,
# “Handling Static Abilities”"; Draw has two senses, "See rule 121, “Drawing a Card.”" and, for
# a drawn game, "See rule 104.4."
STATIC_ABILITY = (
    "A kind of ability. Static abilities do something all the time rather than being "
    "activated or triggered. See rule 113, “Abilities,” and rule 604, “Handling Static "
    "Abilities.”"
)
DRAW = (
    "1. To put the top card of a player’s library into their hand as a turn-based action or "
    "as the result of an effect that uses the word “draw.” See rule 121, “Drawing a Card.”\n"
    "2. The result of a game in which neither player wins or loses. See rule 104.4."
)


@pytest.mark.parametrize(
    ("headword", "text", "rule"), [("Static Ability", STATIC_ABILITY, "604"), ("Draw", DRAW, "121")]
)
def test_the_rule_cited_under_the_entrys_name_is_led_to(headword: str, text: str, rule: str):
    """A definition leads to the rule whose cited title names its entry (a plural is the same
    name): Static Ability to 604, not 113, equally specific; Draw to 121, though its second
    sense's 104.4 is more specific (`search piocher` and `search draw` had a drawn game first)."""
    named = rank.cited_under(headword, text)
    assert named == [rule]
    assert rank.most_specific(cited_numbers(text), named) == rule


def test_an_entry_whose_name_no_cited_title_holds_leads_to_the_first():
    """ "Ability" is in both of Static Ability's cited titles; "Permanent" in neither: 113."""
    assert rank.cited_under("Ability", STATIC_ABILITY) == ["113", "604"]
    assert (
        rank.most_specific(["113", "604"], rank.cited_under("Permanent", STATIC_ABILITY)) == "113"
    )


def test_another_translation_weighs_half():
    """An Italian query's "planeswalker", found in the Italian, Spanish and English 205.4e:
    the Spanish match counts half, the Italian and the English fully."""
    with tiny_index(PLANESWALKER) as searcher:
        found = candidates(searcher, plain_query("planeswalker"))
    by_lang = {c.lang: c for c in found}
    assert set(by_lang) == {"it", "es", "en"}
    assert rank.by_key([by_lang["es"]], ("it",))["205.4e"] == pytest.approx(
        by_lang["es"].score * rank.OTHER_LANGUAGE_WEIGHT
    )
    for lang in ("it", "en"):
        assert rank.by_key([by_lang[lang]], ("it",))["205.4e"] == by_lang[lang].score
    assert rank.by_key([by_lang["es"]], ())["205.4e"] == by_lang["es"].score  # unknown language


def test_a_language_the_library_has_little_of_weighs_less():
    """An Italian query's match in Italian text, when the library's Italian is section 205
    (2% of the English rules), weighs little more than another translation's; a whole Spanish
    CR weighs as English."""
    with tiny_index(PLANESWALKER) as searcher:
        italian = next(
            c for c in candidates(searcher, plain_query("planeswalker")) if c.lang == "it"
        )
    coverage = {"it": 0.02, "es": 0.94, "en": 1.0}
    weight = rank.own_language_weight(0.02)
    assert rank.OTHER_LANGUAGE_WEIGHT < weight < 0.6
    assert rank.by_key([italian], ("it",), coverage)["205.4e"] == pytest.approx(
        italian.score * weight
    )
    assert rank.own_language_weight(0.94) == rank.own_language_weight(0.5) == 1.0


def test_meaning_beside_words_may_be_less_sure_than_meaning_alone():
    """Beside Whoosh's candidates the encoder's may be at cosine 0.3 (a French question and
    the English rule); alone, for words found nowhere, they must be sure (nonsense has
    neighbours at 0.4)."""
    found = retrieve.Retrieved((Candidate(0, "704.5a", "en", 3.0),), frozenset())
    nothing = retrieve.Retrieved((), frozenset())
    assert retrieve.dense_floor(found) < 0.3 < 0.45 < retrieve.dense_floor(nothing)


def test_the_encoder_is_asked_for_questions_and_sentences_not_for_a_term():
    """A question or a sentence of three content words or more ("pesco da un grimorio vuoto")
    is asked of the encoder too; a term that words find ("legendary snow") is answered by them,
    and one they find nothing for ("evocare") by meaning."""
    found = retrieve.Retrieved((Candidate(0, "704.5b", "en", 3.0),), frozenset())
    nothing = retrieve.Retrieved((), frozenset())
    sentence = plain_query("pesco da un grimorio vuoto")
    term = plain_query("legendary snow")
    assert retrieve.wants_meaning(sentence, found)
    assert retrieve.wants_meaning(plain_query("legendary snow", asked=True), found)
    assert not retrieve.wants_meaning(term, found)
    assert retrieve.wants_meaning(plain_query("evocare"), nothing)


def test_a_question_needs_only_some_of_its_words():
    """ "how do legendary snow supertypes work": no rule has every word; a question is ranked
    on the rules with most of them, the one with three of them first."""
    query = plain_query("how do legendary snow supertypes work", asked=True)
    with tiny_index(ENGLISH) as searcher:
        found = candidates(searcher, query)
    assert found[0].key == "205.4a"


# Deathtouch and trample: one rule names both (the keyword counters' list), each keyword's
# rules name one of them, and a rule with "trample" many times outscores the list on "trample".
KEYWORDS = [
    ("122.1b", "en", "The keywords that a keyword counter can be are flying, first strike, "
     "double strike, deathtouch, decayed, exalted, haste, hexproof, indestructible, lifelink, "
     "menace, reach, shadow, trample, and vigilance."),
    ("702.2c", "en", "Any nonzero amount of combat damage assigned to a creature by a source "
     "with deathtouch is considered to be lethal damage for the purposes of determining if "
     "excess damage is being dealt."),
    ("702.19c", "en", "Trample over planeswalkers is a variant of trample that modifies the "
     "rules for assigning combat damage to planeswalkers. The controller of a creature with "
     "trample over planeswalkers assigns that creature’s combat damage as described in rule "
     "702.19b, with one exception."),
    ("205.2a", "en", ENGLISH[3][2]),
]  # fmt: skip


def test_when_few_rules_have_every_word_those_with_some_come_after_them():
    """ "deathtouch trample": one rule has both words; it stays first, and the rules of each
    keyword follow it, though one of them scores higher on its word alone."""
    with tiny_index(KEYWORDS) as searcher:
        found = candidates(searcher, plain_query("deathtouch trample"))
    assert [c.key for c in found] == ["122.1b", "702.19c", "702.2c"]
    assert found[0].score > found[1].score


def test_a_sentence_that_some_rules_have_every_word_of_is_left_to_them():
    """A sentence (three content words or more) is also asked of the encoder: words alone keep
    the rules with every word, however few."""
    with tiny_index(KEYWORDS) as searcher:
        found = candidates(searcher, plain_query("deathtouch trample haste"))
    assert [c.key for c in found] == ["122.1b"]


TOUGHNESS = [
    ("704.5f", "en", "If a creature has toughness 0 or less, it's put into its owner's "
     "graveyard. Regeneration can't replace this event."),
    ("704.5g", "en", "If a creature has toughness greater than 0, it has damage marked on it, "
     "and the total damage marked on it is greater than or equal to its toughness, that "
     "creature has been dealt lethal damage and is destroyed."),
]  # fmt: skip


def test_a_number_beside_its_word_matches_in_either_order():
    """A question's "0 toughness" is the rule's "toughness 0": 704.5f, whose words stand
    together the other way round, comes before 704.5g, which repeats them apart."""
    from search.builder import near_pairs

    assert list(near_pairs(["creature", "0", "toughness"])) == [
        ("creature", "0"),
        ("0", "creature"),
        ("0", "toughness"),
        ("toughness", "0"),
    ]
    assert list(near_pairs(["legend", "rule"])) == [("legend", "rule")]
    question = plain_query("what happens to a creature with 0 toughness", ("en",), asked=True)
    with tiny_index(TOUGHNESS) as searcher:
        assert [c.key for c in candidates(searcher, question)] == ["704.5f", "704.5g"]


def test_fusion_ranks_by_both_rankings():
    """Reciprocal rank fusion: a key second in both rankings beats one first in one ranking
    only; each ranking counts weight / (k + rank), whatever its scores' scale."""
    lexical = {"704.5j": 12.0, "205.4d": 9.0, "Legend Rule": 3.0}  # BM25
    dense = {"704.5a": 0.81, "205.4d": 0.69}  # cosine
    fused = rank.fused(lexical, dense, k=60, dense_weight=1.0)
    assert rank.in_order(fused) == ["205.4d", "704.5a", "704.5j", "Legend Rule"]
    assert fused["205.4d"] == pytest.approx(2 / 62)
    assert fused["704.5j"] == fused["704.5a"] == pytest.approx(1 / 61)  # a tie: rule order
    weighed = rank.fused(lexical, dense, k=60, dense_weight=0.5)
    assert weighed["704.5a"] == pytest.approx(0.5 / 61)
    assert rank.in_order(weighed)[:2] == ["205.4d", "704.5j"]


def test_fusion_keeps_a_first_place_worth_more_than_two_distant_ones():
    """With the default constant (30), a key words put first and the encoder not at all beats
    one both put 25th; at the paper's 60 the distant pair won."""
    lexical = {"602.5d": 9.0, **{f"1.{n}": 5.0 - n / 10 for n in range(23)}, "701.2a": 1.0}
    dense = {**{f"2.{n}": 0.9 - n / 100 for n in range(24)}, "701.2a": 0.5}
    assert rank.in_order(lexical).index("701.2a") == rank.in_order(dense).index("701.2a") == 24
    assert rank.in_order(rank.fused(lexical, dense))[0] == "602.5d"
    assert rank.in_order(rank.fused(lexical, dense, k=60))[0] == "701.2a"


def test_fusion_without_a_dense_ranking_keeps_the_lexical_order():
    """No vectors (being prepared, or none near enough): the fused order is Whoosh's."""
    lexical = {"205.4d": 9.0, "704.5j": 12.0, "205.4a": 1.0}
    assert rank.in_order(rank.fused(lexical, {})) == rank.in_order(lexical)


def test_the_rules_on_top_of_fusion_still_apply():
    """The key the query names, first by words, stays first over a key the encoder puts
    first and words second."""
    fused = rank.fused({"Legend Rule": 9.0, "205.4d": 3.0}, {"205.4d": 0.7, "704.5j": 0.6})
    assert rank.in_order(fused)[0] == "205.4d"
    named = rank.exact_name_bonus(fused, {"Legend Rule"})
    assert rank.in_order(named)[0] == "Legend Rule"


FLASH = [
    ("601.3b", "en", "If an effect allows a player to cast a spell with certain qualities as "
     "though it had flash, that player may consider any choices to be made during that "
     "spell’s proposal that may cause that spell’s qualities to change. If any such choices "
     "could cause that effect to apply, that player may begin to cast that spell as though it "
     "had flash."),
    ("702.8a", "en", "Flash is a static ability that functions in any zone from which you "
     "could play the card it’s on. “Flash” means “You may play this card any time you could "
     "cast an instant.”"),
    ("702.80a", "en", "Wither is a static ability. Damage dealt to a creature by a source with "
     "wither isn’t marked on that creature."),
]  # fmt: skip


def test_a_question_about_a_keyword_gets_its_section_first():
    """ "can I cast a spell with flash": by words 601.3b (cast, spell, flash twice) is first,
    and the encoder puts it first too; the question names the keyword, so its section (702.8,
    with 702.8a) comes first, and 702.80a, a section that only begins alike, gains nothing."""
    query = plain_query("can I cast a spell with flash", asked=True)
    with tiny_index(FLASH) as searcher:
        lexical = rank.by_key(candidates(searcher, query), ())
    assert rank.in_order(lexical) == ["601.3b", "702.8a"]
    fused = rank.fused(lexical, {"601.3b": 0.52, "702.80a": 0.49, "702.8a": 0.47})
    assert rank.in_order(fused)[:2] == ["601.3b", "702.8a"]
    first = rank.keyword_sections_first(fused, {"702.8"})
    assert rank.in_order(first) == ["702.8a", "601.3b", "702.80a"]
    assert first["702.8a"] == fused["702.8a"] * rank.KEYWORD_SECTION_BONUS
    assert first["702.80a"] == fused["702.80a"]
    assert rank.in_section("702.8", "702.8") and not rank.in_section("702.80a", "702.8")


@pytest.mark.parametrize(
    ("query", "tournament"),
    [
        ("mis fundas estan marcadas, que penalizacion me pueden poner", True),
        ("che penalità prende chi vede carte in più mentre mescola il mazzo?", True),
        ("un joueur n'est pas à sa table au début de la ronde, quelle pénalité ?", True),
        ("en REL Regular, ¿cuándo se descalifica a un jugador?", True),
        ("am I allowed to take notes during a match?", True),
        ("après une game loss, qui choisit de commencer la partie suivante ?", True),
        ("il a oublié de mélanger sa bibliothèque, c'est quoi la sanction", True),
        ("che sanzione prende chi gioca lentamente?", True),
        ("en mi lista de mazo apunté una versión distinta del planeswalker", True),
        ("à l'avant-première mon adversaire mélange à peine son deck", True),
        ("al Friday Night Magic un ragazzo ha trovato una carta in più", True),
        ("cosa succede se pesco da un grimorio vuoto", False),
        ("does life loss from a spell trigger lifelink", False),
        ("¿puedo responder a una habilidad de maná?", False),
        ("when is damage removed from creatures", False),
        ("in a booster draft can I look at my picks", True),
        ("what happens to conspiracy cards during the draft", False),
        ("booster draft rules for conspiracies", False),
        ("¿cómo funciona el draft de Conspiracy?", False),
        ("un joueur a regardé la carte du dessus de sa bibliothèque par erreur", True),
        ("un jugador miró la carta de arriba de su biblioteca sin querer", True),
        ("I accidentally saw the top card of my library", True),
        ("my opponent forgot his trigger", True),
        ("il mio avversario ha dimenticato di stappare le terre", True),
        ("mi oponente olvidó robar su carta", True),
        ("un jugador soltó palabrotas después de perder", True),
        ("time was called during game 3, how many extra turns?", True),
        ("offrire soldi all'avversario per farlo concedere", True),
        ("¿se puede usar un dado spindown para tirar dados?", True),
        ("una creatura con minaccia può essere bloccata da una sola creatura?", False),
        ("Does my opponent have to tell me their exact life total if I ask?", True),
        ("mon adversaire est obligé de me dire combien de points de vie il lui reste ?", True),
        ("le dije a mi oponente que tenía tres cartas en la mano", True),
        ("ho detto 'passo' ma non avevo giocato la terra", True),
        ("si una carta dice 'roba dos cartas', ¿son dos robos separados?", False),
        ("¿tengo que recordarle a mi oponente su habilidad disparada?", True),
        ("do I have to remind my opponent about their trigger", True),
        ("que veut dire regard 2", False),
        ("le texte de rappel en italique a-t-il valeur de règle ?", False),
        ("nell'illustrazione la mia creatura ha le ali, vuol dire che ha volare?", False),
    ],
)
def test_a_tournament_word_in_any_language_marks_a_question_for_the_judge_documents(
    query: str, tournament: bool
):
    """ "penalizacion", "penalità", "ronde", "REL", "match", "avant-première", a decklist in
    several words ("lista de mazo"), an IPG penalty named as the IPG writes it ("game loss"): the
    question is of a tournament; a game's question ("grimorio vuoto", "habilidad de maná", "life
    loss") is not, nor a draft of Conspiracy (CR 905): "draft" and "booster" are both the
    tournament's and the variant's words, a tournament's only when no other variant is named.
    A mistake ("par erreur", "sin querer", "accidentally", "forgot", "dimenticato", "olvidó")
    is the IPG's or the JAR's to fix: the CR never says "forget"; so are conduct (swearing,
    money offered to concede) and a round's time called, and what players tell each other
    ("tell me", "me dire", "le dije", reminding: the MTR's communication, shortcuts, decisions
    and triggers), not
    what a card says ("una carta dice", "que veut dire"). A keyword is not ("minaccia", menace,
    is no threat)."""
    assert is_about_a_tournament(query) is tournament


def test_a_tournament_question_gets_the_judge_documents_first():
    """Asked of a tournament, IPG 3.8 (Marked Cards), second by meaning, outranks 104.3k (a
    game's loss), first by words and by meaning; a game's question leaves the order as it is."""
    fused = rank.fused({"104.3k": 7.0, "701.32c": 6.0}, {"104.3k": 0.48, "IPG 3.8": 0.46})
    assert rank.in_order(fused)[0] == "104.3k"
    assert rank.in_order(rank.judge_documents_first(fused, False)) == rank.in_order(fused)
    judged = rank.judge_documents_first(fused, True)
    assert rank.in_order(judged)[0] == "IPG 3.8"
    assert judged["IPG 3.8"] == fused["IPG 3.8"] * rank.JUDGE_DOCUMENT_BONUS
    assert judged["104.3k"] == fused["104.3k"]


def test_a_tournament_outcome_starts_with_the_judge_documents_own_best():
    """The judge documents' best few, ranked among themselves, come first; then every document's
    results without those already shown, up to the limit; the words are the whole search's."""
    from search.results import Result, SearchOutcome

    own = SearchOutcome([Result(k, 1.0) for k in ("IPG 2.4", "IPG 2.3", "JAR introduction")])
    every = SearchOutcome(
        [Result(k, 1.0) for k in ("103.5", "IPG 2.3", "402.1", "902.5")],
        matched=frozenset({"pesc", "cart"}),
    )
    joined = own.followed_by(every, limit=4, first=2)
    assert [r.key for r in joined.results] == ["IPG 2.4", "IPG 2.3", "103.5", "402.1"]
    assert joined.matched == every.matched


def test_a_tournament_level_named_asks_the_document_it_is_judged_by():
    """ "en REL Regular…", "at FNM", "torneo casual", a prerelease: the JAR; "a competitive":
    the IPG; a query naming both levels, or none, prefers neither, unless it asks for a penalty
    (the IPG's: the JAR gives none). Asked so, the JAR's part outranks the IPG's infraction
    that shares its words."""
    assert level_document("en REL Regular, ¿cuándo se descalifica a un jugador?") == "jar"
    assert level_document("torneo casual, l'avversario si è scordato un innesco") == "jar"
    assert level_document("a competitive un giocatore pesca otto carte") == "ipg"
    assert level_document("en la presentación mi rival casi no baraja") == "jar"  # prerelease
    assert level_document("at a prerelease my opponent drew an extra card") == "jar"
    assert level_document("regular or competitive, what changes?") is None
    assert level_document("quelle pénalité pour une decklist illégale") == "ipg"
    assert level_document("penalty at regular or competitive?") is None
    assert level_document("my opponent forgot a trigger") is None
    fused = {"IPG 2.3": 0.020, "JAR a-player-makes-an-in-game-error-not": 0.015, "104.1": 0.016}
    judged = rank.judge_documents_first(fused, True, "jar")
    assert rank.in_order(judged) == ["JAR a-player-makes-an-in-game-error-not", "IPG 2.3", "104.1"]
    assert judged["IPG 2.3"] == fused["IPG 2.3"] * rank.JUDGE_DOCUMENT_BONUS


def test_at_regular_rel_the_infraction_found_best_hands_its_score_to_its_jar_part():
    """A question about Regular REL whose words find IPG 2.3 (Hidden Card Error) best gets the
    JAR's part for it ("A player accidentally draws more cards") at least as high; the
    infractions found after the best hand nothing on (IPG 3.9's shuffling), and a part that
    scores more keeps its own score."""
    draws, shuffles = "JAR a-player-accidentally-draws-more-cards-or-has", "JAR general"
    counterparts = {"IPG 2.3": draws, "IPG 3.9": shuffles}
    fused = {"JAR introduction": 0.018, "IPG 2.3": 0.030, "IPG 3.9": 0.025, draws: 0.010}
    fixed = rank.fixed_at_regular(fused, counterparts)
    assert fixed[draws] == fused["IPG 2.3"] and shuffles not in fixed
    judged = rank.judge_documents_first(fixed, True, "jar")
    assert rank.in_order(judged)[0] == draws
    assert rank.fixed_at_regular({**fused, draws: 0.05}, counterparts)[draws] == 0.05
    assert rank.fixed_at_regular({"104.1": 0.02}, counterparts) == {"104.1": 0.02}


@pytest.mark.parametrize(
    "query, variant",
    [
        ("how many poison counters does it take to kill a player", False),
        ("¿qué pasa si llego a 0 vidas?", False),
        ("quanti punti vita ha un giocatore a Commander", True),
        ("en multijoueur, qui commence ?", True),
        ("in Two-Headed Giant how many poison counters", True),
        ("mi compañero de equipo puede bloquear por mí", True),
        ("en multi chacun pour soi, je peux attaquer plusieurs adversaires ?", True),
        ("in una partita tutti contro tutti chi inizia?", True),
        ("chacun son tour", False),
    ],
)
def test_a_variant_is_named_in_any_language(query: str, variant: bool):
    """ "Commander", "multijoueur", "Two-Headed Giant", "compañero de equipo", players' "multi"
    and Free-for-All's names ("chacun pour soi", "tutti contro tutti") name a variant or a
    multiplayer game; "0 vidas", "poison counters" do not."""
    assert names_a_variant(query) is variant


def test_a_rule_a_query_names_is_among_its_candidates():
    """A rule the query names whole, which its words and meaning missed, is added at the best
    score so far (the exact name's bonus then puts it first); one already there keeps its."""
    scores = {"306.9": 0.9, "117.5": 0.5}
    present = rank.named_rules_present(scores, {"704", "117.5"})
    assert present == {"306.9": 0.9, "117.5": 0.5, "704": 0.9}
    assert rank.named_rules_present({}, {"704"}) == {}


def test_a_keyword_named_with_its_quality_is_raised_to_the_best_score():
    """A keyword ability named with its quality ("protection from red": 702.16) is raised to the
    best score so far, above which the exact name's bonus puts it, though the rules printing
    the whole phrase outscored it by words; one already the best keeps its score."""
    scores = {"613.10": 47.2, "702.47c": 45.4, "702.16": 7.3}
    raised = rank.raised_to_the_best(scores, {"702.16"})
    assert raised == {"613.10": 47.2, "702.47c": 45.4, "702.16": 47.2}
    assert rank.in_order(rank.exact_name_bonus(raised, {"702.16"}))[0] == "702.16"
    assert rank.raised_to_the_best({"702.16": 5.0, "613.10": 1.0}, {"702.16"})["702.16"] == 5.0
    assert rank.raised_to_the_best({}, {"702.16"}) == {}


def test_a_query_that_names_no_variant_asks_about_a_two_player_game():
    """A query that names a variant keeps the rules of sections 800-999 as they are; one that
    names none counts them half: 810.10 (a team's fifteen poison counters) no longer outranks
    704.5c, and a chapter's heading (8) is no variant's rule."""
    scores = {"810.10a": 0.030, "704.5c": 0.020, "8": 0.010}
    assert rank.in_order(rank.two_player_game_first(scores, True))[0] == "810.10a"
    halved = rank.two_player_game_first(scores, False)
    assert rank.in_order(halved) == ["704.5c", "810.10a", "8"]
    assert halved["810.10a"] == 0.030 * rank.VARIANT_SHARE and halved["8"] == 0.010


def test_what_the_newest_english_edition_no_longer_has_comes_after_what_it_has():
    """A glossary entry gone from English that a translation still has (the Spanish CR's
    "Vancouver Mulligan") counts half: the rules in force come first, the others keep theirs."""
    scores = {"Vancouver Mulligan": 0.030, "103.5": 0.020, "London Mulligan": 0.015}
    ordered = rank.current_rules_first(scores, {"Vancouver Mulligan"})
    assert rank.in_order(ordered) == ["103.5", "London Mulligan", "Vancouver Mulligan"]
    assert ordered["103.5"] == 0.020 and rank.in_order(rank.current_rules_first(scores, ())) == [
        "Vancouver Mulligan",
        "103.5",
        "London Mulligan",
    ]


def test_the_learned_order_raises_the_encoders_first_and_what_words_found():
    """The final order weighs a key's place so far, whether words found it and its rank by
    meaning: 704.5a, the encoder's first and found by words, third after the rules above,
    comes first, above two keys words alone found; a key found by meaning alone, second by
    meaning, stays below them."""
    lexical = {"119.4b": 9.0, "118.3b": 8.0, "704.5a": 4.0}
    dense = {"704.5a": 0.62, "810.9b": 0.55}
    scores = {"119.4b": 0.05, "118.3b": 0.04, "704.5a": 0.03, "810.9b": 0.02}
    assert rank.in_order(rank.learned_order(scores, lexical, dense)) == [
        "704.5a",
        "119.4b",
        "118.3b",
        "810.9b",
    ]
    features = dict(rank.order_features(rank.in_order(scores), lexical, dense))
    assert features["704.5a"] == (log(3), 1.0, 1.0, 0.0)
    assert features["810.9b"] == (log(4), 0.0, 0.5, 0.0)


def test_the_learned_order_puts_a_glossary_entry_below_the_rules_it_ties_with():
    """A glossary entry says what a word means; the rule answers the question: "Mana
    Ability", first, goes below 605.3b, the rule a question about responding to one asks for.
    The keys past REORDERED keep their order under the others."""
    lexical = {"Mana Ability": 5.0, "605.3b": 4.0}
    dense = {"Mana Ability": 0.7, "605.3b": 0.6}
    scores = {"Mana Ability": 0.04, "605.3b": 0.03}
    scores.update({f"100.{n}": 0.01 - n / 10_000 for n in range(1, rank.REORDERED + 2)})
    order = rank.in_order(rank.learned_order(scores, lexical, dense))
    assert order.index("605.3b") < order.index("Mana Ability")
    assert order[-2:] == ["100.30", "100.31"]  # below REORDERED: in the order they had
    assert rank.is_glossary_entry("Mana Ability")
    assert not rank.is_glossary_entry("Station")  # a mechanic: its key shows its rule
    assert not rank.is_glossary_entry("IPG 2.1") and not rank.is_glossary_entry("605.3b")


def test_two_subrules_of_one_rule_among_the_best_are_answered_by_the_rule():
    """305.2a and 305.2b in the best three: 305.2 takes the first one's place (with its subrules,
    present.with_subrules); a rule with many subrules, or one subrule alone, stays in parts."""
    scores = {"305.2a": 3.0, "305.4": 2.5, "305.2b": 2.0, "701.18a": 1.0}
    gathered, keys = rank.siblings_gathered(scores, lambda rule: 6)
    assert keys == {"305.2"}
    assert rank.in_order(gathered)[:2] == ["305.2", "305.2a"]
    assert rank.siblings_gathered(scores, lambda rule: 30) == (scores, frozenset())
    alone = {"305.2a": 3.0, "305.4": 2.5, "701.18a": 1.0}
    assert rank.siblings_gathered(alone, lambda rule: 6) == (alone, frozenset())
    below = {"305.4": 3.0, "702.2": 2.5, "701.18a": 2.4, "305.2a": 2.0, "305.2b": 1.9}
    assert rank.siblings_gathered(below, lambda rule: 6)[1] == frozenset()  # not among the best
