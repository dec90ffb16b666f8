"""The term base knows every keyword the MTGJSON cards print: their Italian, French and Spanish
names learned offline (corpus/data/terms-mtgjson.tsv), the terms no longer in use with their
period, learned pairs too unsure to show left out of `term`, and curated rows only for what
the learned ones do not give."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from corpus.model.inflection import inflected_alike
from corpus.read.ingest import ingest_bytes
from corpus.terms.termbase import SHOWN_CONFIDENCE, Term, TermBase, static_terms, unlearned
from search.cli import cli

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "derive_terms.py"


def names(english: str, terms: tuple[Term, ...] | list[Term]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for term in terms:
        if term.english == english and term.shown:
            found.setdefault(term.lang, set()).add(term.term)
    return found


def test_the_learned_term_base_names_keywords_in_three_languages():
    """Madness is follia, folie, demencia; Rebound rebond; Evoke apparire, évocation, evocar."""
    learned = [t for t in static_terms() if t.source.startswith("learned from MTGJSON")]
    assert names("madness", learned) == {"it": {"follia"}, "fr": {"folie"}, "es": {"demencia"}}
    assert "rebond" in names("rebound", learned)["fr"]
    assert "ripresa" in names("rebound", learned)["it"]
    evoke = names("evoke", learned)
    assert (evoke["it"], evoke["fr"], evoke["es"]) == ({"apparire"}, {"évocation"}, {"evocar"})
    assert "tempesta" in names("storm", learned)["it"]
    assert "convocazione" in names("convoke", learned)["it"]


def test_keyword_names_are_looked_up_in_their_language():
    """'follia', 'folie', 'tempesta' and 'piocher' (a form of 'piochez') name their keyword."""
    termbase = TermBase(static_terms())
    assert termbase.english_for("follia") == {"madness"}
    assert termbase.english_for("folie") == {"madness"}
    assert "storm" in termbase.english_for("tempesta")
    assert "draw" in termbase.english_for("piocher")
    assert inflected_alike("piocher", "piochez", "fr")
    assert not inflected_alike("deserter", "désert", "fr")  # a verb of a noun is another word


def test_a_participle_is_its_verbs_form_not_a_nouns():
    """Spanish "marcadas" (marked) is an inflection of "marcada" and "marcar", not of "marco"
    (a frame), whose stem it shares: "cartas con un marco" names no marked cards."""
    assert inflected_alike("marcadas", "marcada", "es")
    assert inflected_alike("marcadas", "marcar", "es")
    assert not inflected_alike("marcadas", "marco", "es")


def test_a_preterite_is_its_verbs_form_as_its_participle_is():
    """Spanish "olvidó" (forgot) is a form of "olvidado" and "olvidar", its accent telling it
    from the noun "olvido", which is not; "comió" of "comer"."""
    assert inflected_alike("olvidó", "olvidado", "es")
    assert inflected_alike("olvidó", "olvidar", "es")
    assert inflected_alike("comió", "comer", "es")
    assert not inflected_alike("olvido", "olvidado", "es")
    assert not inflected_alike("bloqueada", "bloqueo", "es")
    assert inflected_alike("cartas", "carta", "es") and inflected_alike("gira", "girar", "es")
    termbase = TermBase(static_terms())
    assert "marked cards" in termbase.concepts_in("cartas marcadas", "es")
    assert "marked cards" not in termbase.concepts_in("Son cartas con un marco de dos partes", "es")


def test_the_games_general_words_are_learned_from_the_cards_too():
    """'turno' and 'tour' are turn, 'fondo' bottom, 'ogniqualvolta' whenever: words no heading
    names, which the cards print thousands of times, so that a question in Italian or French
    reaches the English rule. They translate a query's words, and are no record's concepts."""
    termbase = TermBase(static_terms())
    assert "turn" in termbase.english_for("turno")
    assert "turn" in termbase.english_for("tour")
    assert "bottom" in termbase.english_for("fondo")
    assert "whenever" in termbase.english_for("ogniqualvolta")
    assert "turn" not in termbase.concepts_in("alla fine del turno", "it")
    assert {t.term for t in termbase.lookup("turno") if t.lang == "fr"} == {"tour"}


def test_a_term_replaced_on_later_cards_carries_its_period():
    """Italian cards print 'costo di mana convertito' 2003-2021, then 'valore di mana'."""
    by_term = {(t.lang, t.term): t for t in static_terms() if t.english == "mana value"}
    old = by_term["it", "costo di mana convertito"]
    assert (old.period, old.obsolete) == ("2003-2021", True)
    assert by_term["es", "coste de maná convertido"].obsolete
    assert not by_term["es", "valor de maná"].obsolete
    assert not by_term["it", "valore di mana"].obsolete


def test_no_curated_row_repeats_a_learned_pair():
    """A curated row stays only where the learned pairs do not already give its term (a general
    word's pair does not: it translates a query's word but is no record's concept)."""
    terms = static_terms()
    learned = [
        t
        for t in terms
        if t.source.startswith("learned from MTGJSON") and t.shown and not t.general
    ]
    curated = [t for t in terms if t.source.startswith("curated") and not t.period]
    assert unlearned(curated, learned) == curated


def test_a_curated_keyword_action_stands_beside_an_unsure_learned_pair():
    """English counter is two things: the learner gives it the counters' noun (contadores) and
    contrarrestar at 0.02, too unsure to be shown; that pair does not stand for the curated row
    naming 701.6's keyword action, which stays, as the Italian and French ones do."""
    curated = {(t.lang, t.term): t for t in static_terms() if t.source.startswith("curated")}
    action = [curated[lang, term] for lang, term in ACTION_COUNTER]
    assert {t.english for t in action} == {"counter"}
    unsure = Term("counter", "es", "contrarrestar", "learned: 3 aligned pairs", confidence=0.02)
    sure = Term("counter", "es", "contrarrestar", "learned: 90 aligned pairs", confidence=0.6)
    assert unlearned(action, [unsure]) == action
    assert unlearned(action, [sure]) == action[:2]


ACTION_COUNTER = (("it", "neutralizzare"), ("fr", "contrecarrer"), ("es", "contrarrestar"))


def test_noise_is_below_the_shown_confidence():
    """The learned pairs below the threshold are keyword lines misread; the real terms sit above."""
    learned = {(t.english, t.lang, t.term): t for t in static_terms() if t.confidence is not None}
    assert not learned["menace", "it", "menace"].shown  # confidence 0.008
    assert learned["menace", "it", "minacciare"].shown
    assert not learned["suspend", "fr", "suspend"].shown  # 0.022
    assert learned["myriad", "fr", "myriade"].shown  # 0.18: the least sure real name
    assert learned["trample", "es", "arrolla"].confidence >= SHOWN_CONFIDENCE


def test_term_hides_unsure_pairs_and_marks_obsolete_terms(tmp_path: Path):
    """`term` leaves 'menace' it 'menace' out (and says so) and dates a replaced term."""
    runner = CliRunner(env={"MTGRULES_HOME": str(tmp_path)})
    menace = runner.invoke(cli, ["term", "minacciare"], catch_exceptions=False)
    assert menace.exit_code == 0
    assert "  it  minacciare  — learned from MTGJSON card text" in menace.stdout
    assert "  it  menace " not in menace.stdout
    assert "learned pairs below confidence 0.1 hidden)" in menace.stdout
    cmc = runner.invoke(cli, ["term", "costo di mana convertito"], catch_exceptions=False)
    assert "  it  costo di mana convertito (no longer in use: 2003-2021)  — " in cmc.stdout
    data = json.loads(
        runner.invoke(cli, ["term", "--json", "minacciare"], catch_exceptions=False).stdout
    )
    assert data["hidden"] >= 1
    assert all(
        t["confidence"] is None or t["confidence"] >= SHOWN_CONFIDENCE
        for t in data["concepts"][0]["terms"]
    )


def test_term_lists_the_word_asked_first_in_its_language(tmp_path: Path):
    """`term neutralizzare`: English counter's Italian rows begin with neutralizzare, the word
    asked, above segnalini (the counters' noun of the same English word); `term segnalini` the
    other way round."""
    runner = CliRunner(env={"MTGRULES_HOME": str(tmp_path)})

    def italian(word: str) -> list[str]:
        out = runner.invoke(cli, ["term", "--json", word], catch_exceptions=False).stdout
        counter = next(c for c in json.loads(out)["concepts"] if c["english"] == "counter")
        return [t["term"] for t in counter["terms"] if t["lang"] == "it"]

    assert italian("neutralizzare")[:2] == ["neutralizzare", "segnalini"]
    assert italian("segnalini")[:2] == ["segnalini", "neutralizzare"]


@pytest.mark.shared_data
def test_deriving_from_a_real_set_file_learns_its_keywords(shared_data: Path):
    """From Modern Horizons 2 alone: Madness follia/folie/demencia, Evoke apparire/évocation."""
    sets = shared_data / "terms" / "mtgjson"
    crs = sorted((shared_data / "cr" / "en").glob("*.txt"))
    if not (sets / "MH2.json").is_file() or not crs:
        pytest.skip("the MTGJSON set files or the English CR are absent")
    spec = importlib.util.spec_from_file_location("derive_terms", SCRIPT)
    assert spec and spec.loader
    derive_terms = importlib.util.module_from_spec(spec)
    sys.modules["derive_terms"] = derive_terms
    spec.loader.exec_module(derive_terms)
    records = ingest_bytes(crs[-1].read_bytes(), crs[-1].name).records
    learned = derive_terms.derive([sets / "MH2.json"], records)
    terms = [Term(t.english, t.lang, t.term, "", confidence=t.confidence) for t in learned]
    assert names("madness", terms) == {"it": {"follia"}, "fr": {"folie"}, "es": {"demencia"}}
    assert names("evoke", terms) == {"it": {"apparire"}, "fr": {"évocation"}, "es": {"evocar"}}
    first, last = next((t.first, t.last) for t in learned if t.english == "madness")
    assert first == last == "2021-06-18"  # MH2's release date
    headings = derive_terms.keyword_headings(records)
    assert {"Madness", "Evoke", "Scry", "Proliferate"} <= set(headings)
    named, missing = derive_terms.coverage(learned, headings)["it"]
    assert "Madness" in named and "Madness" not in missing
