"""The tableau.empty lesson's builder."""

from __future__ import annotations

import random

from ...cards import make_card, rank_of, suit_of
from ...piles import Pile
from ...profile import Profile
from ...registry import Task
from ..build import Draft
from .layout import merge, pick_base, pick_piles, stack, stock_size, suit_counts


def build_tableau_empty(rng: random.Random, profile: Profile, task: str, size: int) -> Draft | None:
    """A card of the rank below the base blocks the card the order needs first; it may go into
    the one empty column, a King (the Klondike habit) may not, another card of its rank may
    but then blocks the column."""
    base = pick_base(profile, rng, 2, 4 + 2 * size)
    want = profile.empty_rank(base)
    if want == 13:
        return None
    suits = [rng.randrange(4) for _ in range(3)]
    filler, decoy, king = make_card(want, suits[0]), make_card(want, suits[1]), make_card(13, suits[2])
    with_decoy = decoy != filler and (task != Task.WIN or rng.random() < 0.7)
    cards = [filler, king] + ([decoy] if with_decoy else [])
    extra = rng.randint(1 + size, 2 + 3 * size) + (0 if task == Task.WIN else 4)
    draft = Draft(profile, base, suit_counts(rng, base, cards, extra, cap=6), stock_size(profile))
    order = merge(rng, draft, [])
    if order is None:
        return None
    first = order[0]
    if first in cards:
        return None
    order.remove(filler)
    empty = rng.choice([Pile.column(i + 1) for i in range(profile.columns)])
    piles = pick_piles(draft, rng, 2 + size, rng.randint(1, 2), {empty}, task)
    if len(piles) < 3:
        return None
    goes_home = [draft.out_cards(suit_of(c))[0] for c in (king, decoy) if c == king or with_decoy]
    if king in goes_home or decoy in goes_home:
        return None  # a King or a decoy that simply goes home tempts no one
    one_empty = task != Task.WIN or rng.random() < 0.5
    # The choice: the first card needed lies alone under the blocker in a column, and the
    # decoy blocks the next card of the same suit.  Decoy first and the first card stays
    # buried; blocker first and the first card goes home, its column empties, and the decoy
    # gets a column of its own.
    choice = one_empty and with_decoy and rng.random() < (0.5 if task == Task.WIN else 1.0)
    if choice:
        columns = [p for p in piles if p.is_column]
        if not columns:
            return None
        piles.remove(columns[0])
        piles.insert(0, columns[0])
    pins = {first: piles[0], king: piles[1]}
    tops = {first, king}
    if with_decoy:
        order.remove(decoy)
        # The decoy blocks an early card too: which of the two goes into the column matters.
        suit_cards = draft.out_cards(suit_of(first))
        if choice:
            second = suit_cards[1] if len(suit_cards) > 1 and suit_cards[1] not in cards else None
        else:
            second = next((c for c in order[1:] if c not in cards), None)
        if second is None:
            return None
        pins[second] = piles[2]
        tops.add(second)
    if one_empty:
        # Exactly one empty column (else the other card of the right rank could take another).
        others = [Pile.column(i + 1) for i in range(profile.columns)
                  if Pile.column(i + 1) not in piles and Pile.column(i + 1) != empty]
        latest = [c for c in reversed(order) if c not in pins and rank_of(c) != want][: len(others)]
        if len(latest) < len(others):
            return None
        pins.update(zip(latest, others, strict=True))  # the last cards played lie at the bottom
        if task == Task.KEY_MOVE:
            tops.update(latest)  # alone in their columns: no side moves from them
        piles = piles + others
    # Under a choice, the first card's column holds nothing else.
    if not stack(draft, rng, order, piles[1:] if choice else piles, pins, tops):
        return None
    for card, pile in ((filler, piles[0]), (decoy, piles[2])):
        if card == filler or with_decoy:
            if not draft.can_put(pile, card):
                return None
            draft.put(pile, card)
    if one_empty and sum(not c for c in draft.tableau) != 1:
        return None
    return draft
