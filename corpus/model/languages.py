"""The one table of languages mtgrules reads, and the words that mark structure in each."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

# Spanish and Portuguese inflect alike: plural, gender, infinitives and past participles.
IBERIAN_ENDINGS = frozenset(
    ["", "s", "es", "a", "as", "o", "os", "ar", "er", "ir", "ado", "ada", "ados", "adas"]
)


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    # Labels that open an example or a note paragraph ("Esempio:", "Exemple :").
    example_labels: tuple[str, ...]
    note_labels: tuple[str, ...]
    # The word for "rule" in headings and cross-references ("vedi regola 704.5j").
    rule_words: tuple[str, ...]
    # The heading that introduces unnumbered subrules on a rules web page.
    subrules_headings: tuple[str, ...]
    # The heading before the official rulings in a set-mechanics article.
    rulings_headings: tuple[str, ...]
    # First words of a mechanic's category line ("Abilità definita da parola chiave").
    category_words: tuple[str, ...]
    # Function words that are frequent in this language and rare in the others.
    marker_words: frozenset[str]
    # The CR's own headings: its title, the glossary, the credits, the contents; and the word
    # that opens a glossary cross-reference ("Ver también", "See").
    title_phrases: tuple[str, ...] = ()
    glossary_headings: tuple[str, ...] = ()
    credits_headings: tuple[str, ...] = ()
    contents_headings: tuple[str, ...] = ()
    see_words: tuple[str, ...] = ()
    # How a translator's note opens, in full ("Nota del traduttore"); "N.d.T." is every one's.
    translator_note_labels: tuple[str, ...] = ()
    # Elided articles, prepositions and pronouns the Snowball stop lists lack; whether an elided
    # article is a word of its own ("l'initiative": "l'", "initiative").
    extra_stop_words: frozenset[str] = frozenset()
    elides: bool = False
    # What may follow a word's common part: plural, gender and the verb endings rules use.
    inflection_endings: frozenset[str] = frozenset([""])
    # The words of a question ("how does warp work"), and those that open one.
    question_words: frozenset[str] = frozenset()
    question_openers: frozenset[str] = frozenset()
    # Question words that are never relative pronouns: one anywhere asks ("my opponent is
    # cheating what do I do"), where "which" or "que" may only join a clause.
    interrogatives: frozenset[str] = frozenset()
    # Words a question about a tournament has ("decklist", "ronde"), besides its asking words
    # below ("penalità", "REL"): the judge documents (MTR, IPG, JAR) answer it rather than the CR.
    tournament_words: frozenset[str] = frozenset()
    # A tournament's things named in several words ("lista de mazo": a decklist).
    tournament_phrases: tuple[str, ...] = ()
    # Phrases for "more than allowed" made of stop words alone ("de más", "in più"; French
    # "en trop" has a content word): a query reads each as the word "extra", or "robó una
    # carta de más" would be "robó carta", as is every question about drawing.
    extra_phrases: tuple[str, ...] = ()
    # Words that name a multiplayer game or a casual variant (sections 800-999: "Commander",
    # "multigiocatore", "équipe"): a query without one asks about a two-player game.
    variant_words: frozenset[str] = frozenset()
    # And those named in several words ("chacun pour soi": Free-for-All, rule 806).
    variant_phrases: tuple[str, ...] = ()
    # The pronouns joined to an infinitive, gerund or imperative, longest first ("glielo"
    # before "lo"): "rimetterlo" is "rimettere" + "lo", a form no dictionary lists.
    enclitics: tuple[str, ...] = ()
    # How a form cards print relates to its dictionary form, regularly enough that simplemma's
    # lemma is trusted for it (corpus/terms/headwords.py): (printed ending, lemma ending,
    # same stem). Same stem: the lemma is the form with its ending replaced ("jetons": jeton;
    # "sacrifica": sacrificare); else the lemma need only end so ("choisissez": choisir).
    printed_forms: tuple[tuple[str, str, bool], ...] = ()
    # Irregular past forms and the verb the rules write ("drew": draw, "forgot": forget): a
    # stemmer leaves them apart, and questions tell what happened.
    past_forms: dict[str, str] = field(default_factory=dict)
    # Players' words for what the rules say otherwise, each with the rules' words ("fizzle":
    # a spell that doesn't resolve, its targets illegal, 608.2b; "bounce": return to hand).
    slang: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # A word and the rules' broader word for what it names: a creature is a permanent, and the
    # rule that answers a question about two legendary creatures says "legendary permanents"
    # (704.5j), as damage on creatures is removed from "permanents" (514.2).
    broader: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The counts as the rules spell them, from zero ("ten or more poison counters", 704.5c):
    # a question types the digits ("10 segnalini veleno").
    spelt_counts: tuple[str, ...] = ()
    # The tournament words that ask a judge without naming what about ("penalità", "juge",
    # "torneo", "REL"): every part of the judge documents has them.
    asking_words: frozenset[str] = frozenset()
    # Who did it ("player", "avversario"): a query that names an infraction whole but for them
    # names it ("player drew an extra card": Hidden Card Error, as "drew an extra card" does).
    player_words: frozenset[str] = frozenset()
    # The language's name in English sentences ("no French text for 704"), and a few searches
    # the web app's home page offers in it.
    english_name: str = ""
    example_searches: tuple[str, ...] = ()


def meanings_of(text: str) -> dict[str, tuple[str, ...]]:
    """Words and the rules' words they mean (players' words, a broader word), written "fizzle
    fizzles:resolve,illegal": each word before a colon means the words after it."""
    table: dict[str, tuple[str, ...]] = {}
    waiting: list[str] = []
    for item in text.split():
        word, _, meaning = item.partition(":")
        waiting.append(word)
        if meaning:
            table.update(dict.fromkeys(waiting, tuple(meaning.split(","))))
            waiting = []
    return table


def verbs_of(text: str) -> dict[str, str]:
    """Past forms and their verbs, written "drew:draw forgot:forget"."""
    return dict(pair.split(":") for pair in text.split())


def words_in(text: str) -> tuple[str, ...]:
    """The words of a text, in order: a table's word list written as prose."""
    return tuple(text.split())


def word_set(text: str) -> frozenset[str]:
    """The words of a text, as a set: a table's long word lists written as prose."""
    return frozenset(text.split())


LANGUAGES: dict[str, Language] = {
    "it": Language(
        code="it",
        name="Italiano",
        english_name="Italian",
        example_searches=("regola delle leggende", "tipo di carta", "Stazione"),
        example_labels=("Esempio", "Esempi"),
        note_labels=("Nota", "Note"),
        rule_words=("regola", "regole", "sezione"),
        subrules_headings=("Sottoregole",),
        rulings_headings=("Note di regolamento ufficiali", "Note di regolamento"),
        category_words=(
            "Abilità",
            "Azione",
            "Parola",
            "Tipo",
            "Sottotipo",
            "Supertipo",
            "Meccanica",
        ),
        marker_words=frozenset(
            [
                "il",
                "lo",
                "loro",
                "hanno",
                "dei",
                "gli",
                "della",
                "delle",
                "dello",
                "degli",
                "del",
                "di",
                "che",
                "è",
                "sono",
                "una",
                "uno",
                "con",
                "per",
                "non",
                "questa",
                "questo",
                "quella",
                "quello",
                "anche",
                "più",
                "può",
                "essere",
                "ogni",
                "come",
                "nella",
                "nel",
            ]
        ),
        title_phrases=("regolamento completo", "regole complete"),
        glossary_headings=("glossario",),
        credits_headings=("crediti", "riconoscimenti"),
        contents_headings=("indice", "sommario"),
        see_words=("vedi",),
        translator_note_labels=("Nota del traduttore",),
        extra_stop_words=frozenset(["un", "quell", "quest", "sull", "s"]),
        elides=True,
        inflection_endings=frozenset(
            ["", "a", "e", "i", "o", "he", "hi", "re", "to", "ta", "ti", "te", "no", "ndo"]
        ),
        question_words=frozenset(
            (
                "come",
                "cosa",
                "che",
                "quando",
                "dove",
                "quale",
                "quali",
                "perché",
                "perche",
                "funziona",
                "funzionano",
                "succede",
                "significa",
                "quanti",
                "quante",
                "posso",
                "può",
                "puo",
                "si",
                "se",
                "fa",
                "fanno",
                "serve",
                "servono",
            )
        ),
        interrogatives=frozenset(("cosa", "perché", "quanti", "quante")),
        question_openers=frozenset(
            (
                "come",
                "cosa",
                "cos'è",
                "quando",
                "dove",
                "quale",
                "quali",
                "perché",
                "chi",
                "quanti",
                "quante",
            )
        ),
        extra_phrases=("in più", "di troppo"),
        tournament_words=word_set(
            "infrazione infrazioni ammonizione squalifica squalificato bustine bustina barare "
            "imbrogliare spettatore spettatori competitivo competitiva negozio decklist sideboard "
            "match prerelease sealed draft booster fnm dq penalizza sanzionata accidentalmente "
            "dimenticato dimenticata dimenticati dimenticate dimenticò dimenticare dimenticando "
            "dimentica scordato scordata scordò insultare insulta insultato insulti parolacce "
            "parolaccia bestemmia bestemmie minacciato minacciare corrompere soldi apposta "
            "intenzionalmente deliberatamente mentito barato lentamente lento "
            # What players tell each other is the MTR's (communication, shortcuts, decisions).
            "dirmi dirgli dirle mentire mente ricordargli ricordarglielo ricordarle"
        ),
        # A mistake is a tournament's to fix (the IPG, the JAR); the CR has no word for it.
        tournament_phrases=(
            "lista del mazzo",
            "lista mazzo",
            "liste dei mazzi",
            "per sbaglio",
            "per errore",
            "di proposito",
            "tempo scaduto",
            "finito il tempo",
            "ho detto",
            "ha detto",
        ),
        variant_words=word_set(
            "multigiocatore multiplayer commander comandante comandanti edh brawl squadra "
            "squadre compagno compagni gigante teste 2hg imperatore imperatori planechase "
            "arcinemico archenemy vanguard cospirazione conspiracy draft booster melee multi ffa"
        ),
        variant_phrases=("tutti contro tutti",),
        enclitics=(
            *("glielo", "gliela", "glieli", "gliele", "gliene", "gli", "lo", "la", "li", "le"),
            *("ne", "mi", "ti", "si", "ci", "vi"),
        ),
        # Plurals (danni: danno, pedine: pedina) and the imperative cards print (sacrifica).
        printed_forms=(("i", "o", True), ("i", "e", True), ("e", "a", True), ("a", "are", True)),
        player_words=word_set("giocatore giocatori avversario avversari"),
        asking_words=word_set(
            "penalità penalita penalizzazione sanzione sanzioni giudice giudici arbitro "
            "torneo tornei rel penalizzato penalizzata penalizzati penalizzare sanzionato"
        ),
    ),
    "fr": Language(
        code="fr",
        name="Français",
        english_name="French",
        example_searches=("légendaire", "sous-type", "205.3"),
        example_labels=("Exemple", "Exemples"),
        note_labels=("Note", "Remarque"),
        rule_words=("règle", "règles", "section"),
        subrules_headings=("Sous-règles", "Sous-regles"),
        rulings_headings=("Notes de règles officielles", "Précisions de règles"),
        category_words=(
            "Capacité",
            "Action",
            "Mot",
            "Type",
            "Sous-type",
            "Super-type",
            "Mécanique",
        ),
        marker_words=frozenset(
            [
                "le",
                "les",
                "des",
                "est",
                "une",
                "du",
                "et",
                "un",
                "sur",
                "pour",
                "qui",
                "dans",
                "ce",
                "cette",
                "ces",
                "au",
                "aux",
                "son",
                "ses",
                "leur",
                "peut",
                "être",
                "avec",
                "pas",
                "plus",
            ]
        ),
        title_phrases=("règles complètes",),
        glossary_headings=("glossaire",),
        credits_headings=("crédits",),
        contents_headings=("sommaire", "table des matières"),
        see_words=("voir",),
        translator_note_labels=("Note du traducteur",),
        extra_stop_words=frozenset(["jusqu", "lorsqu", "puisqu", "quelqu", "ils", "elles"]),
        elides=True,
        inflection_endings=frozenset(
            [
                "",
                "s",
                "x",
                "e",
                "es",
                "er",
                "ez",
                "é",
                "ée",
                "és",
                "ées",
                "ent",
                "aux",
                "al",
                "le",
                "les",
            ]
        ),
        question_words=frozenset(
            (
                "comment",
                "quoi",
                "quand",
                "où",
                "quel",
                "quelle",
                "quels",
                "quelles",
                "pourquoi",
                "fonctionne",
                "fonctionnent",
                "marche",
                "signifie",
                "passe",
                "combien",
                "peut",
                "est-ce",
                "qu'est-ce",
                "si",
                "se",
                "fait",
                "font",
                "devient",
                "passe-t-il",
            )
        ),
        interrogatives=frozenset(
            ("comment", "combien", "quoi", "pourquoi", "quel", "quelle", "quels", "quelles")
        ),
        question_openers=frozenset(
            (
                "comment",
                "quoi",
                "quand",
                "où",
                "quel",
                "quelle",
                "quels",
                "quelles",
                "pourquoi",
                "qui",
                "que",
                "qu'est-ce",
                "combien",
            )
        ),
        tournament_words=word_set(
            "infraction infractions avertissement disqualification disqualifié ronde rondes "
            "pochettes pochette triche tricher spectateur spectateurs compétitive compétitif "
            "scellé réservoir magasin decklist sideboard match matchs dq prerelease avant-première "
            "draft booster boosters fnm pénalise sanctionnée accidentellement oublié oubliée "
            "oubliés oubliées oublier oubliant oublie oublient insulter insulte insulté injure "
            "injures jurons menacé menacer soudoyer argent exprès intentionnellement "
            "délibérément menti triché lentement lent "
            # What players tell each other is the MTR's (communication, shortcuts, decisions).
            "mentir ment mentait"
        ),
        tournament_phrases=(
            "liste de deck",
            "liste du deck",
            "listes de deck",
            "par erreur",
            "par accident",
            "temps écoulé",
            "fin du temps",
            "temps de la ronde",
            "ai dit",
            "a dit",
            "me dire",
            "lui dire",
        ),
        variant_words=word_set(
            "multijoueur multijoueurs multiplayer commander commandant commandants edh brawl "
            "équipe équipes equipe coéquipier coéquipiers géant têtes 2hg empereur empereurs "
            "planechase archiennemi archenemy vanguard conspiracy draft booster boosters "
            "mêlée melee multi ffa"
        ),
        variant_phrases=("chacun pour soi",),
        # Plurals (jetons: jeton) and the "vous" imperative cards print (piochez: piocher).
        printed_forms=(
            ("s", "", True),
            ("ez", "er", False),
            ("ez", "ir", False),
            ("ez", "re", False),
        ),
        player_words=word_set("joueur joueurs adversaire adversaires"),
        asking_words=word_set(
            "pénalité pénalités penalite sanction sanctions juge juges arbitre tournoi tournois "
            "rel pénalisé pénalisée pénalisés pénaliser sanctionné"
        ),
    ),
    "es": Language(
        code="es",
        name="Español",
        english_name="Spanish",
        example_searches=("regla de leyendas", "toque mortal", "acciones basadas en estado"),
        example_labels=("Ejemplo", "Ejemplos"),
        note_labels=("Nota",),
        rule_words=("regla", "reglas", "sección"),
        subrules_headings=("Subreglas",),
        rulings_headings=("Notas oficiales de reglas", "Aclaraciones oficiales"),
        category_words=(
            "Habilidad",
            "Acción",
            "Palabra",
            "Tipo",
            "Subtipo",
            "Supertipo",
            "Mecánica",
        ),
        marker_words=frozenset(
            [
                "el",
                "los",
                "las",
                "del",
                "que",
                "es",
                "una",
                "y",
                "en",
                "por",
                "para",
                "con",
                "se",
                "su",
                "sus",
                "como",
                "más",
                "puede",
                "este",
                "esta",
                "ese",
                "esa",
                "también",
            ]
        ),
        title_phrases=("reglas completas", "reglamento completo"),
        glossary_headings=("glosario",),
        credits_headings=("créditos",),
        contents_headings=("índice", "contenido", "contenidos"),
        see_words=("ver", "véase"),
        translator_note_labels=("Nota del traductor",),
        inflection_endings=IBERIAN_ENDINGS,
        question_words=frozenset(
            (
                "cómo",
                "como",
                "qué",
                "que",
                "cuándo",
                "cuando",
                "dónde",
                "donde",
                "cuál",
                "cuáles",
                "cuales",
                "funciona",
                "funcionan",
                "pasa",
                "cuántos",
                "cuántas",
                "puedo",
                "puede",
                "si",
                "se",
                "hace",
                "hacen",
                "ocurre",
            )
        ),
        interrogatives=frozenset(
            ("qué", "cómo", "cuándo", "cuántos", "cuántas", "dónde", "quién", "cuál", "cuáles")
        ),
        question_openers=frozenset(
            (
                "cómo",
                "qué",
                "cuándo",
                "dónde",
                "cuál",
                "cuáles",
                "quién",
                "cuántos",
                "cuántas",
            )
        ),
        extra_phrases=("de más", "de sobra"),
        tournament_words=word_set(
            "infracción infraccion advertencia descalificación descalificacion descalifica "
            "descalificado ronda rondas fundas funda trampa trampas banquillo espectador "
            "espectadores competitivo competitiva tienda decklist sideboard dq presentación "
            "presentacion prerelease sellado draft booster boosters fnm penaliza sancionada "
            "accidentalmente olvidó olvidé olvidado olvidada olvidados olvidadas olvidar olvidando "
            "olvida insultar insultó insulto insultos palabrotas palabrota amenazó amenazar "
            "sobornar dinero adrede intencionadamente deliberadamente mintió lentamente lento "
            # What players tell each other is the MTR's (communication, shortcuts, decisions).
            "decirme decirle decirte dije dijo dijiste miente mentir recordarle avisar avisarle"
        ),
        tournament_phrases=(
            "lista de mazo",
            "lista del mazo",
            "listas de mazo",
            "por error",
            "por accidente",
            "sin querer",
            "se acabó el tiempo",
            "tiempo de la ronda",
        ),
        variant_words=word_set(
            "multijugador multiplayer commander comandante comandantes edh brawl equipo "
            "equipos compañero compañeros gigante cabezas 2hg emperador emperadores planechase "
            "archienemigo archenemy vanguard conspiracy conspiración conspiraciones draft "
            "booster boosters melee multi ffa"
        ),
        variant_phrases=("todos contra todos",),
        enclitics=(
            *("selo", "sela", "selos", "selas", "los", "las", "les", "nos", "lo", "la", "le"),
            *("me", "te", "se"),
        ),
        # Plurals (vidas: vida) and the imperative cards print (adivina: adivinar).
        printed_forms=(("s", "", True), ("a", "ar", True)),
        player_words=word_set("jugador jugadores rival rivales oponente oponentes contrincante"),
        asking_words=word_set(
            "penalización penalizacion penalizaciones penalidad sanción sancion sanciones "
            "juez jueces árbitro arbitro torneo torneos rel penalizado penalizada penalizados "
            "penalizar sancionado"
        ),
    ),
    "pt": Language(
        code="pt",
        name="Português",
        english_name="Portuguese",
        example_searches=("jogador ativo",),
        example_labels=("Exemplo", "Exemplos"),
        note_labels=("Nota", "Observação"),
        rule_words=("regra", "regras", "seção"),
        subrules_headings=("Sub-regras", "Subregras"),
        rulings_headings=("Notas oficiais de regras", "Esclarecimentos oficiais"),
        category_words=(
            "Habilidade",
            "Ação",
            "Palavra",
            "Tipo",
            "Subtipo",
            "Supertipo",
            "Mecânica",
        ),
        # Not "da", "do", "dos", "ou", "as", "quando": Italian, English, Spanish or French too.
        marker_words=frozenset(
            [
                "não",
                "em",
                "das",
                "ao",
                "aos",
                "você",
                "seu",
                "sua",
                "seus",
                "suas",
                "pelo",
                "pela",
                "isso",
                "esse",
                "essa",
                "também",
                "mais",
                "uma",
                "um",
                "é",
                "são",
                "está",
                "ela",
                "ele",
                "na",
                "nas",
            ]
        ),
        title_phrases=("regras abrangentes", "regras completas"),
        glossary_headings=("glossário",),
        credits_headings=("créditos",),
        contents_headings=("conteúdo", "sumário", "índice"),
        see_words=("veja", "ver"),
        translator_note_labels=("Nota do tradutor",),
        inflection_endings=IBERIAN_ENDINGS,
        # "é" (is): Whoosh's Portuguese list has "e" (and) and the other forms of "ser", not it.
        extra_stop_words=frozenset(["é"]),
        question_words=frozenset(
            (
                "como",
                "que",
                "quê",
                "quando",
                "onde",
                "qual",
                "quais",
                "quem",
                "porque",
                "por",
                "funciona",
                "funcionam",
                "acontece",
                "significa",
                "quantos",
                "quantas",
                "posso",
                "pode",
                "se",
                "faz",
                "fazem",
                "serve",
            )
        ),
        interrogatives=frozenset(("quantos", "quantas")),
        question_openers=frozenset(
            (
                "o que",  # "o que é a pilha": the article before "que" opens the question
                "como",
                "quando",
                "onde",
                "qual",
                "quais",
                "quem",
                "quantos",
                "quantas",
                "porque",
            )
        ),
        extra_phrases=("a mais", "de mais"),
        tournament_words=word_set(
            "infração advertência desqualificação desqualificado rodada rodadas sleeves trapaça "
            "espectador competitivo loja decklist sideboard dq prerelease pré-lançamento selado "
            "draft booster boosters fnm penaliza acidentalmente esqueceu esquecido esquecida "
            "esquecer esquece"
        ),
        tournament_phrases=("lista de deck", "lista do deck", "por engano", "sem querer"),
        variant_words=word_set(
            "multijogador multiplayer commander comandante comandantes edh brawl equipe "
            "equipes companheiro companheiros gigante cabeças 2hg imperador imperadores "
            "planechase arqui-inimigo archenemy vanguard conspiracy draft booster boosters melee "
            "multi ffa"
        ),
        variant_phrases=("todos contra todos", "cada um por si"),
        player_words=word_set(
            "jogador jogadores oponente oponentes adversário adversario adversários"
        ),
        asking_words=word_set(
            "penalidade penalidades sanção sanções juiz juízes torneio torneios rel penalizado "
            "penalizada penalizar"
        ),
    ),
    "en": Language(
        code="en",
        name="English",
        english_name="English",
        example_searches=("legend rule", "state-based actions", "704.5j", "deathtouch"),
        example_labels=("Example", "Examples"),
        note_labels=("Note",),
        rule_words=("rule", "rules", "section"),
        subrules_headings=("Subrules",),
        rulings_headings=("Official rulings notes", "Notes and rules information"),
        category_words=(
            "Keyword",
            "Ability",
            "Predefined",
            "Token",
            "Artifact",
            "Land",
            "Mechanic",
        ),
        marker_words=frozenset(
            [
                "the",
                "of",
                "and",
                "is",
                "to",
                "that",
                "in",
                "with",
                "it",
                "its",
                "this",
                "an",
                "as",
                "by",
                "or",
                "be",
                "can",
                "if",
                "any",
                "from",
                "which",
                "has",
                "have",
            ]
        ),
        title_phrases=("comprehensive rules",),
        glossary_headings=("glossary",),
        credits_headings=("credits",),
        contents_headings=("contents", "table of contents"),
        see_words=("see",),
        inflection_endings=frozenset(
            ["", "s", "es", "'s", "s'", "y", "ies", "ed", "d", "ing", "e"]
        ),
        question_words=frozenset(
            (
                "how",
                "what",
                "when",
                "where",
                "which",
                "who",
                "why",
                "does",
                "do",
                "did",
                "is",
                "are",
                "can",
                "could",
                "work",
                "works",
                "happen",
                "happens",
                "mean",
                "means",
                "explain",
                "should",
                "would",
                "if",
                "many",
                "much",
            )
        ),
        interrogatives=frozenset(("what", "how", "why")),
        question_openers=frozenset(
            (
                "how",
                "what",
                "when",
                "where",
                "which",
                "who",
                "why",
                "does",
                "do",
                "can",
                "is",
                "are",
            )
        ),
        tournament_words=word_set(
            "infraction infractions warning disqualification disqualified disqualify decklist "
            "decklists sideboard sleeves sleeve cheating cheat round rounds match matches sealed "
            "draft booster boosters fnm prerelease competitive casual spectator spectators store "
            "dq accidentally mistakenly spindown forget forgets forgot forgotten forgetting insult "
            "insults insulted insulting swear swearing swore cursing profanity threaten threatened "
            "threatening threatens bribe bribed deliberately intentionally purposely lied lying "
            "slow slowly remind reminds reminded reminding"
        ),
        tournament_phrases=(
            "deck list",
            "deck lists",
            "deck registration",
            "friday night magic",
            "by mistake",
            "by accident",
            "on purpose",
            "time was called",
            "time is called",
            "round timer",
            # What players tell each other is the MTR's (communication, shortcuts, decisions).
            "tell me",
            "tell my opponent",
            "tell their opponent",
            "tell his opponent",
            "tell her opponent",
            "told me",
            "told my opponent",
            "i said",
        ),
        past_forms=verbs_of(
            "drew:draw drawn:draw forgot:forget forgotten:forget saw:see seen:see took:take "
            "taken:take gave:give given:give chose:choose chosen:choose began:begin begun:begin "
            "won:win lost:lose paid:pay dealt:deal held:hold made:make got:get "
            "gotten:get told:tell said:say kept:keep brought:bring fought:fight stole:steal "
            "stolen:steal threw:throw thrown:throw shown:show went:go gone:go came:come "
            "became:become ran:run hid:hide hidden:hide blew:blow fell:fall fallen:fall "
            "found:find spent:spend sent:send struck:strike ate:eat eaten:eat "
            "knew:know known:know wrote:write written:write bought:buy"
        ),
        slang=meanings_of(
            "fizzle fizzles fizzled fizzling:resolve,illegal bounce bounces bounced:return,hand "
            "blink blinks blinked flicker flickers flickered:exile,return tutor tutors "
            "tutored:search,library etb etbs:enters ltb:leaves sba sbas:state-based "
            "sac sacs sacked:sacrifice late:tardiness"
        ),
        # A graveyard is a zone: "a token in a zone other than the battlefield ceases to exist"
        # (111.7) answers what happens to a token put into a graveyard.
        broader=meanings_of("creature creatures:permanent graveyard graveyards:zone"),
        spelt_counts=words_in(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty"
        ),
        variant_words=word_set(
            "multiplayer multi-player commander commanders edh brawl team teams teammate "
            "teammates two-headed 2hg emperor emperors planechase plane planes planar "
            "archenemy scheme schemes vanguard conspiracy conspiracies draft booster boosters "
            "free-for-all melee multi ffa"
        ),
        player_words=word_set("player players opponent opponents"),
        asking_words=word_set(
            "penalty penalties judge judges tournament tournaments rel penalized penalised "
            "penalize penalise"
        ),
    ),
}


CODES = tuple(LANGUAGES)  # it, fr, es, pt, en: every language the product reads and indexes
TRANSLATED = tuple(code for code in CODES if code != "en")  # the translations' languages
SHOWN_ORDER = ("en", *TRANSLATED)  # columns, exports and results: English first


_REGIONAL = re.compile(r"[a-z]{2}[-_][a-z]{2,4}")  # pt-br, es_es, zh-hant


class UnknownLanguageError(ValueError):
    """A language code outside the table."""


def validate_languages(
    codes: Iterable[str], valid_codes: Iterable[str] = CODES, what: str = "language"
) -> tuple[str, ...]:
    """Return the codes lower-cased, or raise naming the valid ones (`valid_codes`: all the
    table's, or a command's own, as a translation's for `stale`, `what` naming them)."""
    allowed = tuple(valid_codes)
    valid = ", ".join(allowed)
    result = []
    for raw in codes:
        if not raw.strip(" ,"):  # `--lang ""`: a language was meant, none given
            raise UnknownLanguageError(f"no language given; valid: {valid}")
        for written in raw.split(","):
            code = written.strip().lower()
            if not code:
                continue
            # A regional tag as CAT tools and PO headers write it (pt-BR, es_ES, it-IT): its
            # language; the library holds one of each.
            if _REGIONAL.fullmatch(code):
                code = code[:2]
            if code in LANGUAGES and code not in allowed:
                raise UnknownLanguageError(f"{code!r} is not a {what}; valid: {valid}")
            if code not in allowed:
                raise UnknownLanguageError(f"unknown language {code!r}; valid: {valid}")
            result.append(code)
    return tuple(dict.fromkeys(result))


def all_labels(attribute: str) -> tuple[str, ...]:
    """Every language's labels of one kind, longest first (for regex alternations)."""
    labels = {label for lang in LANGUAGES.values() for label in getattr(lang, attribute)}
    return tuple(sorted(labels, key=len, reverse=True))


def names() -> str:
    """The languages by name, for messages: "Italiano, Français, …, English"."""
    return ", ".join(lang.name for lang in LANGUAGES.values())


def validate_translations(codes: Iterable[str]) -> tuple[str, ...]:
    """A translation's languages (stale's): English is what they are compared with."""
    return validate_languages(codes, TRANSLATED, "translation's language")


def language_name(code: str) -> str:
    """A language's name in an English sentence: es -> Spanish."""
    return LANGUAGES[code].english_name or code
