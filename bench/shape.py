"""The code's shape, measured: modules, long functions, imports that point up a layer, import circles.

Run (from the repository root, or with --root for another checkout):
  .venv/bin/python bench/shape.py
  .venv/bin/python bench/shape.py --root ../other-checkout --json

Everything is read from the syntax tree, nothing is imported or run.  An import
counts wherever it stands: at the top, inside a function, or under
``if TYPE_CHECKING:`` (a circle closed by type-only imports is still a circle).
``from P import X`` counts as an arrow to the module ``P.X`` when that is a
module, else to ``P`` itself.  The layers are those of docs/design.md; an arrow
*up* is an import from a module to one of a higher layer.

``tests/test_design.py`` asserts on these measures, so the picture in
docs/design.md and the code cannot drift apart.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "agnes_teach"
LONG_FUNCTION = 60  # lines; a longer function should be split where a name says more

# Layers, lowest first: a module may import its own layer and the ones below.  A package name
# covers its modules; "P.*" covers only the modules inside P (not P's own __init__), and wins
# over "P".
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("errors", "registry", "cards", "piles", "yamlio", "stats", "outputs", "version")),
    ("data", ("shapes", "fields", "validation", "profile", "moves", "position", "keys", "scenario", "deal",
              "pysolfc", "deckfile", "limits", "winrates", "clock")),
    ("rules", ("board", "predicates", "engine")),
    # "themes" is the theme registry (the package's __init__), which the tagger and the checker ask
    ("analysis", ("i18n", "solver", "graph", "fairness", "hint", "themes", "tagger", "checker", "practice",
                  "practice_cache", "survey")),
    ("making", ("generator", "puzzle_library")),
    # one module per theme: each holds its builder (making) and its tagger parts (analysis); the
    # registry imports them by name at run time, so no module below imports one
    ("lessons", ("themes.*",)),
    ("drawing", ("render", "templates")),
    ("front", ("api", "cli", "classroom", "__main__", "")),  # "" is the package's own __init__
)
# What analyses positions: none of it may import drawing (render/).
ANALYSIS_LAYERS = ("base", "data", "rules", "analysis")


@dataclass
class Module:
    name: str  # dotted, without the package prefix ("" for agnes_teach/__init__)
    path: Path
    is_package: bool
    tree: ast.Module
    imports: set[str] = field(default_factory=set)
    private_imports: list[tuple[str, str, int]] = field(default_factory=list)  # (target, name, line)


def layer_of(name: str) -> str:
    head = name.split(".")[0]
    for layer, prefixes in LAYERS:
        if "." in name and f"{head}.*" in prefixes:
            return layer
    for layer, prefixes in LAYERS:
        if head in prefixes:
            return layer
    raise KeyError(f"{name}: in no layer of bench/shape.py (add it to LAYERS and docs/design.md)")


def layer_rank(name: str) -> int:
    return [layer for layer, _ in LAYERS].index(layer_of(name))


def package_of(module: Module) -> str:
    return module.name if module.is_package else module.name.rpartition(".")[0]


def read_modules(root: Path) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        rel = path.relative_to(root / PACKAGE).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join(parts)
        modules[name] = Module(name, path, is_package, ast.parse(path.read_text("utf-8")))
    for module in modules.values():
        _find_imports(module, modules)
    return modules


def _absolute(module: Module, node: ast.ImportFrom) -> str | None:
    """The imported module's name inside the package ("" for its __init__), or None if outside it."""
    if node.level == 0:
        if node.module is None or not (node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
            return None
        return node.module[len(PACKAGE) + 1:] if node.module != PACKAGE else ""
    base = package_of(module).split(".") if package_of(module) else []
    up = node.level - 1
    if up > len(base):
        return None
    base = base[:len(base) - up]
    if node.module:
        base += node.module.split(".")
    return ".".join(base)


def _find_imports(module: Module, modules: dict[str, Module]) -> None:
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    target = alias.name[len(PACKAGE) + 1:] if alias.name != PACKAGE else ""
                    if target in modules and target != module.name:
                        module.imports.add(target)
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, node)
            if target is None or target not in modules:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                if sub in modules:
                    if sub != module.name:
                        module.imports.add(sub)
                    continue
                if modules[target].is_package and _compiled(modules[target], alias.name):
                    continue  # a compiled submodule (its C source beside it): no Python import to follow
                if target != module.name:
                    module.imports.add(target)
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and _package_name(modules[target]) != _package_name(module):
                    module.private_imports.append((target, alias.name, node.lineno))


def _compiled(package: Module, name: str) -> bool:
    return any(package.path.parent.glob(f"{name}.c")) or any(package.path.parent.glob(f"{name}.*.so"))


def _package_name(module: Module) -> str:
    return package_of(module)


def circles(modules: dict[str, Module]) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative, so deep graphs do not hit the recursion limit
        nonlocal counter
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(modules[start].imports)))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(modules[child].imports))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for name in sorted(modules):
        if name not in index:
            visit(name)
    return sorted(found)


def arrows_up(modules: dict[str, Module]) -> list[tuple[str, str]]:
    return sorted((m.name, t) for m in modules.values() for t in m.imports
                  if layer_rank(t) > layer_rank(m.name))


def analysis_into_render(modules: dict[str, Module]) -> list[tuple[str, str]]:
    return sorted((m.name, t) for m in modules.values() for t in m.imports
                  if layer_of(m.name) in ANALYSIS_LAYERS and layer_of(t) == "drawing")


def long_functions(modules: dict[str, Module], limit: int = LONG_FUNCTION) -> list[tuple[int, str]]:
    out = []
    for m in modules.values():
        for node in ast.walk(m.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    out.append((lines, f"{m.name or '__init__'}.{node.name}"))
    return sorted(out, reverse=True)


def explorers(modules: dict[str, Module]) -> list[str]:
    """Modules that walk a game graph: a frontier loop (``while``) over positions, each expanded by
    applying its legal moves, with a test whether a child was seen before.

    A loop that only looks one move ahead (a verdict per first move), or plays one line, is not a
    walk of the graph; only ``graph`` (and the solver's own search, on its own state) should walk it.
    """
    out = set()
    for m in modules.values():
        for loop in ast.walk(m.tree):
            if not isinstance(loop, ast.While):
                continue
            for inner in ast.walk(loop):
                if (isinstance(inner, ast.For) and _calls(inner.iter, "legal_moves")
                        and any(_calls(n, "apply_unchecked") for n in inner.body)
                        and any(_looks_up(c) for n in inner.body for c in ast.walk(n))):
                    out.add(m.name)
    return sorted(out)


def _looks_up(node: ast.AST) -> bool:
    """``key in seen`` / ``key not in seen`` / ``index.get(key)``: has this state been seen?"""
    if isinstance(node, ast.Compare):
        return any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"


def _calls(node: ast.AST, name: str) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            if (isinstance(func, ast.Name) and func.id == name) or (
                    isinstance(func, ast.Attribute) and func.attr == name):
                return True
    return False


def measure(root: Path) -> dict[str, object]:
    modules = read_modules(root)
    lines = sum(len(m.path.read_text("utf-8").splitlines()) for m in modules.values())
    return {
        "modules": len(modules),
        "lines": lines,
        "largest_functions": [f"{name} ({n})" for n, name in long_functions(modules)[:10]],
        "functions_over_60_lines": len(long_functions(modules)),
        "arrows_up": [f"{a} -> {b}" for a, b in arrows_up(modules)],
        "circles": [" ".join(c) for c in circles(modules)],
        "private_names_across_packages": [f"{m.name}:{line} {t}.{n}" for m in modules.values()
                                          for t, n, line in m.private_imports],
        "analysis_imports_render": [f"{a} -> {b}" for a, b in analysis_into_render(modules)],
        "game_graph_walkers": explorers(modules),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout to measure (default: this one)")
    parser.add_argument("--json", action="store_true", help="print the measures as JSON")
    args = parser.parse_args()
    if not (args.root / PACKAGE).is_dir():
        print(f"shape.py: {args.root} has no {PACKAGE}/ folder", file=sys.stderr)
        return 2
    try:
        result = measure(args.root)
    except KeyError as exc:
        print(f"shape.py: {exc.args[0]}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return 0
    for key, value in result.items():
        if isinstance(value, list):
            print(f"{key}: {len(value)}")
            for item in value:
                print(f"    {item}")
        else:
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
