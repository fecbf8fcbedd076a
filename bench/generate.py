"""Benchmark: verified puzzles per minute, per theme, with one worker process and with more.

Run:  .venv/bin/python bench/generate.py [--seconds 120] [--themes tableau.wrap,...] [--seed 1]
      [--source small|built] [--workers 1,2]

For each theme and each worker count, the generator runs for the given wall-clock time on the
pipeline ``generate`` uses (``--source small``, the default: layouts composed from the seed's own
thousand numbers, cut down and judged; ``--source built``: built candidates) and the benchmark
counts the puzzles it took.  It prints puzzles per minute for each worker count and the ratio of
each rate to the first count's (the speed-up), and why candidates were dropped.  The files are
the same whatever the worker count (tests/test_pipeline.py), so the ratio is the pipeline's gain
alone.  Numbers are wall-clock rates on whatever else the machine is running: say how loaded it
was when you quote them.

With ``--baseline COMMIT`` it compares trees instead of worker counts: for each theme, this tree's
``agnes-teach generate`` and COMMIT's (checked out into a temporary git worktree, its compiled core
built there) run side by side on the same seed for the same time, one process each, so both meet
the same load; it prints the puzzles each wrote a minute of its command's wall-clock time
(start-up included) and their ratio (above 1: more puzzles a minute now; "-" where COMMIT has no
such theme).  Timing the command, not a function, lets COMMIT be any version whose ``generate``
has ``--max-seconds``.  The two trees may take different puzzles (that is what a change to the
search does), so the files are not compared.

      .venv/bin/python bench/generate.py --baseline HEAD~1 --themes foundation.suit --seed 513
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agnes_teach.generator import Tally, Workers, generate  # noqa: E402
from agnes_teach.generator.pipeline import Search, composed_numbers, find  # noqa: E402
from agnes_teach.generator.quota import TASK_ROTATION  # noqa: E402
from agnes_teach.profile import get_profile  # noqa: E402
from agnes_teach.survey import parse_deal_ranges  # noqa: E402
from agnes_teach.themes import theme_ids  # noqa: E402

UNBOUNDED = 1000  # a count no timed run reaches: the clock ends each run


def bench_theme(theme: str, source: str, seconds: float, seed: int, profile_id: str,
                workers: int) -> tuple[int, float, Tally]:
    """Puzzles taken, seconds spent (worker start-up included), the rejection tally."""
    profile = get_profile(profile_id)
    tally = Tally()
    start = time.perf_counter()
    if source == "built":
        found = generate(theme, UNBOUNDED, seed, profile, max_seconds=seconds, tally=tally,
                         workers=Workers(workers))
    else:
        search = Search(theme, UNBOUNDED, tasks=TASK_ROTATION)
        found = find(search, parse_deal_ranges(composed_numbers(seed)), profile, max_seconds=seconds,
                     tally=tally, composed=True, workers=Workers(workers))
    return len(found), time.perf_counter() - start, tally


def log_of(out: Path) -> Path:
    """Where the run writing into `out` keeps its stderr (beside it: rule ids hold a dot)."""
    return out.parent / f"{out.name}.log"


def command_rate(tree: Path, theme: str, seed: int, seconds: float, profile: str,
                 out: Path) -> subprocess.Popen[str]:
    """`tree`'s own ``generate`` command for `theme`, started (the whole command, start-up
    included: a tree's internals may differ, its command line does not)."""
    command = [sys.executable, "-m", "agnes_teach", "generate", "--theme", theme, "--count", str(UNBOUNDED),
               "--seed", str(seed), "--max-seconds", f"{seconds:g}", "--out", str(out)]
    if profile != "bernauer":  # the default; older versions had no --profile on generate
        command += ["--profile", profile]
    with open(log_of(out), "w") as log:  # a file, not a pipe: a full pipe would stall it
        return subprocess.Popen(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                                stdout=subprocess.DEVNULL, stderr=log, text=True)


def wait_all(runs: list[subprocess.Popen[str]]) -> list[float]:
    """When each of `runs` ended (``time.perf_counter``); if this is interrupted, the runs still
    going are stopped, so that none outlives the benchmark."""
    ended: dict[int, float] = {}
    try:
        while len(ended) < len(runs):
            for i, run in enumerate(runs):
                if i not in ended and run.poll() is not None:
                    ended[i] = time.perf_counter()
            time.sleep(0.05)
    finally:
        for run in runs:
            if run.poll() is None:
                run.kill()
                run.wait()
    return [ended[i] for i in range(len(runs))]


def compare_trees(baseline: str, themes: list[str], seed: int, seconds: float, profile: str) -> None:
    """Each theme's ``generate`` command run in this tree and in `baseline` at once, one process
    each; puzzles written a minute of the command's wall-clock time."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), baseline], cwd=root, check=True,
                       stdout=subprocess.DEVNULL)
        try:
            subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=base, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(f"{'theme':18} {'now /min':>9} {'base /min':>9} {'ratio':>7}  "
                  f"(seed {seed}, {seconds:g} s each)")
            for theme in themes:
                outs = [Path(tmp) / f"{name}-{theme}" for name in ("now", "base")]
                start = time.perf_counter()
                runs = [command_rate(tree, theme, seed, seconds, profile, out)
                        for tree, out in zip((root, base), outs, strict=True)]
                ended = wait_all(runs)
                rates: list[float | None] = []
                for run, out, end in zip(runs, outs, ended, strict=True):
                    err = log_of(out).read_text()
                    spent = end - start
                    # 0: all written; 3: time ran out, the puzzles found written; 2: no such theme there.
                    if run.returncode == 2 and run is runs[1] and "--theme" in err:
                        rates.append(None)
                        continue
                    if run.returncode not in (0, 3):
                        sys.exit(f"bench/generate.py: {theme}: a run failed (exit {run.returncode}): "
                                 + (err.strip().splitlines() or [""])[-1])
                    rates.append(60 * len(list(out.glob("*.yaml"))) / spent)
                now, then = rates
                assert now is not None
                ratio = f"{now / then:7.2f}" if then else f"{'-':>7}"
                shown = f"{then:9.2f}" if then is not None else f"{'-':>9}"
                print(f"{theme:18} {now:9.2f} {shown} {ratio}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=root, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="wall-clock time per theme and worker count")
    parser.add_argument("--themes", default=None,
                        help="comma-separated rule ids (default: every theme of the profile)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="bernauer")
    parser.add_argument("--source", choices=("small", "built"), default="small")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare, the first as the base")
    parser.add_argument("--baseline", help="compare this tree with this commit instead (one worker each)")
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error(f"--seconds {args.seconds:g}: must be more than 0")
    try:
        counts = [int(w) for w in args.workers.split(",")]
    except ValueError:
        parser.error(f"--workers {args.workers}: a comma-separated list of worker counts, e.g. 1,2")
    if not counts or min(counts) < 1:
        parser.error(f"--workers {args.workers}: each count must be 1 or more")
    # A stop (kill, or the session ending) unwinds like Ctrl-C: the worktree and the runs are cleared.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ids = theme_ids(args.profile)
    themes = [t for t in args.themes.split(",") if t] if args.themes is not None else ids
    unknown = [t for t in themes if t not in ids]
    if unknown:
        parser.error(f"unknown theme(s): {', '.join(unknown)} (known: {', '.join(ids)})")
    if args.baseline is not None:
        if args.source != "small":
            parser.error("--baseline compares the default source (small) only")
        known = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.baseline}^{{commit}}"],
                               cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.DEVNULL)
        if known.returncode != 0:
            parser.error(f"--baseline {args.baseline}: not a commit of this repository (e.g. HEAD~1)")
        compare_trees(args.baseline, themes, args.seed, args.seconds, args.profile)
        return
    heads = "".join(f" {f'w={w} /min':>10}" for w in counts) + "".join(f" {f'w={w}/w={counts[0]}':>9}"
                                                                      for w in counts[1:])
    print(f"{'theme':18}{heads}  top rejections (first count)")
    for theme in themes:
        rates: list[float] = []
        first_tally = Tally()
        for w in counts:
            found, spent, tally = bench_theme(theme, args.source, args.seconds, args.seed, args.profile, w)
            rates.append(60 * found / spent)
            if w == counts[0]:
                first_tally = tally
            print(f"  {theme} workers={w}: {found} puzzles in {spent:.0f} s", file=sys.stderr, flush=True)
        top = sorted(first_tally.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
        reasons = ", ".join(f"{k[:50]} {v}" for k, v in top)
        ratios = "".join(f" {(r / rates[0] if rates[0] else float('nan')):9.2f}" for r in rates[1:])
        print(f"{theme:18}{''.join(f' {r:10.2f}' for r in rates)}{ratios}  {reasons}", flush=True)


if __name__ == "__main__":
    main()
