"""Finding every message the code and templates use, for the catalogue tests."""

from __future__ import annotations

import ast
from pathlib import Path

from babel.messages.extract import extract_from_file

ROOT = Path(__file__).resolve().parent.parent
# Python helpers that look a message up: name -> number of message strings after the context.
PY_FUNCTIONS = {"text": 1, "t": 1, "ntext": 2}


def python_messages(folder: Path = ROOT / "agnes_teach") -> set[tuple[str, str]]:
    """(context, msgid) of every ``text(lang, "ctx", "msgid", ...)``-style call with literal strings.

    For ``ntext`` the msgid is the singular form.  Calls whose msgid is not a
    literal (rule ids, computed keys) are covered by the rule-id tests.
    """
    found: set[tuple[str, str]] = set()
    for file in sorted(folder.rglob("*.py")):
        tree = ast.parse(file.read_text("utf-8"), str(file))
        # A msgid held in a variable: the literal strings assigned to that name in the module.
        assigned: dict[str, list[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).extend(_literals(node.value))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in PY_FUNCTIONS or len(node.args) < 3:
                continue
            ctx, msg = node.args[1], node.args[2]
            if not (isinstance(ctx, ast.Constant) and isinstance(ctx.value, str)):
                continue
            ids = assigned.get(msg.id, []) if isinstance(msg, ast.Name) else _literals(msg)
            found.update((ctx.value, msgid) for msgid in ids)
    return found


def _literals(node: ast.expr) -> list[str]:
    """A string literal, or both literal branches of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def template_messages(folder: Path = ROOT / "templates") -> set[tuple[str | None, str]]:
    """(context, msgid) of every gettext call in the jinja2 templates."""
    found: set[tuple[str | None, str]] = set()
    options = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"}
    for file in sorted(folder.glob("*.j2")):
        for _line, message, _comments, context in extract_from_file(
            "jinja2", str(file), keywords={"pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
                                           "gettext": None, "ngettext": (1, 2)}, options=options
        ):
            msgid = message[0] if isinstance(message, tuple) else message
            found.add((context, msgid))
    return found
