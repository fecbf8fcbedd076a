"""``agnes-teach sheet``, ``guide`` and ``demo``: the documents people read."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

import typer

from ..errors import InputError
from ..profile import DEFAULT_PROFILE, get_profile
from .errors import input_errors
from .options import (
    JsonOption,
    LangOption,
    LanguagesOption,
    ParentsOption,
    ProfileOption,
    check_out,
    language_list,
)

app = typer.Typer()  # joined, without a name, into the root app of agnes_teach.cli


@contextmanager
def _progress(label: str, total: int | None) -> Iterator[Callable[[str], None]]:
    """A progress bar on stderr when it is a terminal; otherwise silent."""
    if not sys.stderr.isatty():
        yield lambda _step: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)

        def step(what: str) -> None:
            bar.update(task, advance=1, description=f"{label} {what}"[:60])

        yield step


def _report(written: list[Path], as_json: bool) -> None:
    if as_json:
        print(json.dumps({"written": [str(p) for p in written]}))
    else:
        for path in written:
            print(path)


@app.command("sheet")
@input_errors
def sheet_command(
    paths: Annotated[list[str], typer.Argument(help="Scenario files, or folders to search for *.yaml.")],
    out: Annotated[Path, typer.Option("--out", help="The PDF file to write.")],
    lang: LangOption = "en",
    paper: Annotated[Literal["a4", "letter"], typer.Option("--paper", help="Paper size.")] = "a4",
    answers: Annotated[
        Literal["appendix", "none", "separate"],
        typer.Option(
            "--answers",
            help="Answer key: appendix (on its own pages at the end), none, or separate "
            "(a second file, NAME-answers.pdf).",
        ),
    ] = "appendix",
    mix: Annotated[
        str | None,
        typer.Option("--mix", help="A review sheet across rules: THEME=N,... takes the N easiest puzzles of "
                     "each theme from PATHS, in one section with no rule headings."),
    ] = None,
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Print a worksheet PDF: one diagram per puzzle, its task, room to write, and an answer key.

    Nothing is written unless every puzzle loads and every answer replays on the engine.

    \b
    Example:
      agnes-teach sheet puzzles --mix tableau.empty=2,stock.deal=2 --lang ru \\
        --out review.pdf
    """
    from ..render.sheet import build_sheet, parse_mix

    wanted = parse_mix(mix) if mix is not None else None
    check_out(out, parents)
    with _progress("sheet", None) as step:
        written = build_sheet(paths, lang, out, paper=paper, answers=answers, progress=step, mix=wanted)
    _report(written, as_json)


@app.command("guide")
@input_errors
def guide_command(
    out: Annotated[Path, typer.Option("--out", help="The folder to write the site into.")],
    lang: LanguagesOption = "en,ru,es",
    profile: ProfileOption = DEFAULT_PROFILE,
    puzzles: Annotated[
        list[str] | None,
        typer.Option("--puzzles", help="Scenario files or folders for the practice pages (default: the demo "
                     "set, puzzles/demo, and the playable worked example "
                     "agnes_teach/data/examples/section-08.yaml). "
                     "Give --no-practice to leave the practice pages out."),
    ] = None,
    no_practice: Annotated[bool, typer.Option("--no-practice", help="Write no practice pages.")] = False,
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Build the offline HTML rules guide and FAQ: one page per language, with a language switcher.

    Every worked example is replayed on the engine while the guide is built. Practice pages
    (practice-LANG.html) let a learner play puzzles in the browser, offline; the engine and the
    solver work out every answer at build time.

    \b
    Example:
      agnes-teach guide --lang ru,es,en --out build/guide --puzzles puzzles/demo
    """
    from ..render.guide import build_guide
    from ..scenario import load_puzzles

    langs = language_list(lang)
    prof = get_profile(profile)
    check_out(out, parents)
    scenarios = [] if no_practice else load_puzzles(puzzles or _practice_puzzles())
    with _progress("guide", len(langs)) as step:
        written = build_guide(langs, out, prof, progress=step, puzzles=scenarios)
    _report(written, as_json)


DEMO_PUZZLES = "puzzles/demo"


def _demo_puzzles() -> Path:
    """The fixed demo puzzle set of the repository (the README's Quick start runs from its root)."""
    here = Path(DEMO_PUZZLES)
    if here.is_dir():
        return here
    # Fall back to the copy beside the package in a source checkout.
    repo = Path(str(resources.files("agnes_teach"))).parent / DEMO_PUZZLES
    if repo.is_dir():
        return repo
    raise InputError(f"no demo puzzles: run this from the repository root (looked for {DEMO_PUZZLES}/)")


# The demo's puzzles come from real deals, whose game graphs are far too large to embed; the
# hand-made worked example of the rules reference keeps one puzzle playable on the practice pages.
# It is an illustration, not a puzzle that teaches (criteria 1-2), so it ships with the package's
# examples rather than in puzzles/.
PLAYABLE_EXAMPLE = "data/examples/section-08.yaml"


def _practice_puzzles() -> list[str]:
    """The default practice set: the demo puzzles and the playable worked example."""
    demo = _demo_puzzles()
    example = Path(str(resources.files("agnes_teach"))) / PLAYABLE_EXAMPLE
    return [str(demo)] + ([str(example)] if example.is_file() else [])


@app.command("demo")
@input_errors
def demo_command(
    out: Annotated[Path, typer.Option("--out", help="The folder to write into.")] = Path("build"),
    lang: LanguagesOption = "en,ru,es",
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Build the demo: worksheet PDFs from the fixed demo puzzles (one per --lang) and the guide.

    Run it from the repository root, which holds puzzles/demo/.

    \b
    Example:
      agnes-teach demo --out build
    """
    from ..render.guide import build_guide
    from ..render.sheet import build_sheet
    from ..scenario import load_puzzles

    langs = language_list(lang)
    check_out(out, parents)
    puzzles = _demo_puzzles()
    written: list[Path] = []
    with _progress("demo", None) as step:
        for code in langs:
            written += build_sheet([str(puzzles)], code, out / f"worksheet-{code}.pdf", progress=step)
        written += build_guide(["ru", "es", "en"], out / "guide", get_profile(DEFAULT_PROFILE), progress=step,
                               puzzles=load_puzzles(_practice_puzzles()))
    _report(written, as_json)
