"""One builder module per theme; `layout` holds what they share."""

from __future__ import annotations

from .foundation_start import build_foundation_start
from .foundation_wrap import build_foundation_wrap
from .reserve_top import build_reserve_top
from .stock_deal import build_stock_deal
from .stock_last_two import build_stock_last_two
from .tableau_empty import build_tableau_empty
from .tableau_run import build_tableau_run
from .tableau_wrap import build_tableau_wrap

__all__ = [
    "build_foundation_start",
    "build_foundation_wrap",
    "build_reserve_top",
    "build_stock_deal",
    "build_stock_last_two",
    "build_tableau_empty",
    "build_tableau_run",
    "build_tableau_wrap",
]
