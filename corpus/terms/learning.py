"""Term pairs learned from the parallel text the library holds.

The parallel text: each translated rule, example and glossary entry beside its English
counterpart (same key, in the English edition the translation follows), headings and
glossary headwords as pairs of their own, aligned enumerations ("I tipi di carta sono ..."),
and English names printed in parentheses ("Clue (Indizio)"). A statistical word aligner
(eflomal) links the words of each pair; for every English term the CR names (glossary
headwords, headings, list items, names) the translation is the word sequence its words are
linked to, where the links are consistent (no word inside it linked outside the term). Each
learned pair carries how often it was seen, its share of the term's occurrences (confidence)
and where. scripts/derive-terms runs the same learner over MTGJSON card lines, offline."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from corpus.align.alignment import glossary_keys
from corpus.align.following import Following
from corpus.library import code_version, write_atomic
from corpus.model.inflection import inflected_alike
from corpus.model.records import Record
from corpus.model.text import fold
from corpus.model.words import (
    english_key,
    forget_tokens,
    list_items,
    singular,
    singular_name,
    stop_words,
    tokens,
)

MAX_WORDS = 5  # the longest term, in words, on either side
MIN_COUNT = 3  # times a pair must be seen, unless a heading or headword pairs them
MIN_CONFIDENCE = 0.25  # share of the term's occurrences
MAX_TOKENS = 120  # longer pairs are left out: the aligner's time grows with them


@dataclass(frozen=True)
class Pair:
    """Two texts that say the same thing, English first."""

    lang: str
    english: str
    foreign: str
    source: str
    title: bool = False  # a heading, headword, list item or name: the whole is one term
    weight: int = 1  # how many times it occurs (cards printed with this type line)
    first: str = ""  # the earliest and latest date it was printed ("2003-02-03"), if known
    last: str = ""


@dataclass(frozen=True)
class Learned:
    english: str
    lang: str
    term: str
    count: int
    confidence: float
    sources: tuple[str, ...]  # up to three places it was seen
    first: str = ""  # the dates of the earliest and latest text that pairs them, if dated
    last: str = ""


# -- the parallel text -------------------------------------------------------------------------


def record_pairs(records: Sequence[Record], follows: Mapping[str, Following]) -> list[Pair]:
    """Translated records beside their English counterparts in the edition their document
    follows: rules by their own number, glossary entries by the headword join (so old copies
    aligned by content, which the learned terms help align, are not used)."""
    joined = glossary_keys(records, dict(follows))
    # Several examples share their rule's key: the nth pairs with the nth.
    english: dict[tuple[str, str, str, int], Record] = {}
    nth: Counter[tuple[str, str, str, str]] = Counter()
    for record in records:
        if record.lang == "en" and record.edition:
            place = (record.source, record.edition, record.kind, record.key)
            english[(*place[1:], nth[place])] = record
            nth[place] += 1
    pairs = []
    for record in records:
        following = follows.get(record.source)
        if record.lang == "en" or following is None:
            continue
        key = following.keyed(record.key)  # a section numbered as an edition not loaded
        if record.kind == "glossary":
            key, align = joined.get((record.source, record.seq), (key, None))
            if align is None or align.method != "content":
                continue
        elif record.align.method not in ("number", "override"):
            continue
        place = (record.source, following.edition, record.kind, key)
        counterpart = english.get((*place[1:], nth[place]))
        nth[place] += 1
        if counterpart is None:
            continue
        where = f"{record.lang} {record.kind} {key}"
        if record.title and counterpart.title:
            pairs.append(Pair(record.lang, counterpart.title, record.title, where, title=True))
        if record.text != record.title or not record.title:
            pairs.append(Pair(record.lang, counterpart.text, record.text, where))
    return pairs


# "Clue (Indizio)", "Equipment (Equipaggiamento, vedi regola 301.5)", "Avventura (Adventure)".
_PAIR = re.compile(
    r"(?P<outer>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*) \((?P<inner>[A-Z][\w'’ -]*?)(?:,[^()]*)?\)"
)
_VOWELS = tuple("aeiouàèéìòù")


def parenthesized_pairs(record: Record) -> list[Pair]:
    """English names the translated CR prints beside its own, in either order.

    Within one list the same order holds; the side whose words end in vowels more often is
    the Italian (Statuetta, Sangue, Indizio against Bobblehead, Blood, Clue)."""
    if record.lang != "it" or record.kind != "rule":
        return []
    found = [(m["outer"], m["inner"]) for m in _PAIR.finditer(record.text)]
    found = [(a, b) for a, b in found if a.lower() != b.lower()]
    if not found:
        return []

    def vowel_share(words: Iterable[str]) -> float:
        words = list(words)
        return sum(w.lower().endswith(_VOWELS) for w in words) / max(len(words), 1)

    list_english_first = vowel_share(a for a, _ in found) <= vowel_share(b for _, b in found)
    where = f"{record.lang} rule {record.number} (parentheses)"
    pairs = []
    for a, b in found:
        a_share, b_share = vowel_share(a.split()), vowel_share(b.split())
        # A pair overrides its list's order only when it is unmistakable (Undercity against
        # Sottocittà); Powerstone against Pietra del Potere follows the list.
        clear = {a_share, b_share} == {0.0, 1.0}
        english_first = a_share < b_share if clear else list_english_first
        english, italian = (a, b) if english_first else (b, a)
        pairs.append(Pair("it", english, italian, where, title=True))
    return pairs


def enumeration_pairs(pairs: Iterable[Pair]) -> list[Pair]:
    """The lists of two rules that say the same thing, as pairs of their own (the aligner
    links their items better apart from the sentence around them). Not item by item: a
    translation sorts its list in its own alphabetical order."""
    found = []
    for pair in pairs:
        mine, theirs = list_items(pair.foreign), list_items(pair.english)
        if mine and len(mine) == len(theirs):
            where = f"{pair.source} (list)"
            found.append(Pair(pair.lang, ", ".join(theirs), ", ".join(mine), where))
    return found


# -- the English terms -------------------------------------------------------------------------


_LIST_CONJUNCTION = re.compile(r"^\s*(?:and|or)\s+", re.IGNORECASE)


def english_terms(records: Iterable[Record], pairs: Iterable[Pair]) -> dict[str, str]:
    """The English terms the CR names: glossary headwords ("State-Based Actions"), headings of
    sections and rules ("Deathtouch"), list items of the newest edition, and the English side of
    title pairs (names in parentheses). Their words, singular -> the name, in lower case and
    singular ("state-based action", "urza's")."""
    found: dict[str, str] = {}

    def add(name: str, headword: bool = False) -> None:
        # The last of a list's names ("Abilities, Costs, and Effects") is "Effects", not
        # "and Effects"; a single letter names something only as a glossary headword ("X"),
        # not as a list's item or a heading's word ("e.g.", "a", "b").
        name = _LIST_CONJUNCTION.sub("", name)
        words = tokens(name)
        if len(words) == 1 and len(words[0]) == 1 and not headword:
            return
        if 0 < len(words) <= MAX_WORDS and not set(words) <= stop_words("en"):  # not "If"
            found.setdefault(english_key(words), singular_name(name.strip(" .").lower()))

    records = list(records)
    newest = max((r.edition for r in records if r.lang == "en" and r.edition), default=None)
    for record in records:
        if record.lang != "en":
            continue
        for name in re.sub(r"\s*\(Obsolete\)", "", record.title or "").split(","):
            add(name, headword=record.kind == "glossary")
        if record.kind == "rule" and record.edition == newest:
            for item in list_items(record.text):
                add(item)
    for pair in pairs:
        if pair.title:
            add(pair.english)
    return found


# -- word alignment ----------------------------------------------------------------------------

Links = list[tuple[int, int]]  # (English position, foreign position)


def word_links(pairs: Sequence[Pair]) -> list[Links]:
    """eflomal's links for each pair, both directions combined: the links both directions
    agree on, plus each one-directional link between two words the agreed links leave alone
    (the "grow-final-and" heuristic of phrase-based translation). A heading, headword or name
    needs none: it is a term whole."""
    to_align = [p for p in pairs if not p.title]
    if not to_align:
        return [[] for _ in pairs]
    linked = iter(_aligned(to_align))
    return [[] if p.title else next(linked) for p in pairs]


def _aligned(pairs: Sequence[Pair]) -> list[Links]:
    from eflomal import Aligner  # heavy: only a build that learns imports it

    source = [" ".join(tokens(p.english)) or "-" for p in pairs]
    target = [" ".join(tokens(p.foreign, p.lang)) or "-" for p in pairs]
    with tempfile.TemporaryDirectory(prefix="mtgrules-align-") as folder:
        forward, backward = Path(folder, "forward"), Path(folder, "backward")
        # A twentieth of eflomal's default iterations learns the same terms as more do: two
        # runs at 0.15 share 95.9% of the terms they learn from the CRs, a run at 0.05 shares
        # 95.3-95.8% with each (eflomal samples at random), and relevance is unchanged; it
        # aligns the Spanish CR's 4,000 pairs in 1.5 s instead of 3.7 s (session 13). Three
        # samplers (eflomal's default) steady a small pair set: with one, section 205 beside
        # its English edition missed "scheme = intrigo" in 3 runs of 200 (a CI run failed on
        # it), with three in none; the whole library learns in 1.7 s instead of 1.1 s.
        aligner = Aligner(model=3, n_samplers=3, rel_iterations=0.05)
        try:
            aligner.align(
                source, target, links_filename_fwd=str(forward), links_filename_rev=str(backward)
            )
        except (subprocess.CalledProcessError, OSError):
            return [[] for _ in pairs]  # no links: the headings and headwords still teach
        ahead = forward.read_text("utf-8").splitlines()
        back = backward.read_text("utf-8").splitlines()
    return [_combined(_parse(a), _parse(b)) for a, b in zip(ahead, back, strict=True)]


def _parse(line: str) -> set[tuple[int, int]]:
    links = set()
    for link in line.split():
        i, _, j = link.partition("-")
        links.add((int(i), int(j)))
    return links


def _combined(forward: set[tuple[int, int]], backward: set[tuple[int, int]]) -> Links:
    agreed = forward & backward
    english = {i for i, _ in agreed}
    foreign = {j for _, j in agreed}
    for i, j in sorted((forward | backward) - agreed):
        if i not in english and j not in foreign:
            agreed.add((i, j))
            english.add(i)
            foreign.add(j)
    return sorted(agreed)


# -- extraction --------------------------------------------------------------------------------


def _occurrences(
    words: list[str], starts: Mapping[str, list[tuple[str, ...]]]
) -> Iterator[tuple[int, int, str]]:
    """(start, end, term's key) of each English term in a sentence, plurals included."""
    singulars = [singular(w) for w in words]
    for start, word in enumerate(singulars):
        for term in starts.get(word, ()):
            end = start + len(term)
            if tuple(singulars[start:end]) == term:
                yield start, end, " ".join(term)


def extract(
    pairs: Sequence[Pair], links: Sequence[Links], terms: Mapping[str, str]
) -> list[Learned]:
    """Translations of the English terms, counted over every pair."""
    starts: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for term in terms:
        words = tuple(term.split())
        starts[words[0]].append(words)
    seen: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    titled: dict[tuple[str, str], set[str]] = defaultdict(set)
    where: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    around: dict[tuple[str, str], Counter[tuple[str, str]]] = defaultdict(Counter)
    dated: dict[tuple[str, str, str], list[str]] = {}  # (lang, term, phrase) -> [first, last]
    for pair, linked in zip(pairs, links, strict=True):
        english, foreign = tokens(pair.english), tokens(pair.foreign, pair.lang)
        if pair.title and english_key(english) in terms and 0 < len(foreign) <= MAX_WORDS:
            candidates = [(english_key(english), " ".join(foreign))]
            titled[pair.lang, candidates[0][0]].add(candidates[0][1])
        else:
            linked_by = _Linked(linked, english)
            candidates = []
            for start, end, term in _occurrences(english, starts):
                span = _projected(start, end, linked_by, foreign, stop_words(pair.lang))
                if span:
                    phrase = " ".join(foreign[span[0] : span[1] + 1])
                    candidates.append((term, phrase))
                    around[pair.lang, phrase].update(_unlinked_around(span, linked_by, foreign))
        for term, phrase in candidates:
            seen[pair.lang, term][phrase] += pair.weight
            if len(where[pair.lang, term, phrase]) < 3:
                where[pair.lang, term, phrase].append(pair.source)
            if pair.first:
                dates = dated.setdefault((pair.lang, term, phrase), [pair.first, pair.last])
                dates[0], dates[1] = min(dates[0], pair.first), max(dates[1], pair.last)
    learned = []
    for (lang, term), phrases in seen.items():
        titles = titled.get((lang, term), set())
        phrases = _within_longer(phrases, titles, lang)
        total = sum(phrases.values())
        for phrase, count, forms in _grouped(phrases, lang):
            confidence = count / total
            title = any(form in titles for form in forms)
            # A heading or headword names the term: other phrases must be seen often.
            least = MIN_COUNT + 2 if titles else MIN_COUNT
            if title or (count >= least and confidence >= MIN_CONFIDENCE):
                sources = tuple(dict.fromkeys(s for f in forms for s in where[lang, term, f]))
                # One form stands for its inflections (the term base matches them all).
                whole = _completed(phrase, around[lang, phrase], phrases[phrase], lang)
                spans = [dated[lang, term, f] for f in forms if (lang, term, f) in dated]
                first = min((s[0] for s in spans), default="")
                last = max((s[1] for s in spans), default="")
                learned.append(
                    Learned(
                        terms[term],
                        lang,
                        whole,
                        count,
                        round(confidence, 3),
                        sources[:3],
                        first,
                        last,
                    )
                )
    return sorted(_competitive(learned), key=lambda t: (t.lang, t.english, -t.count, t.term))


def _competitive(learned: list[Learned]) -> list[Learned]:
    """A foreign term translates the English terms it was seen for most ("terra" is land,
    seen 300 times, not Earth, named once in parentheses)."""
    most: dict[tuple[str, str], int] = {}
    for t in learned:
        key = (t.lang, fold(t.term))
        most[key] = max(most.get(key, 0), t.count)
    return [t for t in learned if t.count >= COMPETING * most[t.lang, fold(t.term)]]


def _projected(
    start: int, end: int, links: _Linked, foreign: list[str], stop: frozenset[str]
) -> tuple[int, int] | None:
    """The foreign words an English span is linked to, when the links are consistent, without
    the function words at either end ("di", "la")."""
    inside = [j for i in range(start, end) for j in links.of_english.get(i, ())]
    if not inside:
        return None
    low, high = min(inside), max(inside)
    if high - low > 2 * MAX_WORDS:
        return None
    for j in range(low, high + 1):
        if any(not start <= i < end for i in links.of_foreign.get(j, ())):
            return None
    while low <= high and _function_word(foreign[low], stop):
        low += 1
    while high >= low and _function_word(foreign[high], stop):
        high -= 1
    if low > high or high - low >= MAX_WORDS:
        return None
    return None if any(w.isdigit() for w in foreign[low : high + 1]) else (low, high)


def _function_word(word: str, stop: frozenset[str]) -> bool:
    return word in stop or word.rstrip("'") in stop or len(word.rstrip("'")) == 1


def _unlinked_around(
    span: tuple[int, int], links: _Linked, foreign: list[str]
) -> list[tuple[str, str]]:
    """The one or two words before and after a phrase that the aligner linked to nothing:
    ("before", "campo di") around "battaglia"."""
    low, high = span
    found = []
    for size in (1, 2):
        before = range(low - size, low)
        if before.start >= 0 and not any(j in links.of_foreign for j in before):
            found.append(("before", " ".join(foreign[before.start : low])))
        after = range(high + 1, high + 1 + size)
        if after.stop <= len(foreign) and not any(j in links.of_foreign for j in after):
            found.append(("after", " ".join(foreign[high + 1 : after.stop])))
    return found


COMPETING = 0.75  # a foreign term seen this share as often for another English term keeps both
COMPLETING = 0.8  # share of a phrase's occurrences the same unlinked words must surround


def _completed(phrase: str, around: Counter[tuple[str, str]], seen: int, lang: str) -> str:
    """The phrase with the words that nearly always surround it, unlinked ("battlefield" is
    linked to "battaglia" alone, in "campo di battaglia" every time)."""
    stop = stop_words(lang)
    for side in ("before", "after"):
        for (where, words), count in sorted(around.items(), key=lambda i: -len(i[0][1])):
            edge = words.split()[0] if side == "before" else words.split()[-1]
            if (
                where == side
                and count >= max(3, COMPLETING * seen)
                and not _function_word(edge, stop)
            ):
                phrase = f"{words} {phrase}" if side == "before" else f"{phrase} {words}"
                break
    return phrase


_ARTICLES = frozenset(["the", "a", "an"])


class _Linked:
    """A pair's links by English and by foreign position, without the links of English
    articles (the aligner links "the" to "campo" in "the battlefield" / "campo di battaglia"
    as often as not; an article translates no term)."""

    def __init__(self, links: Links, english: list[str]) -> None:
        self.of_english: dict[int, list[int]] = defaultdict(list)
        self.of_foreign: dict[int, list[int]] = defaultdict(list)
        for i, j in links:
            if english[i] in _ARTICLES:
                continue
            self.of_english[i].append(j)
            self.of_foreign[j].append(i)


def _contains(long: str, short: str, lang: str) -> bool:
    """Whether a phrase holds another, inflected or not ("acciones basadas en estado" holds
    "acción basada")."""
    outer, inner = long.split(), short.split()
    return any(
        all(inflected_alike(a, b, lang) for a, b in zip(outer[i:], inner, strict=False))
        for i in range(len(outer) - len(inner) + 1)
    )


def _within_longer(phrases: Counter[str], titles: set[str], lang: str) -> Counter[str]:
    """A phrase that is part of a longer one seen for the same term counts for the longer one:
    the aligner links "deathtouch" now to "toque mortal", now to "toque" alone, and "toque" is
    not deathtouch. The longer one must be a heading's or headword's, or seen as often."""
    merged = Counter(phrases)
    longest_first = sorted(phrases, key=lambda p: -len(p.split()))
    for short in sorted(phrases, key=lambda p: len(p.split())):
        for long in longest_first:
            if len(long.split()) <= len(short.split()):
                break
            if _contains(long, short, lang) and (long in titles or phrases[long] >= phrases[short]):
                merged[long] += merged.pop(short, 0)
                break
    return +merged


def _grouped(phrases: Counter[str], lang: str) -> list[tuple[str, int, list[str]]]:
    """Phrases that are inflections of one another, as one: (most seen, count, forms)."""
    groups: list[list[str]] = []
    for phrase, _ in phrases.most_common():
        words = phrase.split()
        for group in groups:
            first = group[0].split()
            if len(first) == len(words) and all(
                inflected_alike(a, b, lang) for a, b in zip(words, first, strict=True)
            ):
                group.append(phrase)
                break
        else:
            groups.append([phrase])
    return [(g[0], sum(phrases[p] for p in g), g) for g in groups]


# -- all together, cached ----------------------------------------------------------------------


def learning_records(records: Iterable[Record], follows: Mapping[str, Following]) -> list[Record]:
    """What the term base learns from: the translations, and the English editions they follow
    (so that adding an edition nothing follows leaves the term base as it was)."""
    followed = {f.edition for f in follows.values()}
    return [r for r in records if r.lang != "en" or r.edition in followed]


def parallel_text(records: Sequence[Record], follows: Mapping[str, Following]) -> list[Pair]:
    """Every pair the library holds (see the module's docstring)."""
    of_records = record_pairs(records, follows)
    named = [p for record in records for p in parenthesized_pairs(record)]
    return [*of_records, *enumeration_pairs(of_records), *named]


Prepared = tuple[list[Pair], dict[str, str]]  # the parallel text, and the English terms


def prepare(records: Sequence[Record], follows: Mapping[str, Following]) -> Prepared:
    """What the learner reads: the parallel text (pairs short enough to align) and the English
    terms the CR names (their words -> their names). Known before any word is aligned."""
    pairs = parallel_text(records, follows)
    pairs = [
        p for p in pairs if len(tokens(p.english)) + len(tokens(p.foreign, p.lang)) <= MAX_TOKENS
    ]
    return pairs, english_terms(records, pairs)


def learn(
    records: Sequence[Record],
    follows: Mapping[str, Following],
    cache: Path | None = None,
    prepared: Prepared | None = None,
) -> list[Learned]:
    """Every learned term pair. `follows`: source -> the English edition a translation
    follows (corpus.align.following). With `cache` (a folder), the result is kept under the hash of
    the parallel text and read back while the text is unchanged. `prepared`: what `prepare`
    gave for these records, when already made."""
    pairs, terms = prepared or prepare(records, follows)
    digest = _digest(pairs, terms)
    stored = cache / f"learned-terms-{digest}.json" if cache else None
    if stored and stored.is_file():
        try:
            return [
                Learned(**{**t, "sources": tuple(t["sources"])})
                for t in json.loads(stored.read_text("utf-8"))
            ]
        except (OSError, ValueError, TypeError):
            pass  # damaged: learned again below
    by_lang: dict[str, list[Pair]] = defaultdict(list)
    for pair in pairs:
        by_lang[pair.lang].append(pair)
    langs = sorted(by_lang, key=lambda lang: -len(by_lang[lang]))
    # The aligner runs as a program of its own: one per language, side by side.
    with ThreadPoolExecutor(max_workers=2) as pool:
        links = dict(
            zip(langs, pool.map(lambda lang: word_links(by_lang[lang]), langs), strict=True)
        )
    learned = []
    for lang in sorted(by_lang):
        learned.extend(extract(by_lang[lang], links.pop(lang), terms))
    forget_tokens()  # the parallel text's words are not read again: free them for the build
    if stored:
        _keep(stored, learned)
    return learned


KEPT = 4  # learned term bases kept in the cache folder (the newest)


def _keep(stored: Path, learned: list[Learned]) -> None:
    """Write the learned pairs to the cache, and forget the oldest others."""
    stored.parent.mkdir(parents=True, exist_ok=True)
    data = [t.__dict__ | {"sources": list(t.sources)} for t in learned]
    write_atomic(stored, json.dumps(data, ensure_ascii=False), durable=False)
    others = sorted(
        (p for p in stored.parent.glob("learned-terms-*.json") if p != stored),
        key=lambda p: p.stat().st_mtime,
    )
    for old in others[: max(0, len(others) - (KEPT - 1))]:
        old.unlink(missing_ok=True)


def _digest(pairs: Sequence[Pair], terms: Mapping[str, str]) -> str:
    hasher = hashlib.sha256(code_version().encode())
    for pair in pairs:
        hasher.update(repr(pair).encode())
    hasher.update(json.dumps(sorted(terms.items())).encode())
    return hasher.hexdigest()[:32]
