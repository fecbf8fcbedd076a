"""agnes-teach: teach the rules of the patience game Agnes Bernauer.

The Python API (docs/commands.md, "Python API")::

    import agnes_teach as at
    pos = at.deal(1)
    at.legal_moves(pos)

The names below load on first use (PEP 562), so importing one module of the
package (``import agnes_teach.cards``) does not load the engine, the solver
and the checker behind the API.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# Each public name and the module of the package that defines it.
_PUBLIC = {
    "apply_move": "api", "check": "api", "deal": "api", "hint": "api", "legal_moves": "api", "move": "api",
    "parse_position": "api", "pysolfc_deal": "api", "solve": "api",
    "IllegalMoveError": "engine",
    "InputError": "errors",
    "Move": "moves",
    "Position": "position",
    "Profile": "profile", "get_profile": "profile",
}

__all__ = [
    "IllegalMoveError", "InputError", "Move", "Position", "Profile", "__version__", "apply_move", "check",
    "deal", "get_profile", "hint", "legal_moves", "move", "parse_position", "pysolfc_deal", "solve",
]

if TYPE_CHECKING:
    from .api import apply_move, check, deal, hint, legal_moves, move, parse_position, pysolfc_deal, solve
    from .engine import IllegalMoveError
    from .errors import InputError
    from .moves import Move
    from .position import Position
    from .profile import Profile, get_profile


def __getattr__(name: str) -> object:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(ModuleType):
    """The package's module object.  The submodules ``deal`` and ``hint`` share their names with API
    functions: importing them must not bind them over the functions (Python sets a submodule as
    an attribute of its package); they stay reachable by their full names."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _PUBLIC and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
