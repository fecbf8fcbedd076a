"""Fuzz the command line in-process: structurally mutated scenarios never crash it.

Hypothesis drives the mutations of ``_fuzz_util`` (values of other types at
any key, lists, strings and mappings swapped, keys deleted and added, card and
move spellings, huge and odd numbers, unicode and control characters).  Each
run fails on an exception escaping the command line (only a clean exit is
allowed: bad input is exit 2) and on an exit code the command does not
document.  The examples are few so the suite stays fast; ``bench/fuzz.py``
runs 10,000 per command (docs/decisions.md, "Fuzzing").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fuzz_util import EXIT_CODES, mutate, run_command, seed_documents, tag_text, to_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DOCS = seed_documents()
EXAMPLES = {"moves": 120, "check": 80, "solve": 80, "sheet": 8}


def _fuzz(command: str, data: st.DataObject, tmp_path: Path) -> None:
    def choose(n: int) -> int:
        return data.draw(st.integers(0, n - 1)) if n > 1 else 0

    doc = mutate(DOCS[choose(len(DOCS))], choose, 1 + choose(3))
    path = tmp_path / "input.yaml"
    path.write_text(to_text(doc), "utf-8")
    outcome = run_command(command, path, tmp_path, budget=0.05)
    assert outcome.error is None, f"{outcome.error!r} escaped {command} on:\n{to_text(doc)}"
    assert outcome.code in EXIT_CODES[command], (outcome.code, outcome.stderr)
    assert "Traceback" not in outcome.stderr


@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_mutated_scenarios_never_crash_the_cli(command: str,
                                               tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp_path = tmp_path_factory.mktemp(f"fuzz-{command}")

    @settings(max_examples=EXAMPLES[command], deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _fuzz(command, data, tmp_path)

    run()


TAG_EXAMPLES = {"moves": 150, "check": 80, "solve": 60, "sheet": 8, "hint": 20}
TAG_EXIT_CODES = {"hint": {0, 2}}


@pytest.mark.parametrize("command", sorted(TAG_EXAMPLES))
def test_yaml_tags_never_crash_the_cli(command: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A tag whose constructor refuses its value is bad input: one message, exit 2, no traceback."""
    tmp_path = tmp_path_factory.mktemp(f"tags-{command}")
    texts = [to_text(doc) for doc in DOCS]

    @settings(max_examples=TAG_EXAMPLES[command], deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        def choose(n: int) -> int:
            return data.draw(st.integers(0, n - 1)) if n > 1 else 0

        text = tag_text(texts[choose(len(texts))], choose)
        path = tmp_path / "input.yaml"
        path.write_text(text, "utf-8")
        outcome = run_command(command, path, tmp_path, budget=0.05)
        assert outcome.error is None, f"{outcome.error!r} escaped {command} on:\n{text}"
        allowed = TAG_EXIT_CODES.get(command) or EXIT_CODES[command]
        assert outcome.code in allowed, (outcome.code, outcome.stderr)
        assert "Traceback" not in outcome.stderr

    run()
