"""The layers of docs/design.md, held against the code (measured by bench/shape.py from the syntax tree)."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from agnes_teach.registry import Difficulty, Task, Verdict

ROOT = Path(__file__).resolve().parent.parent


def _shape() -> ModuleType:
    spec = importlib.util.spec_from_file_location("shape", ROOT / "bench" / "shape.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["shape"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


shape = _shape()
MODULES = shape.read_modules(ROOT)


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        shape.layer_of(name)  # raises KeyError naming the module


def test_no_import_circle_not_even_for_types() -> None:
    assert shape.circles(MODULES) == []


def test_no_import_points_up_a_layer() -> None:
    assert shape.arrows_up(MODULES) == []


def test_analysis_never_imports_render() -> None:
    assert shape.analysis_into_render(MODULES) == []


def test_no_private_name_crosses_a_package() -> None:
    assert [(m.name, t, n) for m in MODULES.values() for t, n, _ in m.private_imports] == []


def test_only_the_graph_module_and_the_tagger_walk_game_graphs() -> None:
    walkers = shape.explorers(MODULES)
    assert walkers, "the measure found no walker at all: it no longer sees graph.explore"
    assert all(w == "graph" or w.startswith("tagger.") for w in walkers), walkers


def test_the_measure_sees_a_walker_a_circle_and_an_arrow_up(tmp_path: Path) -> None:
    """The measures can fail: a small package with each fault is caught."""
    pkg = tmp_path / "agnes_teach"
    (pkg / "render").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "render" / "__init__.py").write_text("")
    (pkg / "render" / "draw.py").write_text("def _helper(): pass\n")
    (pkg / "cards.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .moves import Move\n")
    (pkg / "moves.py").write_text("from .cards import Card\n")
    (pkg / "hint.py").write_text(
        "from .render.draw import _helper\n"
        "def walk(start):\n"
        "    seen, todo = {start}, [start]\n"
        "    while todo:\n"
        "        here = todo.pop()\n"
        "        for move in legal_moves(here):\n"
        "            after = apply_unchecked(here, move)\n"
        "            if after not in seen:\n"
        "                seen.add(after)\n")
    modules = shape.read_modules(tmp_path)
    assert shape.circles(modules) == [["cards", "moves"]]
    assert ("hint", "render.draw") in shape.arrows_up(modules)
    assert shape.analysis_into_render(modules) == [("hint", "render.draw")]
    assert modules["hint"].private_imports == [("render.draw", "_helper", 1)]
    assert shape.explorers(modules) == ["hint"]


VOCABULARY = {member.value: type(member).__name__ for enum in (Task, Difficulty, Verdict) for member in enum}


def test_tasks_difficulties_and_verdicts_are_named_by_their_enum() -> None:
    """A string literal equal to a task, a rating or a verdict outside registry.py is the vocabulary defined
    again; name the enum member (``Task.KEY_MOVE``, ``Verdict.LOST``) instead."""
    found = []
    for path in sorted((ROOT / "agnes_teach").rglob("*.py")):
        if path.name == "registry.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_fstring = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                      for part in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in VOCABULARY and id(node) not in in_fstring:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r} "
                             f"({VOCABULARY[node.value]})")
    assert not found, found


def test_long_functions_are_the_ones_design_md_justifies() -> None:
    """Every function over 60 lines is listed, with its reason, in docs/design.md, and every listed one
    is still that long (a split function leaves the list)."""
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = text.split("## Long functions", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([\w.]+)` \|", section, re.M))
    long = {name for _, name in shape.long_functions(MODULES)}
    assert long == listed, {"not listed": sorted(long - listed), "no longer long": sorted(listed - long)}


def test_a_module_constant_has_one_name_one_value_one_place() -> None:
    """A top-level constant (``NAME = ...``) is defined in one module only: two meanings get two names,
    and a shared bound lives in ``limits.py``. ``THEME`` is the exception by design: each theme
    module's one value (docs/design.md, "One module per theme")."""
    where: dict[str, list[str]] = {}
    for path in sorted((ROOT / "agnes_teach").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and re.fullmatch(r"[A-Z][A-Z0-9_]*", target.id):
                        where.setdefault(target.id, []).append(str(path.relative_to(ROOT)))
    twice = {name: paths for name, paths in where.items() if len(paths) > 1 and name != "THEME"}
    assert not twice, twice
