"""Puzzles as scenario files (formats.md, "Scenarios"), written atomically."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from .. import i18n
from ..outputs import registered, staging_folder
from ..tagger.players import RANDOM_PLAYOUTS
from ..yamlio import dump_yaml
from .answer_key import keyed_data
from .core import GENERATOR_VERSION, Puzzle
from .provenance import SourceKind

TITLE_LANGS = ("en", "ru", "es")


def rule_title(lang: str, rule_id: str) -> str:
    """The catalogue's title of a rule; English while a language has no catalogue yet."""
    use = lang if lang in i18n.languages() else "en"
    return i18n.text(use, "rule-title", rule_id)


def neutral_title(lang: str, number: int) -> str:
    """A puzzle's title names neither its rule nor its answer (the sheet's section names the rule)."""
    use = lang if lang in i18n.languages() else "en"
    return i18n.text(use, "sheet", "Puzzle {number}", number=number)


def puzzle_id(puzzle: Puzzle, run_seed: int, number: int) -> str:
    """``theme-s<seed>-<n>`` for a built puzzle, ``theme-d<deal>-m<move>`` for one mined from a deal,
    ``theme-d<deal>-m<move>-c<cards>`` for a small one cut down from that moment, and
    ``theme-l<number>-<draw>-c<cards>`` for one cut down from a composed layout."""
    stem = puzzle.theme.replace(".", "-")
    source = puzzle.source
    if source.kind is SourceKind.DEAL:
        small = f"-c{int(puzzle.stats['cards'])}" if puzzle.reduced else ""
        return f"{stem}-d{source.number}-m{source.step}{small}"
    if source.kind is SourceKind.LAYOUT:
        return f"{stem}-l{source.number}-{source.step}-c{int(puzzle.stats['cards'])}"
    return f"{stem}-s{run_seed}-{number:03d}"


def scenario_data(puzzle: Puzzle, run_seed: int, number: int, size: int | None = None) -> dict[str, Any]:
    """The YAML mapping of one puzzle, keys in the order of formats.md."""
    expect: dict[str, Any] = {"winnable": True}
    if puzzle.key_move is not None:
        expect["key_move"] = str(puzzle.key_move)
    if puzzle.trap_move is not None:
        expect["trap_move"] = str(puzzle.trap_move)
    elif puzzle.distractor.rule is None and puzzle.key_move is None:
        # A win task's tempting move is legal: the checker proves it loses.
        expect["trap_move"] = str(puzzle.distractor.move)
    if puzzle.distractor.rule is not None:
        expect["illegal"] = {str(puzzle.distractor.move): puzzle.distractor.rule}
    data: dict[str, Any] = {
        "id": puzzle_id(puzzle, run_seed, number),
        "title": {lang: neutral_title(lang, number) for lang in TITLE_LANGS},
        "task": str(puzzle.task),
        "themes": [str(puzzle.theme)],
        "position": puzzle.position.to_data(),
        "solution": " ".join(str(m) for m in puzzle.solution),
        "expect": expect,
        "difficulty": str(puzzle.difficulty),
        "source": puzzle.source.text(),
        "distractor": {
            "move": str(puzzle.distractor.move),
            "refuted": f"refused by {puzzle.distractor.rule}" if puzzle.distractor.rule else "proved to lose",
        },
        "measured": {"random_win_percent": round(100 * puzzle.stats.get("random", 0.0)),
                     "random_playouts": RANDOM_PLAYOUTS,
                     **({"misconception_win_percent": round(100 * puzzle.stats["misconception"])}
                        if "misconception" in puzzle.stats else {}),
                     "decisions": int(puzzle.stats.get("decisions", 0)),
                     "refute_depth": int(puzzle.stats.get("refute_depth", 0)),
                     **({"cards": int(puzzle.stats["cards"]), "answer_moves": int(puzzle.stats["answer"])}
                        if "answer" in puzzle.stats else {}),
                     **({"minimal": puzzle.minimal} if puzzle.minimal is not None else {})},
        "generator": GENERATOR_VERSION,
    }
    if puzzle.economy:
        data["economy"] = dict(puzzle.economy)
    if puzzle.reduced:
        data["reduced"] = len(puzzle.reduced)
    seed = puzzle.source.seed_data(run_seed)  # a mined or composed puzzle depends on its number alone
    if seed is not None:
        data["seed"] = seed
    if puzzle.stock_shown:
        data["stock_shown"] = True
    if puzzle.hidden_stock is not None:
        data["hidden_stock"] = puzzle.hidden_stock
    if puzzle.answer_key is not None:  # a small puzzle: the shortest answer and the exact claims
        data = keyed_data(data, puzzle.answer_key)
    return data


def to_yaml(data: dict[str, Any]) -> str:
    return dump_yaml(data, flow_piles=True)


def write_puzzles(files: list[tuple[str, str]], out: Path) -> None:
    """Write (name, text) files into `out` all at once: a temporary folder first, then moved."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with registered(lambda: staging_folder(out.parent, ".generate-")) as tmp:
        try:
            for name, text in files:
                (tmp / name).write_text(text, encoding="utf-8")
            if not out.exists():
                os.replace(tmp, out)
                return
            for name, _ in files:
                os.replace(tmp / name, out / name)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp)
