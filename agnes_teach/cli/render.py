"""``agnes-teach sheet``, ``guide`` and ``demo``: the documents people read."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from .. import i18n
from ..errors import InputError
from ..profile import DEFAULT_PROFILE, get_profile
from . import app, input_errors


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


def _languages(text: str) -> list[str]:
    langs = [part.strip() for part in text.split(",") if part.strip()]
    if not langs:
        raise InputError("--lang needs at least one language")
    for lang in langs:
        i18n.check_lang(lang)
    return list(dict.fromkeys(langs))


@app.command("sheet")
@input_errors
def sheet_command(
    paths: Annotated[list[str], typer.Argument(help="Scenario files, or folders to search for *.yaml.")],
    out: Annotated[Path, typer.Option("--out", help="The PDF file to write.")],
    lang: Annotated[str, typer.Option("--lang", help="Language of the worksheet (en, ru, es).")] = "en",
    paper: Annotated[str, typer.Option("--paper", help="Paper size: a4 or letter.")] = "a4",
    answers: Annotated[
        str,
        typer.Option(
            "--answers",
            help="Answer key: appendix (on its own pages at the end), none, or separate "
            "(a second file, NAME-answers.pdf).",
        ),
    ] = "appendix",
) -> None:
    """Print a worksheet PDF: one diagram per puzzle, its task, room to write, and an answer key.

    Nothing is written unless every puzzle loads and every answer replays on the engine.
    """
    from ..render.sheet import build_sheet

    i18n.check_lang(lang)
    with _progress("sheet", None) as step:
        written = build_sheet(paths, lang, out, paper=paper.lower(), answers=answers.lower(), progress=step)
    for path in written:
        print(path)


@app.command("guide")
@input_errors
def guide_command(
    out: Annotated[Path, typer.Option("--out", help="The folder to write the site into.")],
    lang: Annotated[str, typer.Option("--lang", help="Languages, comma-separated: ru,es,en.")] = "en,ru,es",
    profile: Annotated[
        str, typer.Option("--profile", help="The variant whose rules the guide states.")
    ] = DEFAULT_PROFILE,
) -> None:
    """Build the offline HTML rules guide and FAQ: one page per language, with a language switcher.

    Every worked example is replayed on the engine while the guide is built.
    """
    from ..render.guide import build_guide

    langs = _languages(lang)
    prof = get_profile(profile)
    with _progress("guide", len(langs)) as step:
        written = build_guide(langs, out, prof, progress=step)
    for path in written:
        print(path)


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


@app.command("demo")
@input_errors
def demo_command(
    out: Annotated[Path, typer.Option("--out", help="The folder to write into.")] = Path("build"),
    lang: Annotated[str, typer.Option("--lang", help="Worksheet languages, comma-separated.")] = "en,ru,es",
) -> None:
    """Build the demo: worksheet PDFs from the fixed demo puzzles and the guide for ru, es and en."""
    from ..render.guide import build_guide
    from ..render.sheet import build_sheet

    langs = _languages(lang)
    puzzles = _demo_puzzles()
    written: list[Path] = []
    with _progress("demo", None) as step:
        for code in langs:
            written += build_sheet([str(puzzles)], code, out / f"worksheet-{code}.pdf", progress=step)
        written += build_guide(["ru", "es", "en"], out / "guide", get_profile(DEFAULT_PROFILE), progress=step)
    for path in written:
        print(path)
