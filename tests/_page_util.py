"""Test helper: a practice puzzle read back from its page data the way templates/practice.js reads it.

The board keeps, as the page does, the stored state and its view (where each of the learner's piles
lies in the stored state); it looks moves, reorderings and refusals up through the view.  The tests
play real games beside it and compare every pile and every word with the engine's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agnes_teach import i18n
from agnes_teach.render.practice import ALPHABET, DEAL_CODE, DIGITS, unpack

Data = dict[str, Any]


def number(text: str) -> int:
    n = 0
    for ch in text:
        n = n * len(DIGITS) + DIGITS.index(ch)
    return n


@dataclass
class Board:
    """One puzzle of the page, at one step of its history."""

    data: Data  # the puzzle's entry in the page's data
    graph: Data = field(init=False)
    first: list[int] = field(init=False)  # where each state's moves start in graph["to"]
    state: int = 0
    view: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.graph = unpack(self.data["graph"])  # type: ignore[assignment]
        self.first = [0]
        for codes in self.graph["codes"]:
            self.first.append(self.first[-1] + len(codes) // 2)
        self.view = list(range(len(self.data["dests"]) - 1))

    def piles(self) -> list[list[int]]:
        """The learner's piles (columns, reserve, exposed), each bottom to top."""
        stored = self.graph["layout"][self.state].split("|")[0].split(",")
        return [[ALPHABET.index(ch) for ch in stored[q]] for q in self.view]

    def foundations(self) -> list[int]:
        return [DIGITS.index(ch) for ch in self.graph["layout"][self.state].split("|")[1]]

    def stock(self) -> list[int]:
        return [ALPHABET.index(ch) for ch in self.graph["layout"][self.state].split("|")[2]]

    def stored_dest(self, dest: int) -> int:
        return 1 + self.view[dest - 1] if dest > 0 else dest

    def moves(self) -> list[tuple[str, int, int]]:
        """The stored state's moves: code, target state, reordering number."""
        codes, at = self.graph["codes"][self.state], self.first[self.state]
        width = self.graph["relabel_width"]
        return [(codes[2 * k:2 * k + 2], self.state + self.graph["to"][at + k],
                 number(self.graph["relabel"][(at + k) * width:(at + k + 1) * width]))
                for k in range(len(codes) // 2)]

    def auto(self, k: int) -> list[int]:
        """The cards that went home by themselves after move k of the current state."""
        listed = self.graph["auto"][self.state] if self.graph["auto"] else ""
        for item in filter(None, listed.split(",")):
            edge, cards = item.split("=")
            if int(edge) == k:
                return [ALPHABET.index(ch) for ch in cards]
        return []

    def play(self, card: int | None, dest: int) -> list[int] | None:
        """Play card -> destination number (None: the deal); the cards sent home by themselves, or
        None if the page finds no such move."""
        key = DEAL_CODE if card is None else ALPHABET[card] + DIGITS[self.stored_dest(dest)]
        for k, (code, to, relabel) in enumerate(self.moves()):
            if code == key:
                home = self.auto(k)
                if relabel:
                    order = self.graph["relabels"][relabel - 1]
                    self.view = [order[q] for q in self.view]
                self.state = to
                return home
        return None

    def winnable(self) -> bool:
        return self.graph["winnable"][self.state] == "1"

    def refusal(self, card: int, dest: int, messages: list[list[str]], shown: list[str],
                agree: dict[str, Any] | None = None) -> tuple[str, str]:
        """The page's words for card -> destination: rule id and the message with its facts filled in."""
        width = self.graph["width"]
        code = self.graph["refusals"][self.state][card * width:(card + 1) * width]
        local = self.graph["patterns"][number(code)][1 + self.stored_dest(dest)]
        rule, text = messages[self.data["msgs"][local]]  # the puzzle's own number, then the page's
        facts = {"card": shown[card], "dest": self.data["dests"][dest]}
        pile = self.piles()[dest - 1] if dest > 0 else []
        if pile:
            facts["target"] = shown[pile[-1]]
        said = i18n.fill(text, facts)
        if agree:  # as the page's fill() does: the article follows the card (Spanish «la J♠»)
            said = re.sub(agree["pattern"], lambda m: agree["articles"][m.group(1)] + m.group(2), said)
        return rule, said
