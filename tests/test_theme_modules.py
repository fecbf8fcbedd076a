"""The agreed theme shape (issue 29), held against the code.

Each theme is one module under ``agnes_teach/themes/`` defining ``THEME``; the machinery (tagger,
generator, renderers, command line, classroom, checker) reaches a theme only through the registry
and never names one: no taught rule's ``RuleId`` member as a dispatch key (a mapping's key, an
operand of ``==``/``!=``/``in``, an index), no import of a theme module, no function or class named
after a theme. ``find_theme_names`` reads the syntax tree only, so it can be pointed at any checkout.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
import test_theme_agreement as agreement

import agnes_teach.themes as registry
from agnes_teach.errors import InputError
from agnes_teach.profile import profile_ids
from agnes_teach.registry import RuleId, Task
from agnes_teach.themes import Theme, all_themes, find_theme, theme_for, theme_ids

ROOT = Path(__file__).resolve().parent.parent
MACHINERY = ("tagger", "generator", "render", "cli", "classroom", "checker.py")


def _member(rule: str) -> str:
    return RuleId(rule).name


def taught_rules() -> set[str]:
    return set(theme_ids())


def _machinery_files(root: Path) -> list[Path]:
    package = root / "agnes_teach"
    out: list[Path] = []
    for part in MACHINERY:
        where = package / part
        out.extend(sorted(where.rglob("*.py")) if where.is_dir() else [where] if where.exists() else [])
    return out


def _names_a_taught_rule(node: ast.AST, members: set[str]) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in members \
        and isinstance(node.value, ast.Name) and node.value.id == "RuleId"


def _imports_a_theme_module(node: ast.AST, path: Path, root: Path) -> str | None:
    """The theme module a node imports (``agnes_teach.themes.<name>``, a file of that checkout's
    themes package), if it imports one."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            package = path.relative_to(root).with_suffix("").parts[:-1]
            base = list(package[: len(package) - node.level + 1])
        else:
            base = []
        module = ".".join([*base, *([node.module] if node.module else [])])
        names = [module, *(f"{module}.{alias.name}" for alias in node.names)]
    for name in names:
        parts = name.split(".")
        if parts[:2] == ["agnes_teach", "themes"] and len(parts) > 2 and parts[2][:1] != "_" \
                and (root / "agnes_teach" / "themes" / f"{parts[2]}.py").exists():
            return name
    return None


def find_theme_names(root: Path, rules: set[str]) -> list[str]:
    """Every place a machinery module of the checkout at `root` names a theme of `rules`."""
    members = {_member(r) for r in rules}
    module_names = {r.replace(".", "_").replace("-", "_") for r in rules}
    found: list[str] = []
    for path in _machinery_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(root)
        for node in ast.walk(tree):
            keys: list[ast.AST] = []
            if isinstance(node, ast.Dict):
                keys = [k for k in node.keys if k is not None]
            elif isinstance(node, ast.Compare):
                keys = [node.left, *node.comparators]
            elif isinstance(node, ast.Subscript):
                keys = [node.slice]
            found += [f"{where}:{k.lineno} RuleId.{k.attr} as a key"  # type: ignore[attr-defined]
                      for k in keys if _names_a_taught_rule(k, members)]
            imported = _imports_a_theme_module(node, path, root)
            if imported is not None:
                found.append(f"{where}:{node.lineno} imports {imported}")  # type: ignore[attr-defined]
            if isinstance(node, ast.FunctionDef | ast.ClassDef) \
                    and any(name in node.name for name in module_names):
                found.append(f"{where}:{node.lineno} defines {node.name}")
    return found


def test_no_machinery_module_names_a_theme() -> None:
    assert find_theme_names(ROOT, taught_rules()) == []


def test_the_check_finds_each_way_of_naming_a_theme(tmp_path: Path) -> None:
    """The check can fail: a small checkout with each fault (as main had them before issue 29)."""
    tagger = tmp_path / "agnes_teach" / "tagger"
    tagger.mkdir(parents=True)
    (tmp_path / "agnes_teach" / "themes").mkdir()
    for name in ("__init__", "tableau_empty", "stock_deal"):
        (tmp_path / "agnes_teach" / "themes" / f"{name}.py").write_text("", encoding="utf-8")
    (tagger / "tables.py").write_text(
        "from ..themes import tableau_empty\n"
        "from ..themes import theme_for\n"
        "LESSON = {RuleId.TABLEAU_EMPTY: 1}\n"
        "def detect_tableau_empty(lesson): return lesson\n"
        "def pick(theme): return theme != RuleId.FOUNDATION_START or FIRST[RuleId.STOCK_DEAL]\n"
        "def cite(pos): return refused(pos, RuleId.RESERVE_TOP)\n", encoding="utf-8")
    (tmp_path / "agnes_teach" / "checker.py").write_text(
        "import agnes_teach.themes.stock_deal\n", encoding="utf-8")
    found = find_theme_names(tmp_path, {"tableau.empty", "foundation.start", "stock.deal", "reserve.top"})
    assert sorted(f.split(" ", 1)[1] for f in found) == [
        "RuleId.FOUNDATION_START as a key",
        "RuleId.STOCK_DEAL as a key",
        "RuleId.TABLEAU_EMPTY as a key",
        "defines detect_tableau_empty",
        "imports agnes_teach.themes.stock_deal",
        "imports agnes_teach.themes.tableau_empty",
    ]  # and neither the registry's import nor a rule id passed as an argument


def test_every_theme_module_defines_its_theme() -> None:
    modules = [info.name for info in pkgutil.iter_modules(registry.__path__)]
    assert len(modules) == len(all_themes())
    for name in modules:
        module = importlib.import_module(f"agnes_teach.themes.{name}")
        assert isinstance(module.THEME, Theme), name
        assert module.THEME in all_themes(), name


def test_each_rule_is_taught_once_per_profile() -> None:
    pairs = [(t.id, p) for t in all_themes() for p in t.profiles]
    assert len(pairs) == len(set(pairs))
    assert all(p in profile_ids() for _, p in pairs)
    for theme in all_themes():
        for profile in theme.profiles:
            assert theme_for(theme.id, profile) is theme


def test_an_unknown_pair_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no theme teaches"):
        theme_for("stock.no-redeal", "bernauer")
    assert find_theme("stock.no-redeal", "bernauer") is None
    assert find_theme(None, "bernauer") is None


def test_every_theme_is_whole() -> None:
    for theme in all_themes():
        assert theme.tasks and all(isinstance(t, Task) for t in theme.tasks), theme.id
        assert isinstance(theme.rule, RuleId) and theme.profiles, theme.id
        assert theme.believer.kind in ("forbid", "force", "add", "widen") and theme.believer.belief, theme.id
        assert (theme.lesson_move is None) == (theme.believer.kind == "force"), theme.id
        assert all(callable(f) for f in (theme.detect, theme.tempting, theme.explain)), theme.id
        assert theme.build is None or callable(theme.build), theme.id
        assert theme.how and "\n" not in theme.how, theme.id
        assert theme.first_move >= 0, theme.id


def test_the_agreement_test_runs_over_the_registry() -> None:
    covered = {*agreement.FORBIDDING, *agreement.FORCING, *agreement.ADDING, *agreement.WIDENING}
    assert covered == set(all_themes())
