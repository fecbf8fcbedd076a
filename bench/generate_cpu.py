"""Benchmark: processor seconds to generate fixed puzzles, this tree against an earlier commit.

Run:  .venv/bin/python bench/generate_cpu.py --baseline COMMIT [--runs 3]
      [--case THEME:SEED:COUNT ...] [--case THEME:FIRST-LAST:COUNT ...] [--profile bernauer]

Each case is a ``generate`` run that stops on its count, not on the clock (``--max-seconds`` is
large), so both trees do the same work: the same seed writes the same files, which the benchmark
checks byte for byte.  A case whose middle is a range of layout numbers
(``foundation.return:40001-40004:1``) is a library build over those layouts instead
(``puzzles/build_library.py --layouts``, stopping on its count or at the range's end): fixed work
for a theme whose seeded runs take too long to repeat.  The baseline is checked out into a
temporary git worktree and its compiled core built there.  Runs alternate (this tree, the
baseline, this tree, ...) so that a machine whose load drifts weighs on both alike; each run's
processor time is the child process's user and system time (``resource.getrusage``), which a busy
machine stretches far less than wall-clock time.  Prints each case's median seconds on either side
and the ratio this / baseline (below 1: faster now).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CASES = ("tableau.run:90:1", "tableau.build:0:1", "reserve.no-build:0:1")


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_case(tree: Path, theme: str, seed: int, count: int, profile: str, out: Path) -> float:
    """Processor seconds of one ``generate`` run in `tree`, writing into `out`."""
    before = child_cpu()
    subprocess.run([sys.executable, "-m", "agnes_teach", "generate", "--theme", theme, "--count", str(count),
                    "--seed", str(seed), "--profile", profile, "--max-seconds", "100000", "--out", str(out)],
                   cwd=tree, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return child_cpu() - before


def run_layouts(tree: Path, theme: str, numbers: str, count: int, profile: str, out: Path) -> float:
    """Processor seconds of one library build over layouts `numbers` in `tree`, into `out`."""
    before = child_cpu()
    subprocess.run([sys.executable, "puzzles/build_library.py", "--theme", theme, "--count", str(count),
                    "--layouts", numbers, "--profile", profile, "--max-seconds", "100000",
                    "--folder", str(out)],
                   cwd=tree, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(tree)})
    return child_cpu() - before


def same_files(a: Path, b: Path) -> bool:
    names = sorted(p.name for p in a.iterdir())
    return names == sorted(p.name for p in b.iterdir()) and all(
        filecmp.cmp(a / n, b / n, shallow=False) for n in names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="the commit to compare with (e.g. main~3)")
    parser.add_argument("--case", action="append", help="THEME:SEED:COUNT (repeatable; default: "
                        + ", ".join(DEFAULT_CASES) + ")")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", default="bernauer")
    args = parser.parse_args()
    cases = [tuple(c.split(":")) for c in (args.case or DEFAULT_CASES)]
    for case in cases:
        middle = case[1].split("-") if len(case) == 3 else []
        if len(case) != 3 or not all(part.isdigit() for part in middle) or len(middle) > 2 \
                or not case[2].isdigit():
            parser.error(f"--case {':'.join(case)}: expected THEME:SEED:COUNT or THEME:FIRST-LAST:COUNT, "
                         "e.g. tableau.run:90:1")
    known = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.baseline}^{{commit}}"],
                           cwd=ROOT, stdout=subprocess.DEVNULL)
    if known.returncode != 0:
        parser.error(f"--baseline {args.baseline}: not a commit of this repository")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.baseline], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        try:
            subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=base, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(f"{'case':32} {'this tree s':>12} {'baseline s':>12} {'ratio':>7}  files")
            for theme, seed, count in cases:
                now: list[float] = []
                then: list[float] = []
                same = True
                for k in range(args.runs):
                    out_now, out_then = Path(tmp) / f"now-{k}", Path(tmp) / f"then-{k}"
                    if "-" in seed:
                        out_now.mkdir()
                        out_then.mkdir()
                        now.append(run_layouts(ROOT, theme, seed, int(count), args.profile, out_now))
                        then.append(run_layouts(base, theme, seed, int(count), args.profile, out_then))
                    else:
                        now.append(run_case(ROOT, theme, int(seed), int(count), args.profile, out_now))
                        then.append(run_case(base, theme, int(seed), int(count), args.profile, out_then))
                    same = same and same_files(out_now, out_then)
                a, b = statistics.median(now), statistics.median(then)
                label = f"{theme} {'layouts' if '-' in seed else 'seed'} {seed} count {count}"
                print(f"{label:32} {a:12.2f} {b:12.2f} {a / b:7.3f}  "
                      f"{'identical' if same else 'DIFFERENT'}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
