"""Benchmark: the practice pages of a whole library (issue 28), or each file's page alone (issue 20).

Run:
  .venv/bin/python bench/practice_pages.py --site [puzzles/small] [--workers N] [--json FILE]
  .venv/bin/python bench/practice_pages.py [puzzles/small puzzles/sorel] [--json FILE]

With ``--site``: runs ``agnes-teach guide --lang en`` (its default practice set) and the same with
``--puzzles`` the folders given, each a process of its own, first with an empty analysis cache and
then again reading what the first build kept, and prints each build's
wall-clock and processor seconds (the analysing workers' included) and their ratios, every
practice page written with its bytes against the page budget, how many of the puzzles play, and
the notes about puzzles left out (each should appear once).

Without: builds each file's English practice page alone, as ``agnes-teach guide --puzzles FILE``
would, and prints per file whether the page can play it (its whole game stored, every answer
worked out at build time), the page's bytes against the page budget, and the seconds the
analysis took; then how many files play and the largest page.  A file that does not play
is named with the page's reason.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agnes_teach import practice  # noqa: E402
from agnes_teach.errors import InputError  # noqa: E402
from agnes_teach.practice_cache import AnalysisCache  # noqa: E402
from agnes_teach.profile import DEFAULT_PROFILE, get_profile  # noqa: E402
from agnes_teach.render.guide import build_guide, practice_set  # noqa: E402
from agnes_teach.render.practice import PAGE_BUDGET, build_practice, skip_reason  # noqa: E402
from agnes_teach.scenario import Scenario, load_puzzles  # noqa: E402


def cpu_seconds() -> float:
    """Processor time of this process and of every worker it has waited for (user and system)."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def _build(scenarios: list[Scenario], out: Path, workers: int | None,
           cache: AnalysisCache | None = None) -> tuple[float, float, list[str]]:
    """Wall-clock and processor seconds of one English guide build in this process (the analysing
    workers' time counted: the pool is shut down, and so waited for, before the build returns)."""
    practice.clear_analyses()
    notes: list[str] = []
    start, cpu = time.perf_counter(), cpu_seconds()
    build_guide(["en"], out, get_profile(DEFAULT_PROFILE), puzzles=scenarios, note=notes.append,
                workers=workers, cache=cache)
    return time.perf_counter() - start, cpu_seconds() - cpu, notes


def _command(args: list[str]) -> tuple[float, float]:
    """Wall-clock and processor seconds of one ``agnes-teach`` command, a process of its own (so no
    table a process keeps from an earlier build is warm)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    subprocess.run([sys.executable, "-m", "agnes_teach", *args], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, cpu_seconds() - cpu


def site(paths: list[str], scenarios: list[Scenario], workers: int | None) -> dict[str, object]:
    """The plain guide's build against the library's, each a command of its own: first with an empty
    analysis cache (cold), then again reading what that build kept (warm, as a rebuild is); and the
    library's practice pages, and whether the warm build wrote them byte for byte as the cold one."""
    with tempfile.TemporaryDirectory() as folder:
        top = Path(folder)
        more = ["--workers", str(workers)] if workers else []
        puzzles = [arg for path in paths for arg in ("--puzzles", path)]

        def guide(out: str, cache: str, *extra: str) -> list[str]:
            return ["guide", "--lang", "en", "--out", str(top / out), "--cache-dir", str(top / cache),
                    "--quiet", *more, *extra]

        plain, plain_cpu = _command(guide("plain", "c1"))
        print(f"guide --lang en, cold: {plain:.1f} s wall, {plain_cpu:.1f} s processor", flush=True)
        seconds, cpu = _command(guide("library", "c2", *puzzles))
        print(f"guide --lang en --puzzles, cold: {seconds:.1f} s wall, {cpu:.1f} s processor", flush=True)
        warm_plain, warm_plain_cpu = _command(guide("plain2", "c1"))
        warm, warm_cpu = _command(guide("library2", "c2", *puzzles))
        same = all((top / "library2" / p.name).read_bytes() == p.read_bytes()
                   for p in (top / "library").iterdir())
        # The notes, from the same build in this process (its analyses read from the kept folder).
        _s, _c, notes = _build(scenarios, top / "library3", workers, AnalysisCache(top / "c2"))
        pages = {p.name: p.stat().st_size for p in sorted((top / "library").glob("practice-*.html"))}
        playing = sum(html.count('class="puzzle" id=') for html in
                      (p.read_text("utf-8") for p in (top / "library").glob("practice-*.html")))
    for name, size in pages.items():
        print(f"  {name}: {size:,} bytes{'  OVER BUDGET' if size > PAGE_BUDGET else ''}")
    for text in notes:
        print(f"  note: {text}")
    print(f"guide --lang en --puzzles, cold: {seconds:.1f} s wall ({seconds / plain:.1f} times the plain "
          "guide), "
          f"{cpu:.1f} s processor ({cpu / plain_cpu:.1f} times the plain guide's); "
          f"{playing} of {len(practice_set(scenarios))} puzzles (the worked example with them) play on "
          f"{len(pages)} pages, "
          f"{sum(pages.values()):,} bytes in all, the largest {max(pages.values()):,} "
          f"(budget {PAGE_BUDGET:,}); "
          f"{len(notes)} notes ({len(set(notes))} different)")
    print(f"rebuilt with the analyses kept: plain {warm_plain:.1f} s wall, {warm_plain_cpu:.1f} s processor; "
          f"library {warm:.1f} s wall, {warm_cpu:.1f} s processor ({warm_cpu / warm_plain_cpu:.1f} times the "
          f"rebuilt plain guide's, {warm_cpu / plain_cpu:.1f} times the cold plain guide's); pages "
          f"{'the same byte for byte' if same else 'DIFFERENT'}")
    return {"plain_seconds": round(plain, 1), "seconds": round(seconds, 1),
            "plain_cpu_seconds": round(plain_cpu, 1), "cpu_seconds": round(cpu, 1),
            "cpu_ratio": round(cpu / plain_cpu, 2), "warm_plain_cpu_seconds": round(warm_plain_cpu, 2),
            "warm_cpu_seconds": round(warm_cpu, 2), "warm_cpu_ratio": round(warm_cpu / warm_plain_cpu, 2),
            "warm_pages_same": same, "pages": pages,
            "playing": playing, "puzzles": len(practice_set(scenarios)), "notes": notes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(ROOT / "puzzles" / "small")])
    parser.add_argument("--json", help="write every file's row to this file")
    parser.add_argument("--site", action="store_true", help="build the library's whole practice site")
    parser.add_argument("--workers", type=int, default=None, help="processes analysing puzzles (--site)")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    try:
        scenarios = load_puzzles([Path(p) for p in args.paths])
    except InputError as exc:
        parser.error(str(exc))
    if args.site:
        got = site(args.paths, scenarios, args.workers)
        if args.json:
            Path(args.json).write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
        return
    for scenario in scenarios:
        start = time.perf_counter()
        page = build_practice([scenario], "en", "en.html")
        seconds = time.perf_counter() - start
        plays = scenario.id in [p.scenario.id for p in page.playable]
        size = len(page.html.encode("utf-8"))
        why = "" if plays else "not on the page"
        if not plays and page.skipped:
            why = skip_reason(page.skipped[0], "en", PAGE_BUDGET)
        rows.append({"id": scenario.id, "plays": plays, "bytes": size, "seconds": round(seconds, 1),
                     "why": why})
        verdict = "plays" if plays else f"NOT PLAYABLE: {why}"
        print(f"{scenario.id}: {verdict}, {size:,} bytes, {seconds:.1f} s", flush=True)
    playing = sum(1 for r in rows if r["plays"])
    largest = max((int(str(r["bytes"])) for r in rows), default=0)
    print(f"{playing} of {len(rows)} files play; the largest page {largest:,} bytes (budget {PAGE_BUDGET:,})")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
