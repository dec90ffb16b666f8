"""Forum copy of numbered rules: `205.2a.` numbers with trailing dots, `Exemple :` and `Note :`
lines, and the forum's own chrome (message counts, views, footer links) around them."""

from __future__ import annotations

import re

from corpus.read.layouts.base import Context, Parsed, non_blank
from corpus.read.layouts.numbered import numbered_stats, parse_numbered

NAME = "forum-copy"

# Thread chrome: "5 messages · 721 vues", "12 replies · 300 views", "Messaggi: 4".
FORUM_CHROME = re.compile(
    r"\b(messages?|messaggi|mensajes|vues|views|visite|visitas|replies|réponses|risposte|"
    r"respuestas|forum|foro|posted|posté|participé)\b",
    re.IGNORECASE,
)


def score(lines: list[str]) -> tuple[float, str]:
    total, numbered, dotted, subrules = numbered_stats(lines)
    if not total or numbered < 2 or not subrules:
        return 0.0, "no numbered subrules"
    rows = non_blank(lines)
    edges = [text for _, text in rows[:2] + rows[-2:]]
    chrome = sum(bool(FORUM_CHROME.search(text)) for text in edges)
    quoting = sum(bool(CHROME_LINE.match(text)) for _, text in rows)
    share = numbered / total
    dotted_share = dotted / subrules
    value = share * (0.4 + 0.5 * dotted_share) + 0.1 * min(chrome, 2) + 0.1 * min(quoting, 3)
    return (
        round(value, 3),
        f"{numbered} of {total} lines are numbered rules, {dotted} of {subrules} subrules "
        f"printed with a trailing dot, {chrome} forum chrome lines at the edges, "
        f"{quoting} quote or reply lines",
    )


# Quote and reply chrome inside a thread: "Quote:", "Citation de Marco :", "Re: Ligne de type",
# "Posté le 3 mai 2006", "Rispondi".
CHROME_LINE = re.compile(
    r"^(?:(?:quote|citation|cita|citazione|zitat)\b[^.]{0,60}:|re\s*:\s.{0,80}$|"
    r"(?:posted|posté|postato|inviato|publicado|written|écrit)\b.{0,80}$|"
    r"(?:reply|répondre|rispondi|responder|top|haut|back to top)$|"
    r"\[/?(?:quote|citation|cita|spoiler)[^\]]*\]$)",
    re.IGNORECASE,
)


def parse(ctx: Context) -> Parsed:
    return parse_numbered(
        ctx,
        preamble="boilerplate: forum header",
        trailer="boilerplate: forum footer",
        chrome=CHROME_LINE,
    )
