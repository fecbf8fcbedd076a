"""Message catalogues: gettext ``.po`` files, one per language, read with Babel.

Engine refusals are looked up by rule id (``msgctxt "refusal"``, ``msgid`` =
the rule id), so the engine never carries text.  Catalogues are compiled in
memory at first use, so no build step and no binary files are needed.

Contexts: "refusal", "rule-title" and "rule-text" are keyed by rule id (a
rule-text id may carry a suffix such as ``tableau.empty@fixed`` where a
profile parameter changes the sentence); "rank" and "suit" by card letter;
"section" by registry section; "ordinal-deal" by a deal's number ("3" -> "third");
"check", "sheet", "guide", "example", "faq", "diagram", "move" and "figure" use
English msgids.  A count message may add its sentence for exactly one under
``<context>@one`` (see ``ntext``).  Python code fills ``{name}`` fields, and
``agree`` then gives an article the gender of the card filled in (Spanish «la J♠»);
templates use jinja2's gettext with ``%(name)s`` fields.  The terms are those of
``locale/GLOSSARY.md``.
"""

from __future__ import annotations

import gettext
import io
import re
import string
from functools import cache
from importlib import resources

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .cards import RANK_NAMES, SUIT_SYMBOLS, SUITS, rank_name, rank_of, suit_of
from .errors import InputError
from .moves import Move
from .piles import PileKind
from .predicates import Refusal
from .registry import RuleId

DOMAIN = "agnes_teach"
DEFAULT_LANG = "en"
# The context suffix of a count message's own wording for exactly one (see ntext).
ONE_SUFFIX = "@one"


def languages() -> list[str]:
    """Languages that ship a catalogue, in a stable order."""
    folder = resources.files("agnes_teach").joinpath("locale")
    found = sorted(p.name for p in folder.iterdir() if p.joinpath("LC_MESSAGES").is_dir())
    return sorted(found, key=lambda lang: (lang != "en", lang))


def check_lang(lang: str) -> str:
    if lang not in languages():
        raise InputError(f"unknown language {lang!r} (available: {', '.join(languages())})")
    return lang


@cache
def translations(lang: str) -> gettext.NullTranslations:
    po = resources.files("agnes_teach").joinpath("locale").joinpath(lang).joinpath(
        "LC_MESSAGES"
    ).joinpath(f"{DOMAIN}.po")
    with po.open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    trans: gettext.NullTranslations = gettext.GNUTranslations(buf)
    if lang != DEFAULT_LANG:
        trans.add_fallback(translations(DEFAULT_LANG))
    return trans


# Spanish names the jack and the queen with feminine nouns (la jota, la reina): an article the
# catalogue writes before a card field ("el {card}") takes their gender once the card is known.
_FEMININE_ES = re.compile(r"\b(El|el|del|al|Un|un)(\s+)(?=(?:J|Q)(?![A-Za-z])|(?:jota|reina)\b)")
_FEMININE_ARTICLE = {"El": "La", "el": "la", "del": "de la", "al": "a la", "Un": "Una", "un": "una"}


# English: "an" before a rank said with a vowel (an A, an 8), where a message reads "a {rank}".
_VOWEL_EN = re.compile(r"\b(a|A)(\s+)(?=(?:A|8)(?![A-Za-z0-9])|(?:ace|eight)\b)")
_VOWEL_ARTICLE = {"a": "an", "A": "An"}
# Per language: the articles to change before the card or rank filled in after them, and how.
_AGREEMENT = {"es": (_FEMININE_ES, _FEMININE_ARTICLE), "en": (_VOWEL_EN, _VOWEL_ARTICLE)}


def agree(lang: str, message: str) -> str:
    """`message` with its articles agreeing with the cards filled in (Spanish: «la J♠», «la reina»;
    English: "an A", "an 8")."""
    rule = _AGREEMENT.get(lang)
    if rule is None:
        return message
    pattern, articles = rule
    return pattern.sub(lambda m: articles[m.group(1)] + m.group(2), message)


def agreement(lang: str) -> dict[str, object] | None:
    """The article rule of `agree` for a page's script (a regular expression both Python and
    JavaScript read, and the replacements), or None where the language needs none."""
    rule = _AGREEMENT.get(lang)
    if rule is None:
        return None
    pattern, articles = rule
    return {"pattern": pattern.pattern, "articles": dict(articles)}


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(text: str, params: dict[str, str]) -> str:
    """Format ``{name}`` fields; a field without a value stays as written."""
    return string.Formatter().vformat(text, (), _Missing(params))


def text(lang: str, context: str, msgid: str, **params: object) -> str:
    """A translated message by context and id, with ``{fields}`` filled in."""
    message = translations(lang).pgettext(context, msgid)
    return agree(lang, fill(message, {k: str(v) for k, v in params.items()}))


def has(lang: str, context: str, msgid: str) -> bool:
    """Does the catalogue of `lang` (or English, its fallback) hold this message?"""
    missing = object()
    catalog = translations(DEFAULT_LANG)._catalog  # type: ignore[attr-defined]
    return catalog.get(f"{context}\x04{msgid}", missing) is not missing


def rule_message(lang: str, rule_id: str, **params: object) -> str:
    """Why a rule refuses, in `lang` (``msgctxt "refusal"``, keyed by rule id)."""
    return text(lang, "refusal", rule_id, **params)


def refusal_message(refusal: Refusal, lang: str = DEFAULT_LANG) -> str:
    """The sentence for a refusal in the language; a move from an empty pile (``r2>t1``) says just
    that, whichever rule the pile's kind falls under (``predicates.empty_source_refusal``)."""
    if "empty" in refusal.params:
        return text(lang, "check", "{pile} is empty: there is no card to move", pile=refusal.params["empty"])
    params = dict(refusal.params)
    for key in ("card", "target", "next"):
        if key in params:
            params[key] = _symbol(params[key], lang)
    for key in ("want", "base"):
        if key in params:
            params[key] = rank_letter(lang, params[key])
    # tableau.run refuses three different mistakes; the message says which one was made.
    if refusal.rule == RuleId.TABLEAU_RUN and params.get("dest") == "f":
        return text(lang, "refusal", "tableau.run@foundation", **params)
    if refusal.rule == RuleId.TABLEAU_RUN and params.get("same_column"):
        return text(lang, "refusal", "tableau.run@same-column", **params)
    # A predicate names the message of its rule's variant where the profile's parameter asks for
    # one (an empty column filled only by a deal).
    return rule_message(lang, params.get("msg", refusal.rule), **params)


def move_words(move: Move, lang: str) -> str:
    """A move as words: "6♥ → foundation", "4♣ → column 1", "deal"."""
    t = text
    if move.card is None:
        return t(lang, "move", "deal the stock")
    card = card_text(move.card, lang)
    if move.dest.is_foundation:
        return t(lang, "move", "{card} → foundation", card=card)
    number = str(move.dest.number)
    kind = move.dest.kind
    if kind is PileKind.COLUMN:
        return t(lang, "move", "{card} → column {number}", card=card, number=number)
    if kind is PileKind.RESERVE:
        return t(lang, "move", "{card} → reserve pile {number}", card=card, number=number)
    return t(lang, "move", "{card} → exposed cell {number}", card=card, number=number)


def move_notation(move: Move, lang: str) -> str:
    """A move in notation as a text in `lang` quotes it: the card in the language's letters.

    ``Т♣>f`` in Russian, ``A♣>f`` in English and Spanish: a sentence never shows ``A♣>f`` beside
    ``Т♣``.  The command line and the API take these letters as typed (``cards.TYPED_RANKS``).
    """
    if move.card is None:
        return str(move)
    return f"{card_text(move.card, lang)}>{move.dest}"


@cache
def card_letters(lang: str) -> dict[str, str]:
    """The one table of a language's rank letters: notation rank (``A``..``K``) -> letter shown.

    Read from the catalogue's ``msgctxt "rank-letter"`` entries (Russian Т В Д К for A J Q K).
    Diagrams, keys, hints, refusals and the practice page show cards through it; move notation
    (``KS>t1``, files, ``check`` output) keeps the Latin letters.
    """
    out = {}
    for rank in RANK_NAMES:
        letter = translations(lang).pgettext("rank-letter", rank)
        out[rank] = letter if letter else rank
    return out


def rank_letter(lang: str, rank: str) -> str:
    """A rank as printed on the cards of `lang`: ``rank_letter("ru", "Q")`` is ``Д``."""
    return card_letters(lang).get(rank, rank)


def card_text(card: int, lang: str) -> str:
    """A card as text people read in `lang`: its rank letter and suit symbol (``Д♥`` in Russian)."""
    return card_letters(lang)[rank_name(rank_of(card))] + SUIT_SYMBOLS[suit_of(card)]


def _symbol(card: str, lang: str = DEFAULT_LANG) -> str:
    """``6H`` -> ``6♥``, ``QH`` -> ``Д♥`` in Russian: cards as messages people read show them."""
    if not card or card[-1] not in SUITS:
        return card
    return rank_letter(lang, card[:-1]) + SUIT_SYMBOLS[SUITS.index(card[-1])]


def ntext(lang: str, context: str, singular: str, plural: str, n: int, **params: object) -> str:
    """A translated message with a count: the language's plural forms pick the wording.

    ``{n}`` is filled in with the count, and any other fields from `params`.  A plural form is
    picked by the number's ending, so Russian says «21 карта» with the form of «1 карта»; where
    the words for exactly one card differ (a pronoun, "in any order"), the catalogue holds that
    sentence under the context ``<context>@one`` with the same msgid, and n == 1 takes it.
    """
    if n == 1 and has(lang, context + ONE_SUFFIX, singular):
        message = translations(lang).pgettext(context + ONE_SUFFIX, singular)
    else:
        message = translations(lang).npgettext(context, singular, plural, n)
    return agree(lang, fill(message, {"n": str(n)} | {k: str(v) for k, v in params.items()}))


@cache
def catalog_entries(lang: str) -> dict[str | None, dict[str, tuple[str, ...]]]:
    """Every message of a catalogue as context -> msgid -> translations (plural forms in order).

    The catalogue tests use it to see what a language ships; fuzzy entries are left out.
    """
    po = resources.files("agnes_teach").joinpath("locale").joinpath(lang).joinpath(
        "LC_MESSAGES"
    ).joinpath(f"{DOMAIN}.po")
    with po.open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    out: dict[str | None, dict[str, tuple[str, ...]]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        key = str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)
        raw = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        out.setdefault(message.context, {})[key] = tuple(str(s or "") for s in raw)
    return out
