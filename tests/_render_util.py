"""Helpers for the rendering tests: the demo puzzles, PDF text, a guide built once."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "tests" / "sheet_positions"  # the earlier demo set: small, fixed puzzles for the sheet tests


def pdf_pages(path: Path) -> list[str]:
    """The extracted text of every page."""
    return [page.extract_text() or "" for page in PdfReader(str(path)).pages]


@contextmanager
def weasyprint_warnings() -> Iterator[list[str]]:
    """Collect what the ``weasyprint`` logger warns about while the block runs."""
    seen: list[str] = []

    class Grab(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    logger = logging.getLogger("weasyprint")
    handler = Grab(logging.WARNING)
    logger.addHandler(handler)
    try:
        yield seen
    finally:
        logger.removeHandler(handler)
