"""agnes-teach: teach the rules of the patience game Agnes Bernauer.

The Python API (README, "Python API")::

    import agnes_teach as at
    pos = at.deal(1)
    at.legal_moves(pos)
"""

__version__ = "0.1.0"

from .api import apply_move, check, deal, hint, legal_moves, move, parse_position, pysolfc_deal, solve
from .engine import IllegalMoveError
from .errors import InputError
from .moves import Move
from .position import Position
from .profile import Profile, get_profile

__all__ = [
    "IllegalMoveError", "InputError", "Move", "Position", "Profile", "__version__", "apply_move", "check",
    "deal", "get_profile", "hint", "legal_moves", "move", "parse_position", "pysolfc_deal", "solve",
]
