"""stock.deal: a deal is the player's choice, and it covers the piles it deals onto."""

from __future__ import annotations

from ..moves import Move
from ..piles import PileKind
from ..position import Position
from ..registry import RuleId
from . import Lesson, RuleFacts

RULE = RuleId.STOCK_DEAL


def explain(here: Position, wrong: Move, lesson: Lesson | None) -> RuleFacts | None:
    """The reserve tops a deal onto the reserve would cover."""
    if not wrong.is_deal or here.deals_done >= len(here.profile.stock_deals):
        return None
    targets = here.profile.stock_deals[here.deals_done]
    if any(p.kind is not PileKind.RESERVE for p in targets):
        return None
    tops = [here.pile(p)[-1] for p in targets if here.pile(p)]
    if not tops:
        return None
    return RuleFacts(RULE, cards=tuple(("top", c) for c in tops))
