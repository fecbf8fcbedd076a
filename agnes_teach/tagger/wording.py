"""A wrong move's explanation in words: the rule's side (``msgctxt "why-rule"``, keyed by the rule
id and filled with the facts a theme module read off the position) and the cost the refutation
found (a clause after the move). Every sentence is a catalogue message; nothing here decides."""

from __future__ import annotations

from babel.lists import format_list

from .. import i18n
from ..cards import Card, rank_name
from ..themes import WHY_RULE, RuleFacts
from .reasons import Observation, Reason, ReasonKind, cost_rule

WHY_COST = "why-cost"  # the catalogue context of a cost's rule (``reasons.COST_RULES``)


def rule_text(facts: RuleFacts, lang: str) -> str:
    """What the rule allows or forbids here, in `lang`: the rule id's message with its facts (a
    field named by several cards lists them all)."""
    fields: dict[str, list[str]] = {}
    for name, card in facts.cards:
        fields.setdefault(name, []).append(i18n.card_text(card, lang))
    values = {name: format_list(cards, locale=lang) for name, cards in fields.items()}  # "4♦ and K♦"
    values |= {name: i18n.rank_letter(lang, rank_name(rank)) for name, rank in facts.ranks}
    values |= dict(facts.words)
    return i18n.text(lang, WHY_RULE, facts.rule, **values)


def explanation_text(facts: RuleFacts | None, reason: Reason, lang: str, later: int | None = None) -> str:
    """A wrong move's explanation: the rule's side, when there is one, then what the move costs;
    and, for a move the answer makes later (`later`, 0-based), when it does."""
    out = reason_text(reason, lang)
    if facts is not None:
        rule: str | None = rule_text(facts, lang)
    else:  # no theme's fact speaks for it: the rule whose terms the cost is stated in comes first
        cited = cost_rule(reason)
        rule = i18n.text(lang, WHY_COST, cited) if cited is not None else None
    proof = _proof_detail(reason, lang) if rule is not None else None
    if proof is not None:
        # The cost is a fact beside the solver's proof: "loses" said once, not "loses: it loses".
        out = i18n.text(lang, "sheet", "{rule} This move loses (the solver proves it): {detail}", rule=rule,
                        detail=proof)
    elif rule is not None:
        out = i18n.text(lang, "sheet", "{rule} This move loses: {cost}", rule=rule, cost=out)
    if later is not None:
        out = i18n.text(lang, "sheet", "{why} The answer makes this move too, but only at move {n}.", why=out,
                        n=later + 1)
    return out


def reason_text(reason: Reason, lang: str) -> str:
    """Why a move fails, in words (tagger.refutation computed it): a clause after the move."""
    def card(c: Card | None) -> str:
        return i18n.card_text(c, lang) if c is not None else ""

    f = {"card": card(reason.card), "cover": card(reason.cover), "other": card(reason.other),
         "landing": card(reason.landing), "pile": reason.pile}
    t = i18n.text
    kind = reason.kind
    if kind is ReasonKind.REFUSED and reason.refusal is not None:
        return t(lang, "sheet", "refused by the rules. {why}", why=i18n.refusal_message(reason.refusal, lang))
    if kind is ReasonKind.DEADLOCK and reason.landing is not None:
        return t(lang, "sheet", "{landing} was the last card {cover} could ever be laid on; now {cover} can "
                 "go only to its foundation, yet it lies on {card} in {pile}, which that foundation needs "
                 "first.", **f)
    if kind is ReasonKind.DEADLOCK:
        return t(lang, "sheet", "then {cover} lies on {card} in {pile}; {cover} can go only to its "
                 "foundation, which needs {card} first, so no line brings every card home.", **f)
    if kind is ReasonKind.DEAL_COVERS:
        return t(lang, "sheet", "the deal lays {cover} on {card} in {pile}, and after that {card} never "
                 "gets home, whatever is played.", **f)
    if kind is ReasonKind.BURIED:
        return t(lang, "sheet", "it lays {cover} over {card} in {pile}, and after that {card} never gets "
                 "home, whatever is played.", **f)
    if kind in (ReasonKind.LAST_EMPTY, ReasonKind.NEVER_HOME):
        return _never_home_text(reason, lang, f)
    if kind is ReasonKind.NOT_BOTH:
        return t(lang, "sheet", "after it {card} and {other} never both get home: once one of them is home, "
                 "the other can no longer follow.", **f)
    if kind is ReasonKind.OBSERVED and reason.observation is not None:
        return observation_text(reason.observation, lang)
    return t(lang, "sheet", "it loses: after it no line brings every card home (the solver proves it).")


def _never_home_text(reason: Reason, lang: str, f: dict[str, str]) -> str:
    """A card that no continuation brings home, and what lies on it when its foundation waits."""
    t = i18n.text
    if reason.cover is not None:
        why = t(lang, "sheet", "{card} never gets home, whatever is played: whenever its foundation is ready "
                "for it, {cover} still lies on it.", **f)
    else:
        why = t(lang, "sheet", "{card} never gets home, whatever is played: it is never free when its "
                "foundation is ready for it.", **f)
    if reason.kind is ReasonKind.LAST_EMPTY:
        return t(lang, "sheet", "it fills the last empty column, and after that {why}", why=why)
    if reason.landing is not None:
        return t(lang, "sheet", "it sends {landing} home, the last card {other} could be laid on, and after "
                 "that {why}", why=why, landing=f["landing"], other=f["other"])
    return t(lang, "sheet", "after it {why}", why=why)


def observation_text(seen: Observation, lang: str) -> str:
    """What a losing move changes for good, in words (tagger.refutation.observe), on a position too
    big to walk every continuation of: a fact beside the solver's proof."""
    return i18n.text(lang, "sheet", "it loses (the solver proves it): {detail}", detail=_observed(seen, lang))


def _proof_detail(reason: Reason, lang: str) -> str | None:
    """For a loss only the solver proves (an observation beside the proof, or nothing seen): what
    follows "this move loses (the solver proves it):"; None for every other reason."""
    if reason.kind is ReasonKind.OBSERVED and reason.observation is not None:
        return _observed(reason.observation, lang)
    if reason.kind in (ReasonKind.OBSERVED, ReasonKind.UNEXPLAINED):
        return i18n.text(lang, "sheet", "after it no line brings every card home.")
    return None


def _observed(seen: Observation, lang: str) -> str:
    """The observation itself, as a clause after "it loses (the solver proves it):"."""
    fields = {"card": i18n.card_text(seen.card, lang) if seen.card is not None else "",
              "under": i18n.card_text(seen.under, lang) if seen.under is not None else "",
              "cover": i18n.card_text(seen.cover, lang) if seen.cover is not None else "", "pile": seen.pile}
    t = i18n.text
    if seen.kind == "no-landing":
        return t(lang, "sheet", "after it {card} has no place left in the columns, since every card it could "
                 "lie on is home, yet it still covers {under} in {pile}.", **fields)
    if seen.kind == "buried" and seen.next:
        return t(lang, "sheet", "it lays {cover} on {card} in {pile}, and {card} is the next card its "
                 "foundation needs.", **fields)
    if seen.kind == "buried":
        return t(lang, "sheet", "after it {card} lies under {cover} in {pile}.", **fields)
    if seen.kind == "last-host":
        return t(lang, "sheet", "it sends {card} home, the last card {under} could still be laid on.",
                 **fields)
    return t(lang, "sheet", "it fills the last empty column.", **fields)
