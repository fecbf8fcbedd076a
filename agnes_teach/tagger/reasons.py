"""Why a wrong move loses, as data: the facts ``refutation`` reads off the positions, which the
wording (``wording``) puts into each language. Data only, so both can import it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..cards import Card
from ..predicates import Refusal
from ..registry import RuleId


@dataclass(frozen=True)
class Observation:
    """What the tempting move changes for good, read off the positions before and after it.

    ``kind``: ``no-landing`` (`card` lost its last landing in the columns, and still covers
    `under` in `pile`); ``buried`` (`card`, needed next by its foundation when `next` is true,
    is covered by `cover` in `pile`); ``last-empty`` (the move fills the last empty column);
    ``last-host`` (the move sends `card` home, the last card `under` could be laid on).
    A fact, not a proof: the solver proves the loss."""

    kind: str
    card: Card | None = None
    under: Card | None = None
    cover: Card | None = None
    pile: str = ""
    next: bool = False


class ReasonKind(StrEnum):
    """How the key explains a move that loses (or is refused)."""

    REFUSED = "refused"  # the rules refuse it: `refusal`
    DEADLOCK = "deadlock"  # `cover` lies on `card` in `pile`, can go only home, and home needs `card` first
    DEAL_COVERS = "deal-covers"  # the deal lays `cover` on `card` in `pile`; `card` then never gets home
    BURIED = "buried"  # the move lays `cover` over `card` in `pile`; `card` then never gets home
    LAST_EMPTY = "last-empty"  # it fills the last empty column; `card` then never gets home
    # After it `card` never gets home (`cover` lies on it when it is needed); for a move home, `landing`
    # was the last card `other` could be laid on.
    NEVER_HOME = "never-home"
    NOT_BOTH = "not-both"  # after it `card` and `other` never both get home
    OBSERVED = "observed"  # a position too big to explore: what the move changes for good (`observation`)
    UNEXPLAINED = "unexplained"  # too big to explore, and nothing shows: only the solver's proof


@dataclass(frozen=True)
class Reason:
    """Why one move loses, in facts a pupil can check (the move itself is not part of it, so
    moves that lose for the same reason share one)."""

    kind: ReasonKind
    card: Card | None = None
    cover: Card | None = None
    pile: str = ""
    other: Card | None = None
    refusal: Refusal | None = None
    observation: Observation | None = None
    landing: Card | None = None  # a move home's card, the last one `cover` (`other`) could lie on


# The rule in whose terms a cost is stated, for a wrong move no rule refuses and the theme's belief
# does not explain (issue 28: every wrong move cites the rule it misreads or says in the rule's terms
# what it costs). A card that "never gets home" is the foundation's order at work: its foundation
# takes only the next card of its suit, so a card lying on an earlier one of that suit blocks both;
# filling the last empty column is the empty-column rule's cost. The words are the catalogue's
# ``msgctxt "why-cost"`` messages, keyed by the rule id.
COST_RULES: dict[ReasonKind, RuleId] = {
    ReasonKind.DEADLOCK: RuleId.FOUNDATION_SUIT,
    ReasonKind.DEAL_COVERS: RuleId.FOUNDATION_SUIT,
    ReasonKind.BURIED: RuleId.FOUNDATION_SUIT,
    ReasonKind.NEVER_HOME: RuleId.FOUNDATION_SUIT,
    ReasonKind.NOT_BOTH: RuleId.FOUNDATION_SUIT,
    ReasonKind.LAST_EMPTY: RuleId.TABLEAU_EMPTY,
}


def cost_rule(reason: Reason) -> RuleId | None:
    """The rule whose terms state what `reason` costs (None: a refusal names its own rule, and an
    observation or the solver's bare proof has none)."""
    return COST_RULES.get(reason.kind) if reason.refusal is None else None
