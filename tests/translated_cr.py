"""Small translated Comprehensive Rules in Italian, French and Spanish, as judges find them: with
or without the front matter, as text, HTML or PDF, wrapped at the page width so that cited rule
numbers start lines. The rules are the CR's own (205.4d, 704.5j, 117.3a …) in each language."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Words:
    title: str
    dated: str
    introduction: str
    contents: str
    glossary: str
    credits: str
    chapters: tuple[str, str, str]
    sections: tuple[str, str, str, str]
    rules: dict[str, str]
    example: str
    note: str  # a translator's note, kept inside its rule
    see: str  # "vedi regola"
    turn_based: str  # what 117.2a says after "… vedi regola 117.3a."
    terms: tuple[tuple[str, str], ...]  # glossary: headword, definition lines


ITALIAN = Words(
    title="Regole Complete di Magic: The Gathering",
    dated="Queste regole sono in vigore dal 14 novembre 2025.",
    introduction="Questo documento è la massima autorità per le partite di Magic: The Gathering.",
    contents="Sommario",
    glossary="Glossario",
    credits="Riconoscimenti",
    chapters=("1. Concetti di gioco", "2. Parti di una carta", "7. Regole aggiuntive"),
    sections=(
        "100. Generale",
        "117. Tempismo e priorità",
        "205. Riga del tipo",
        "704. Azioni generate dallo stato",
    ),
    rules={
        "100.1": "Queste regole di Magic si applicano a qualsiasi partita di Magic con due o più giocatori, incluse le partite a due giocatori e le partite multigiocatore.",
        "100.1a": "Una partita a due giocatori è una partita che inizia con solo due giocatori.",
        "117.2": "Altri tipi di azioni del gioco possono accadere anche quando un giocatore ha la priorità.",
        "117.2a": "Le abilità innescate possono innescarsi in qualsiasi momento, ma non succede nulla finché un giocatore non sta per ricevere la priorità. Vedi regola",
        "117.3": "Quale giocatore ha la priorità è determinato dalle seguenti regole:",
        "117.3a": "Il giocatore attivo riceve la priorità all'inizio della maggior parte delle sottofasi e delle fasi.",
        "205.4": "Supertipi",
        "205.4d": 'Ogni permanente con il supertipo "leggendario" è soggetto all\'azione generata dallo stato per i permanenti leggendari, chiamata anche "regola delle leggende" (vedi regola',
        "205.4e": 'Ogni magia istantaneo o stregoneria con il supertipo "leggendario" è soggetta a una restrizione al lancio.',
        "704.5": "Le azioni generate dallo stato sono le seguenti:",
        "704.5j": 'Se un giocatore controlla due o più permanenti leggendari con lo stesso nome, quel giocatore ne sceglie uno e gli altri vengono messi nei cimiteri dei rispettivi proprietari. Questa è chiamata la "regola delle leggende".',
    },
    example="Esempio: Un giocatore controlla due permanenti leggendari chiamati Karn; ne sceglie uno e mette l'altro nel cimitero.",
    note="(NdT: in italiano il nome della regola è rimasto quello della prima traduzione.)",
    see="vedi regola",
    turn_based="Le azioni basate sul turno accadono automaticamente.",
    terms=(
        (
            "Regola delle leggende",
            (
                "Un'azione generata dallo stato che fa sì che un giocatore che controlla due o più permanenti leggendari con lo stesso nome ne metta tutti tranne uno nei cimiteri dei rispettivi proprietari. Vedi regola 704.5j.",
            ),
        ),
        (
            "Abilità",
            (
                "1. Testo su un oggetto che spiega che cosa fa o può fare quell'oggetto.",
                "2. Un'abilità attivata o innescata in pila. Questo tipo di abilità è un oggetto.",
                'Vedi regola 113, "Abilità".',
            ),
        ),
    ),
)

FRENCH = Words(
    title="Règles complètes de Magic: The Gathering",
    dated="Ces règles sont en vigueur à compter du 14 novembre 2025.",
    introduction="Ce document est l'autorité suprême pour les parties de Magic: The Gathering.",
    contents="Sommaire",
    glossary="Glossaire",
    credits="Crédits",
    chapters=("1. Concepts du jeu", "2. Parties d'une carte", "7. Règles supplémentaires"),
    sections=(
        "100. Généralités",
        "117. Timing et priorité",
        "205. Ligne de type",
        "704. Actions basées sur un état",
    ),
    rules={
        "100.1": "Ces règles de Magic s'appliquent à toute partie de Magic avec deux joueurs ou plus, y compris les parties à deux joueurs et les parties multijoueurs.",
        "100.1a": "Une partie à deux joueurs est une partie qui commence avec seulement deux joueurs.",
        "117.2": "D'autres types d'actions de jeu peuvent se produire quand un joueur a la priorité.",
        "117.2a": "Les capacités déclenchées peuvent se déclencher à tout moment, mais rien ne se passe avant qu'un joueur soit sur le point de recevoir la priorité. Voir règle",
        "117.3": "Le joueur qui a la priorité est déterminé par les règles suivantes :",
        "117.3a": "Le joueur actif reçoit la priorité au début de la plupart des étapes et des phases.",
        "205.4": "Surtypes",
        "205.4d": "Tout permanent avec le surtype « légendaire » est soumis à l'action basée sur un état pour les permanents légendaires, aussi appelée « règle des légendes » (voir règle",
        "205.4e": "Tout éphémère ou rituel avec le surtype « légendaire » est soumis à une restriction de lancement.",
        "704.5": "Les actions basées sur un état sont les suivantes :",
        "704.5j": "Si un joueur contrôle deux permanents légendaires ou plus avec le même nom, ce joueur en choisit un, et les autres sont mis dans le cimetière de leur propriétaire. C'est ce qu'on appelle la « règle des légendes ».",
    },
    example="Exemple : Un joueur contrôle deux permanents légendaires appelés Karn ; il en choisit un et met l'autre dans son cimetière.",
    note="(NdT : le nom de la règle est resté celui de la première traduction.)",
    see="voir règle",
    turn_based="Les actions basées sur le tour se produisent automatiquement.",
    terms=(
        (
            "Règle des légendes",
            (
                "Une action basée sur un état qui fait qu'un joueur qui contrôle deux permanents légendaires ou plus avec le même nom les met tous sauf un dans le cimetière de leur propriétaire. Voir règle 704.5j.",
            ),
        ),
        (
            "Capacité",
            (
                "1. Du texte sur un objet qui explique ce que fait ou peut faire cet objet.",
                "2. Une capacité activée ou déclenchée sur la pile. Ce type de capacité est un objet.",
                "Voir règle 113, « Capacités ».",
            ),
        ),
    ),
)

SPANISH = Words(
    title="Reglas completas de Magic: The Gathering",
    dated="Estas reglas entran en vigor el 14 de noviembre de 2025.",
    introduction="Este documento es la autoridad máxima para el juego competitivo de Magic: The Gathering.",
    contents="Contenidos",
    glossary="Glosario",
    credits="Créditos",
    chapters=("1. Conceptos de juego", "2. Partes de una carta", "7. Reglas adicionales"),
    sections=(
        "100. General",
        "117. Cuándo jugar y prioridad",
        "205. Línea de tipo",
        "704. Acciones basadas en estado",
    ),
    rules={
        "100.1": "Estas reglas de Magic se aplican a cualquier juego de Magic con dos o más jugadores, incluyendo juegos de dos jugadores y juegos de varios jugadores.",
        "100.1a": "Un juego de dos jugadores es un juego que comienza con sólo dos jugadores.",
        "117.2": "Otros tipos de acciones del juego pueden suceder mientras un jugador tiene prioridad.",
        "117.2a": "Las habilidades disparadas se pueden disparar en cualquier momento, pero nada sucede hasta que un jugador fuera a recibir prioridad. Ver la regla",
        "117.3": "Qué jugador tiene prioridad se determina por las siguientes reglas:",
        "117.3a": "El jugador activo recibe prioridad al comienzo de la mayoría de los pasos y fases.",
        "205.4": "Supertipos",
        "205.4d": 'Cualquier permanente con el supertipo "legendario" está sujeto a las acciones basadas en estado para los permanentes legendarios, también llamada "regla de leyendas" (ver la regla',
        "205.4e": 'Cualquier instantáneo o conjuro con el supertipo "legendario" está sujeto a una restricción al lanzarlo.',
        "704.5": "Las acciones basadas en estado son las siguientes:",
        "704.5j": 'Si un mismo jugador controla dos o más permanentes legendarios con el mismo nombre, ese jugador elige uno de ellos, y el resto es puesto en el cementerio de su propietario. A esto se le llama "la regla de leyendas".',
    },
    example="Ejemplo: Un jugador controla dos permanentes legendarios llamados Karn; elige uno y pone el otro en su cementerio.",
    note="(NdT: en español la regla conserva el nombre de la primera traducción.)",
    see="ver la regla",
    turn_based="Las acciones basadas en turno también suceden automáticamente.",
    terms=(
        (
            "Regla de leyendas",
            (
                "Es una acción basada en estado que hace que un jugador que controla dos o más permanentes legendarios con el mismo nombre ponga todos salvo uno en los cementerios de sus propietarios. Ver la regla 704.5j.",
            ),
        ),
        (
            "Habilidad",
            (
                "1. Es texto en un objeto que explica lo que hace o puede hacer.",
                "2. Una habilidad activada o disparada en la pila. Este tipo de habilidad es un objeto.",
                'Ver la regla 113, "Habilidades".',
            ),
        ),
    ),
)

LANGUAGES = {"it": ITALIAN, "fr": FRENCH, "es": SPANISH}
NUMBERS = [
    "1",
    "100",
    "100.1",
    "100.1a",
    "117",
    "117.2",
    "117.2a",
    "117.3",
    "117.3a",
    "2",
    "205",
    "205.4",
    "205.4d",
    "205.4e",
    "7",
    "704",
    "704.5",
    "704.5j",
]


def wrap(text: str, width: int = 80) -> list[str]:
    """Lines of at most `width` characters, as a PDF page wraps a paragraph."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def paragraphs(words: Words, front_matter: bool) -> list[str]:
    """The document, one paragraph per item: rules with their numbers, examples, glossary."""
    out: list[str] = []
    if front_matter:
        out += [words.title, words.dated, words.introduction, words.contents]
        out += [words.chapters[0], words.sections[0], words.chapters[1], words.chapters[2]]
        out += [words.glossary, words.credits]
    chapter = {"100": 0, "205": 1, "704": 2}
    section = dict(zip(["100", "117", "205", "704"], words.sections, strict=True))
    for number, text in words.rules.items():
        head = number.split(".")[0]
        if number in ("100.1", "205.4", "704.5") or number == "117.2":
            if head in chapter:
                out.append(words.chapters[chapter[head]])
            out.append(section[head])
        dot = "." if number.count(".") == 1 and number[-1].isdigit() else ""
        if number == "117.2a":
            # A cited number wrapped to the start of a line, not the next rule: it continues.
            text += " 117.3a. " + words.turn_based
        if number == "205.4d":
            text += " 704.5j)."
        if number == "704.5j":
            text += " " + words.note
        out.append(f"{number}{dot} {text}")
        if number == "704.5j":
            out.append(words.example)
    out.append(words.glossary)
    for headword, definition in words.terms:
        out += [headword, *definition]
    if front_matter:
        out += [words.credits, "Magic: The Gathering © Wizards of the Coast LLC."]
    return out


def text_lines(words: Words, front_matter: bool, width: int = 80) -> list[str]:
    """As a PDF's text arrives: every paragraph wrapped at the page width, no blank lines,
    except that a wrapped cited number ("… vedi regola\\n704.5j).") starts its own line."""
    lines: list[str] = []
    for paragraph in paragraphs(words, front_matter):
        for cited in (" 117.3a. ", " 704.5j)."):
            if cited in paragraph:
                before, after = paragraph.split(cited, 1)
                lines += wrap(before, width)
                lines += wrap(cited.strip() + (" " + after if after else ""), width)
                break
        else:
            lines += wrap(paragraph, width)
    return lines


def as_text(words: Words, front_matter: bool) -> bytes:
    return ("\n".join(text_lines(words, front_matter)) + "\n").encode("utf-8")


def as_html(words: Words, front_matter: bool) -> bytes:
    """A site's copy: chapters and sections as headings, one paragraph per rule."""
    body = []
    for paragraph in paragraphs(words, front_matter):
        tag = (
            "h2"
            if paragraph[:2] in {c[:2] for c in words.chapters} and len(paragraph) < 40
            else "p"
        )
        body.append(f"<{tag}>{paragraph}</{tag}>")
    page = (
        "<html><head><title>" + words.title + "</title></head><body>"
        "<nav>Home · Rules · Forum</nav><main>" + "\n".join(body) + "</main>"
        "<footer>© Community site</footer></body></html>"
    )
    return page.encode("utf-8")


def as_pdf(words: Words, front_matter: bool, path: Path) -> Path:
    """Pages of 40 lines with a running header and page numbers (Latin-1 text: the PDF's core
    font has no curly quotes)."""
    from fpdf import FPDF

    lines = text_lines(words, front_matter, width=95)
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    for page, start in enumerate(range(0, len(lines), 40), start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", size=9)
        pdf.text(20, 12, words.title)
        for row, line in enumerate(lines[start : start + 40]):
            pdf.text(15, 25 + row * 6, line.encode("latin-1", "replace").decode("latin-1"))
        pdf.text(100, 290, str(page))
    pdf.output(str(path))
    return path
