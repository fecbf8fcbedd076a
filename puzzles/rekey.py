"""Re-key the library: every file's answer key derived again, exactly (issue 28).

    .venv/bin/python puzzles/rekey.py [FOLDERS...] [--dry-run]

For every scenario file under the folders (default: puzzles/small, puzzles/demo
and puzzles/sorel) this writes, with the generator's own function
(``generator.answer_key``) and its YAML writer: the solution as a shortest
answer and the ``answer:`` record, ``expect.trap_moves`` (every losing first
move), and the rating from the answer, its decision points and the measured
random-play rate. A file whose claims cannot be made exact (a key-move puzzle
with two winning first moves, say), or that no longer passes ``check --teach``
with its shortest answer (another, longer answer beside it: criterion 5), is
deleted and named. Each file is replaced
atomically, so a stopped run leaves every file whole. Prints one line per file
(old answer length and rating -> new) and the medians per rating.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from agnes_teach.checker import check_scenario  # noqa: E402
from agnes_teach.engine import apply_unchecked, finishes_home, resolve  # noqa: E402
from agnes_teach.generator.answer_key import KeyProblem, answer_key, keyed_data  # noqa: E402
from agnes_teach.generator.output import to_yaml  # noqa: E402
from agnes_teach.position import Position  # noqa: E402
from agnes_teach.scenario import Scenario, load_scenario, scenario_files  # noqa: E402
from agnes_teach.tagger.players import random_win_rate  # noqa: E402
from agnes_teach.tagger.shortest import TooLarge  # noqa: E402
from agnes_teach.yamlio import load_file  # noqa: E402

FOLDERS = ("small", "demo", "sorel")


def old_answer(sc: Scenario) -> int:
    """The moves the file's solution asks for: up to the first position that finishes by itself."""
    pos: Position = sc.position
    for i, text in enumerate(sc.solution or []):
        if finishes_home(pos):
            return i
        pos = apply_unchecked(pos, resolve(pos, text))
    return len(sc.solution or [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=[str(HERE / f) for f in FOLDERS])
    parser.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    args = parser.parse_args()
    by_rating: dict[str, list[int]] = {}
    dropped: list[str] = []
    for path in scenario_files(args.folders):
        sc = load_scenario(path)
        data, _ = load_file(path)
        assert isinstance(data, dict)
        theme = sc.themes[0] if sc.themes else None
        percent = sc.measured.get("random_win_percent")
        random = percent / 100 if isinstance(percent, int) and not isinstance(percent, bool) \
            else random_win_rate(sc.position) or 0.0
        try:
            key = answer_key(sc.position, theme, random)
            new = keyed_data(data, key)
        except (KeyProblem, TooLarge) as exc:
            dropped.append(f"{path}: {exc}")
            print(f"DROP {path}: {exc}", flush=True)
            if not args.dry_run:
                path.unlink()
            continue
        print(f"{sc.id}: {sc.task} answer {old_answer(sc)} -> {key.answers.length} "
              f"({key.answers.count} that short), {sc.difficulty} -> {key.difficulty} "
              f"(score {key.score:.1f}), trap moves {len(key.trap_moves)}", flush=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(to_yaml(new), encoding="utf-8")
        try:
            checked = check_scenario(load_scenario(tmp), teach=True)
        except BaseException:  # stopped (or failed) mid-way: leave no half-made file behind
            tmp.unlink()
            raise
        if not checked.ok:
            why = "; ".join(e.message for e in checked.errors)
            dropped.append(f"{path}: {why}")
            print(f"DROP {path}: {why}", flush=True)
            tmp.unlink()
            if not args.dry_run:
                path.unlink()
            continue
        if args.dry_run:
            tmp.unlink()
        else:
            tmp.replace(path)
        by_rating.setdefault(str(key.difficulty), []).append(key.answers.length)
    for rating in ("easy", "medium", "hard"):
        lengths = by_rating.get(rating, [])
        if lengths:
            print(f"{rating}: {len(lengths)} puzzles, median answer {statistics.median(lengths)}")
    if dropped:
        print(f"dropped {len(dropped)}:", *dropped, sep="\n  ")


if __name__ == "__main__":
    main()
