"""A rules web page for one rule: `Regla 205.1 · Línea de tipo`, the rule's paragraph, then
unnumbered subrule paragraphs under `Subreglas` (205.1a, 205.1b, ... inferred in order),
`Ejemplo:` paragraphs, and the site's own sections after them."""

from __future__ import annotations

import re

from corpus.model.languages import LANGUAGES, all_labels
from corpus.model.numbers import subrule_letter
from corpus.read.layouts.base import (
    EXAMPLE_LINE,
    NOTE_LINE,
    Builder,
    Context,
    Draft,
    Parsed,
    non_blank,
)
from corpus.read.layouts.numbered import NUMBERED_LINE, printed_number

NAME = "rules-web-page"

_RULE_WORDS = "|".join(
    sorted({w.capitalize() for lang in LANGUAGES.values() for w in lang.rule_words[:1]})
)
HEADING = re.compile(
    rf"^(?:{_RULE_WORDS})\s+(?P<number>\d{{3}}(?:\.\d+[a-z]{{0,2}})?)\.?\s*(?:[·:|–—-]\s*(?P<title>.+))?$"
)
SUBRULES = re.compile(
    r"^(?:" + "|".join(re.escape(h) for h in all_labels("subrules_headings")) + r")\s*:?$",
    re.IGNORECASE,
)


def is_heading_like(text: str) -> bool:
    """A short line without sentence punctuation: a page's section heading."""
    return len(text.split()) <= 6 and not re.search(r"[.;:!?»”\"]$", text)


def score(lines: list[str]) -> tuple[float, str]:
    rows = non_blank(lines)
    headings = [text for _, text in rows if HEADING.match(text)]
    if not headings:
        return 0.0, "no 'Regla/Règle/Regola/Rule N' heading"
    subrules = any(SUBRULES.match(text) for _, text in rows)
    value = 0.6 + 0.3 * subrules
    return value, f"heading {headings[0]!r}" + (", a subrules heading" if subrules else "")


def parse(ctx: Context) -> Parsed:
    builder = Builder(ctx)
    rule: Draft | None = None
    base: str | None = None
    in_subrules = False
    subrule_count = 0
    owner: Draft | None = None  # the rule or subrule an example attaches to
    ended_at: str | None = None
    heading_at: tuple[int, str] | None = None  # a rule's heading whose text is yet to come
    for line_number, text in non_blank(ctx.lines):
        heading = HEADING.match(text)
        printed = NUMBERED_LINE.match(text)
        # "Regola 702.19 · Travolgere" then at once "702.19a …": the rule is its title.
        first_subrule = _subrule(printed, base) if heading_at else None
        if heading_at and not first_subrule:
            builder.drop(*heading_at, "heading: rule number and title")
            heading_at = None
        if heading:  # a page may hold several rules, each under its own heading
            ended_at, in_subrules, subrule_count = None, False, 0
        if ended_at is not None:
            builder.drop(
                line_number, text, f"boilerplate: site section after the rules ({ended_at!r})"
            )
        elif heading:
            base = heading["number"]
            title = heading["title"]
            inline = bool(title) and (len(title.split()) > 8 or title.rstrip().endswith("."))
            # "Regla 205.1 · Línea de tipo": the text follows (the heading is set aside
            # once it does; a subrule first makes the title the rule's text, as the CR's
            # "702.19. Trample" is).
            heading_at = None if inline else (line_number, text)
            rule = builder.start(
                Draft.rule(base, line_number, title)
                if inline
                else Draft.rule(base, line_number + 1, None, title=title)
            )
            owner = rule
        elif rule is None or base is None:
            builder.drop(line_number, text, "boilerplate: page header")
        elif SUBRULES.match(text):
            builder.drop(line_number, text, "heading: subrules")
            in_subrules = True
        elif EXAMPLE_LINE.match(text) or NOTE_LINE.match(text):
            assert owner is not None
            builder.start(owner.child(line_number, text))
        elif is_heading_like(text) and (rule.parts or in_subrules):
            ended_at = text
            builder.drop(line_number, text, "boilerplate: site section heading")
        elif first_subrule and heading_at:
            rule.first = rule.last = heading_at[0]
            rule.parts.append(rule.title or heading_at[1])
            heading_at = None
            number, subrule_text = first_subrule
            owner = builder.start(Draft.rule(number, line_number, subrule_text))
        elif not rule.parts:
            rule.first = rule.last = line_number
            rule.parts.append(text)
        elif printed and printed["text"]:
            number = printed_number(printed)  # a subrule printed with its number
            owner = builder.start(Draft.rule(number, line_number, printed["text"]))
        elif in_subrules:
            number = base + subrule_letter(subrule_count)
            subrule_count += 1
            owner = builder.start(Draft.rule(number, line_number, text, inferred=True))
        else:
            builder.extend(rule, line_number, text)
    if heading_at:
        builder.drop(*heading_at, "heading: rule number and title")
    if rule is not None and not rule.parts:
        builder.warn(f"rule {base} has a heading but no text")
    return builder.finish()


def _subrule(printed: re.Match[str] | None, base: str | None) -> tuple[str, str] | None:
    """(number, text) of a numbered line that is a subrule of the page's rule (702.19a under
    702.19), else None."""
    if printed is None or base is None or not printed["text"]:
        return None
    number = printed_number(printed)
    return (number, printed["text"]) if number != base and number.startswith(base) else None
