"""``agnes-teach sheet``, ``guide`` and ``demo``: the documents people read."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from ..errors import InputError
from ..profile import DEFAULT_PROFILE, get_profile
from ..registry import Difficulty, RuleId
from .errors import input_errors
from .options import (
    JsonOption,
    LangOption,
    LanguagesOption,
    ParentsOption,
    ProfileOption,
    check_out,
    complete_comma_list,
    complete_profile,
    language_list,
    parse_difficulties,
    parse_mix,
    parse_themes,
)

if TYPE_CHECKING:
    from ..puzzle_library import Selection

app = typer.Typer()  # joined, without a name, into the root app of agnes_teach.cli


@contextmanager
def _progress(label: str, total: int | None, quiet: bool = False) -> Iterator[Callable[[str], None]]:
    """A progress bar on stderr when it is a terminal (and not `quiet`); otherwise silent."""
    if quiet or not sys.stderr.isatty():
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


def _complete_themes(incomplete: str) -> list[str]:
    from ..themes import theme_ids  # the themes the library has puzzles for

    return complete_comma_list(incomplete, theme_ids())


def _complete_difficulties(incomplete: str) -> list[str]:
    return complete_comma_list(incomplete, [d.value for d in Difficulty])


# The sheet command's choosing options, named here so its signature stays readable.
SheetPaths = Annotated[
    list[str] | None,
    typer.Argument(metavar="PATHS", help="Scenario files, or folders to search for *.yaml (default: "
                   "the installed puzzle library, with --theme or --mix)."),
]
ThemesOption = Annotated[
    list[str] | None,
    typer.Option("--theme", metavar="RULE[,RULE...]", autocompletion=_complete_themes,
                 help="Print the puzzles on this rule id, easy to hard under the rule's heading "
                 "(repeat it or give a comma list: one section each). Without PATHS they come from "
                 "the puzzle library; with PATHS, from those files."),
]
CountOption = Annotated[
    int | None,
    typer.Option("--count", metavar="N", min=1,
                 help="With --theme: this many puzzles of each theme, spread from the easiest to "
                 "the hardest (default: all of them)."),
]
DifficultiesOption = Annotated[
    list[str] | None,
    typer.Option("--difficulty", metavar="LEVEL[,LEVEL...]", autocompletion=_complete_difficulties,
                 help="Only puzzles rated so: " + ", ".join(Difficulty)
                 + " (repeat it or give a comma list)."),
]
MixOption = Annotated[
    str | None,
    typer.Option("--mix", metavar="THEME=N[,THEME=N...]",
                 help="A review sheet across rules: THEME=N,... takes the N easiest puzzles of each "
                 "theme (from PATHS, or the puzzle library without them), in one section with no rule "
                 "headings."),
]
SeedOption = Annotated[
    int | None,
    typer.Option("--seed", metavar="S", min=0,
                 help="With --theme and --count: draw each theme's puzzles at random, a different set for "
                 "each S and the same for the same S, no puzzle twice (default: spread from the easiest "
                 "to the hardest)."),
]
SheetProfileOption = Annotated[
    str | None,
    typer.Option("--profile", "-p", metavar="PROFILE", autocompletion=complete_profile,
                 help="Only puzzles of this game (a shipped profile id, e.g. agnes-ru or sorel-strict); "
                 "without PATHS they come from its folder of the puzzle library (default: the "
                 "Agnes Bernauer puzzles; with PATHS, the files' puzzles whatever their game)."),
]
AnswersOption = Annotated[
    Literal["appendix", "none", "separate"],
    typer.Option("--answers", help="Answer key: appendix (on its own pages at the end), none, or separate "
                 "(a second file, NAME-answers.pdf)."),
]


@app.command("sheet")
@input_errors
def sheet_command(
    out: Annotated[Path, typer.Option("--out", help="The PDF file to write.")],
    paths: SheetPaths = None,
    theme: ThemesOption = None,
    count: CountOption = None,
    seed: SeedOption = None,
    difficulty: DifficultiesOption = None,
    lang: LangOption = "en",
    paper: Annotated[Literal["a4", "letter"], typer.Option("--paper", help="Paper size.")] = "a4",
    answers: AnswersOption = "appendix",
    mix: MixOption = None,
    profile: SheetProfileOption = None,
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Print a worksheet PDF: one diagram per puzzle, its task, room to write, and an answer key.

    Nothing is written unless every puzzle loads and every answer replays on the engine. A puzzle
    found twice (a copy, or the same position) is printed once; stderr says which file was left out.

    \b
    Examples:
      agnes-teach sheet --theme tableau.empty --count 6 --lang ru \\
        --out empty-column.pdf
      agnes-teach sheet --theme tableau.empty --count 6 --seed 2 \\
        --out week-2.pdf
      agnes-teach sheet puzzles --mix tableau.empty=2,stock.deal=2 --lang ru \\
        --out review.pdf
      agnes-teach sheet --theme foundation.return --profile agnes-ru --count 6 \\
        --lang ru --out return.pdf
    """
    from ..puzzle_library import Selection
    from ..render.sheet import build_sheet

    selection = Selection(parse_themes(theme or []), parse_difficulties(difficulty or []), count, seed,
                          None if profile is None else get_profile(profile).id)
    _check_selection(bool(paths), selection, mix)
    wanted = parse_mix(mix) if mix is not None else None
    check_out(out, parents)
    with _progress("sheet", None) as step:
        written = build_sheet(paths or [], lang, out, paper=paper, answers=answers, progress=step, mix=wanted,
                              selection=selection, note=_note)
    _report(written, as_json)


def _check_selection(has_paths: bool, selection: Selection, mix: str | None) -> None:
    """Options that do not go together, or a sheet with nothing to draw from."""
    if mix is not None and selection.themes:
        raise InputError("give --theme or --mix, not both (--mix THEME=N already names the themes)")
    if selection.count is not None and not selection.themes:
        raise InputError("--count needs --theme (with --mix, THEME=N gives each theme's count)")
    if selection.seed is not None and selection.count is None:
        raise InputError("--seed needs --theme and --count (it draws COUNT puzzles of each theme)")
    if not (has_paths or selection.themes or mix is not None):
        raise InputError("give scenario FILES, --theme T or --mix THEME=N,... "
                         "(e.g. agnes-teach sheet --theme tableau.empty --out sheet.pdf)")


def _note(text: str) -> None:
    print(f"agnes-teach: note: {text}", file=sys.stderr)


@app.command("guide")
@input_errors
def guide_command(
    out: Annotated[Path, typer.Option("--out", help="The folder to write the site into.")],
    lang: LanguagesOption = "en,ru,es",
    profile: ProfileOption = DEFAULT_PROFILE,
    puzzles: Annotated[
        list[str] | None,
        typer.Option("--puzzles", help="Scenario files or folders for the practice pages (default: the "
                     "library's demo set, puzzles/demo, and the playable worked example "
                     "agnes_teach/data/examples/section-08.yaml; for another --profile, that game's "
                     "puzzles of the library, e.g. puzzles/agnes-ru). "
                     "Give --no-practice to leave the practice pages out."),
    ] = None,
    no_practice: Annotated[bool, typer.Option("--no-practice", help="Write no practice pages.")] = False,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Processes that analyse the "
                                                 "practice puzzles (default: one per core); the pages are "
                                                 "the same whatever the number.")] = None,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", help="The folder that keeps each puzzle's analysis for the next build (default: "
        "$AGNES_TEACH_CACHE, else the user's cache folder, ~/.cache/agnes-teach); a puzzle analysed "
        "before by the same version is read back, not analysed again.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Analyse every puzzle afresh and keep "
                                            "nothing.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress on stderr.")] = False,
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Build the offline HTML rules guide and FAQ: one page per language, with a language switcher.

    Every worked example is replayed on the engine while the guide is built. Practice pages
    (practice-LANG.html) let a learner play puzzles in the browser, offline; the engine and the
    solver work out every answer at build time. A section per rule; when the puzzles do not fit
    on one page, a page per rule and practice-LANG.html their contents. On a terminal, stderr
    shows each puzzle as it is analysed (--quiet: nothing).

    \b
    Example:
      agnes-teach guide --lang ru,es,en --out build/guide --puzzles puzzles/demo
    """
    from ..practice_cache import AnalysisCache, default_folder
    from ..render.guide import build_guide, practice_set
    from ..scenario import load_puzzles

    langs = language_list(lang)
    prof = get_profile(profile)
    check_out(out, parents)
    scenarios = [] if no_practice else load_puzzles(puzzles or _practice_puzzles(prof.id))
    if not puzzles and prof.id != DEFAULT_PROFILE:
        # The game's folder may hold a stricter variant's puzzles too: only this game's are played.
        scenarios = [sc for sc in scenarios if sc.position.profile.id == prof.id]
        if not scenarios and not no_practice:
            _note(f"the puzzle library has no puzzle of the profile {prof.id}: the guide has no "
                  "practice pages")
    if cache_dir is not None and cache_dir.exists() and not cache_dir.is_dir():
        raise InputError(f"{cache_dir}: is a file; --cache-dir needs a folder (or give --no-cache)")
    cache = None if no_cache else AnalysisCache(cache_dir or default_folder())
    with _progress("guide", len(langs) + len(practice_set(scenarios)), quiet) as step:
        written = build_guide(langs, out, prof, progress=step, puzzles=scenarios, note=_note, workers=workers,
                              cache=cache)
    _report(written, as_json)


def _demo_puzzles() -> Path:
    """The fixed demo puzzle set, from the installed library (found from any folder)."""
    from ..puzzle_library import library_folder

    return library_folder("demo")


# The demo's puzzles come from real deals, whose game graphs are far too large to embed; the
# hand-made worked example of the rules reference keeps one puzzle playable on the practice pages.
# It is an illustration, not a puzzle that teaches (criteria 1-2), so it ships with the package's
# examples rather than in puzzles/.
PLAYABLE_EXAMPLE = "data/examples/section-08.yaml"


def _practice_puzzles(profile: str = DEFAULT_PROFILE) -> list[str]:
    """The default practice set: the demo puzzles and the playable worked example; for another
    game, its folder of the puzzle library."""
    from ..puzzle_library import library_folder, library_part

    if profile != DEFAULT_PROFILE:
        folder = library_folder(library_part(profile))
        return [str(folder)] if folder.is_dir() else []
    demo = _demo_puzzles()
    example = Path(str(resources.files("agnes_teach"))) / PLAYABLE_EXAMPLE
    return [str(demo)] + ([str(example)] if example.is_file() else [])


# The demo's teacher's sheet: the library's puzzles on one rule, easy to hard under its heading,
# drawn as `sheet --theme tableau.empty --count 6` draws them.
DEMO_THEME = RuleId.TABLEAU_EMPTY
DEMO_COUNT = 6


def teacher_sheet_name(theme: RuleId, lang: str) -> str:
    return f"teacher-sheet-{theme.replace('.', '-')}-{lang}.pdf"


@app.command("demo")
@input_errors
def demo_command(
    out: Annotated[Path, typer.Option("--out", help="The folder to write into.")] = Path("build"),
    lang: LanguagesOption = "en,ru,es",
    as_json: JsonOption = False,
    parents: ParentsOption = False,
) -> None:
    """Build the demo: a teacher's sheet from the puzzle library, worksheets of the fixed demo
    puzzles (one per --lang) and the guide.

    The teacher's sheet (teacher-sheet-tableau-empty-LANG.pdf, in the first --lang) holds six
    puzzles of the library on the empty-column rule, easy to hard, as `sheet --theme` prints them.

    \b
    Example:
      agnes-teach demo --out build
    """
    from ..practice_cache import AnalysisCache, default_folder
    from ..puzzle_library import Selection
    from ..render.guide import build_guide
    from ..render.sheet import build_sheet
    from ..scenario import load_puzzles

    langs = language_list(lang)
    check_out(out, parents)
    puzzles = _demo_puzzles()
    teacher = Selection(themes=(DEMO_THEME,), count=DEMO_COUNT)
    written: list[Path] = []
    with _progress("demo", None) as step:
        written += build_sheet([], langs[0], out / teacher_sheet_name(DEMO_THEME, langs[0]), progress=step,
                               selection=teacher, note=_note)
        for code in langs:
            written += build_sheet([str(puzzles)], code, out / f"worksheet-{code}.pdf", progress=step)
        written += build_guide(langs, out / "guide", get_profile(DEFAULT_PROFILE), progress=step,
                               puzzles=load_puzzles(_practice_puzzles()),
                               cache=AnalysisCache(default_folder()))
    _report(written, as_json)
