"""Options shared by the commands, so that one option name means one thing everywhere.

The conventions (docs/commands.md, "Command-line conventions"): a closed set is a choice
(shell completion offers it, a typo is refused with the list); ``--profile``,
``--lang``, ``--budget``, ``--json``, ``--out`` and ``--parents`` are declared
here once; a deal is named by ``N`` (the ``deal`` argument), ``--deal N`` or
``--pysolfc GAME`` wherever a command also takes a FILE.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .. import i18n
from ..deal import MAX_SEED, deal
from ..errors import InputError, Problem
from ..limits import budget_seconds
from ..position import Position
from ..profile import DEFAULT_PROFILE, get_profile, profile_ids
from ..registry import Difficulty, RuleId, is_rule_id
from ..scenario import load_scenario

if TYPE_CHECKING:
    # At run time this is an enum built from the shipped catalogues; its members are strs.
    Language = str
else:
    Language = StrEnum("Language", [(lang, lang) for lang in i18n.languages()])

# A profile is a shipped id (completed by the shell) or the path to a profile file (house
# rules: `extends: sorel` plus overrides); both are checked when the option is read.
ProfileName = str


def _profile_value(value: str | None) -> str | None:
    if value is None:
        return None
    if value not in profile_ids() and not value.endswith((".yaml", ".yml")) and not Path(value).is_file():
        known = ", ".join(repr(p) for p in profile_ids())
        raise typer.BadParameter(f"{value!r} is not one of {known}, nor a profile file.")
    try:
        get_profile(value)
    except InputError as exc:
        raise typer.BadParameter(str(exc)) from None
    return value


def complete_profile(incomplete: str) -> list[str]:
    return [p for p in profile_ids() if p.startswith(incomplete)]


ProfileOption = Annotated[
    ProfileName, typer.Option("--profile", "-p", callback=_profile_value, autocompletion=complete_profile,
                              help="Variant profile: a shipped one (agnes_teach/profiles/) or the path "
                              "to a profile file (e.g. one with extends: sorel).")
]
# For commands where the default depends on another option (--pysolfc deals reserve-last-deal).
OptionalProfileOption = Annotated[
    ProfileName | None,
    typer.Option("--profile", "-p", callback=_profile_value, autocompletion=complete_profile,
                 help="Variant profile or profile file (default bernauer; reserve-last-deal with "
                 "--pysolfc)."),
]
LangOption = Annotated[Language, typer.Option("--lang", "-l", help="Language of the output.")]
JsonOption = Annotated[bool, typer.Option("--json", help="One JSON object on stdout instead of text.")]
ParentsOption = Annotated[
    bool, typer.Option("--parents", help="Create the folders that --out lies in when they do not exist.")
]
DealOption = Annotated[
    int | None, typer.Option("--deal", metavar="N", help="The starting position of deal number N.")
]
PySolFCOption = Annotated[
    str | None,
    typer.Option("--pysolfc", metavar="GAME",
                 help="The starting position of PySolFC's Agnes Bernauer game number GAME."),
]
PositionFileArgument = Annotated[
    Path | None,
    typer.Argument(metavar="FILE", help="A position file, or a scenario file with position:."),
]


def language_list(text: str) -> list[str]:
    """``ru,es,en`` -> the languages in order, each checked; InputError otherwise."""
    langs = [part.strip() for part in text.split(",") if part.strip()]
    if not langs:
        raise InputError("--lang needs at least one language")
    for lang in langs:
        i18n.check_lang(lang)
    return list(dict.fromkeys(langs))


def complete_comma_list(incomplete: str, choices: list[str]) -> list[str]:
    """Shell completion for a comma list: the next choice after the ones typed."""
    head, _, last = incomplete.rpartition(",")
    prefix = head + "," if head else ""
    taken = set(head.split(",")) if head else set()
    return [prefix + c for c in choices if c.startswith(last) and c not in taken]


def complete_languages(incomplete: str) -> list[str]:
    """Shell completion for a comma-separated --lang: the next language after the ones typed."""
    return complete_comma_list(incomplete, i18n.languages())


LanguagesOption = Annotated[
    str,
    typer.Option("--lang", "-l", metavar="LANG[,LANG...]", autocompletion=complete_languages,
                 help="Languages, comma-separated, from: " + ", ".join(i18n.languages()) + "."),
]


def check_budget(budget: float) -> float:
    """A finite budget above 0 and at most a day (agnes_teach.limits)."""
    return budget_seconds(budget)


def check_out(out: Path, parents: bool) -> None:
    """``--out`` into a folder that does not exist is bad input unless ``--parents`` is given.

    The folders are created by the writer, when the run has succeeded, so a failed
    run leaves nothing behind.
    """
    folder = out.absolute().parent
    if folder.is_dir():
        return
    if folder.exists() or any(p.exists() and not p.is_dir() for p in folder.parents):
        raise InputError(Problem(f"cannot write into {folder}: it is not a folder", str(out)))
    if not parents:
        raise InputError(Problem(f"the folder {out.parent} does not exist: create it, or give --parents",
                                 str(out)))


def chosen_position(
    file: Path | None, deal_number: int | None, pysolfc: str | None, profile: str | None,
    *, deal_argument: bool = False,
) -> Position:
    """The position a command works on: from FILE, ``--deal N`` or ``--pysolfc GAME`` (exactly one).

    `deal_argument`: the command (``deal``) takes no FILE and the deal number as its argument N, so
    the message names those."""
    sources = ((("N", deal_number), ("--pysolfc", pysolfc)) if deal_argument
               else (("FILE", file), ("--deal", deal_number), ("--pysolfc", pysolfc)))
    given = [name for name, value in sources if value is not None]
    if len(given) != 1:
        said = " and ".join(given) if given else "none of them"
        choices = ("a deal number N or --pysolfc GAME" if deal_argument
                   else "a position FILE, --deal N or --pysolfc GAME")
        raise InputError(f"give exactly one of {choices} (got {said})")
    if deal_number is not None:
        if not 0 <= deal_number <= MAX_SEED:
            raise InputError(f"deal number {deal_number} is out of range (0 to {MAX_SEED})")
        return deal(deal_number, get_profile(profile or DEFAULT_PROFILE))
    if pysolfc is not None:
        from ..pysolfc import PYSOLFC_PROFILE, pysolfc_deal

        return pysolfc_deal(pysolfc, get_profile(profile or PYSOLFC_PROFILE))
    assert file is not None
    position = load_scenario(file).position
    if profile is not None and profile != position.profile.id:
        raise InputError(Problem(f"--profile {profile} is for --deal and --pysolfc; this file's "
                                 f"position is a {position.profile.id} position", str(file)))
    return position


# The sheet's choosing options: text on the command line to the registry's ids and ratings.


def _listed(values: Sequence[str]) -> list[str]:
    """Repeated options and comma lists alike: ``["a,b", "c"]`` is a, b, c."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def parse_themes(values: Sequence[str]) -> tuple[RuleId, ...]:
    """``--theme`` values as rule ids, in the order given; InputError naming a bad one."""
    themes: list[RuleId] = []
    for name in _listed(values):
        if not is_rule_id(name):
            raise InputError(f"--theme: {name!r} is not a rule id (one of: {', '.join(RuleId)})")
        if RuleId(name) not in themes:
            themes.append(RuleId(name))
    return tuple(themes)


def parse_difficulties(values: Sequence[str]) -> frozenset[Difficulty]:
    """``--difficulty`` values as ratings; InputError naming a bad one."""
    known = {d.value: d for d in Difficulty}
    out: set[Difficulty] = set()
    for name in _listed(values):
        if name not in known:
            raise InputError(f"--difficulty: {name!r} is not a rating (one of: {', '.join(known)})")
        out.add(known[name])
    return frozenset(out)


def parse_mix(text: str) -> dict[RuleId, int]:
    """``THEME=N,...`` as a mapping; InputError naming the bad part."""
    out: dict[RuleId, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        theme, _, count = part.partition("=")
        if not is_rule_id(theme.strip()) or not count.strip().isdigit() or int(count) < 1:
            raise InputError(f"--mix: {part!r} is not THEME=N with a rule id and a count of 1 or more "
                             "(e.g. --mix tableau.empty=2,stock.deal=1)")
        out[RuleId(theme.strip())] = int(count)
    if not out:
        raise InputError("--mix needs at least one THEME=N")
    return out
