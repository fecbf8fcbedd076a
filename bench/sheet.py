"""Benchmark: a 20-puzzle worksheet, `agnes-teach sheet` against WeasyPrint rendering the same HTML alone.

Both are timed in the same process and run, after one warm-up of each (the
first WeasyPrint call pays for imports and font loading).  The ratio says how
much the whole command (loading and checking scenarios, replaying answers,
drawing SVG, templating) costs on top of the PDF rendering itself.

    .venv/bin/python bench/sheet.py [--repeat N] [--lang ru]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agnes_teach.render.sheet import build_sheet, html_to_pdf, load_items, sheet_html  # noqa: E402

PUZZLES = 20


def make_puzzles(folder: Path) -> list[str]:
    """20 scenario files: the demo set repeated, each copy with its own id."""
    demo = sorted((ROOT / "puzzles" / "demo").glob("*.yaml"))
    files = []
    for i in range(PUZZLES):
        source = demo[i % len(demo)]
        data = yaml.safe_load(source.read_text("utf-8"))
        data["id"] = f"{data['id']}-{i + 1}"
        target = folder / f"{i + 1:02d}-{source.name}"
        target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
        files.append(str(target))
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = make_puzzles(folder)
        out = folder / "sheet.pdf"
        html = sheet_html(load_items(files, args.lang), args.lang)
        build_sheet(files, args.lang, out)  # warm-up
        html_to_pdf(html, folder / "alone.pdf")
        ours: list[float] = []
        alone: list[float] = []
        for i in range(args.repeat):
            # Alternate which goes first, so neither always runs on a warmer or busier machine.
            order = [("ours", ours), ("alone", alone)]
            for name, times in order if i % 2 == 0 else order[::-1]:
                start = time.perf_counter()
                if name == "ours":
                    build_sheet(files, args.lang, out)
                else:
                    html_to_pdf(html, folder / "alone.pdf")
                times.append(time.perf_counter() - start)
        from pypdf import PdfReader

        pages = len(PdfReader(str(out)).pages)
    ours_s, alone_s = statistics.median(ours), statistics.median(alone)
    print(f"{PUZZLES}-puzzle worksheet ({args.lang}, {pages} pages), median of {args.repeat}:")
    print(f"  agnes-teach sheet     {ours_s:6.2f} s")
    print(f"  WeasyPrint HTML alone {alone_s:6.2f} s")
    print(f"  ratio sheet / WeasyPrint alone: {ours_s / alone_s:.2f}")


if __name__ == "__main__":
    main()
