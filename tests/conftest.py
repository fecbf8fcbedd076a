"""Session-wide settings for the test suite."""

from __future__ import annotations

import os
import tempfile


def pytest_configure() -> None:
    # Practice analyses kept between guide builds go to a folder of this run's own, never the
    # user's cache: every test (and every command a test runs) starts cold.
    os.environ["AGNES_TEACH_CACHE"] = tempfile.mkdtemp(prefix="agnes-teach-cache-")
