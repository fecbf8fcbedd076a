"""Write the perft tables ``tests/perft/<profile>.perft`` from the engine.

    .venv/bin/python tests/perft/make.py

Run it only when a rule is meant to change what is legal; the test then checks the engine and
the fast state against the new counts.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _perft_util import DEALS, DEPTH, perft_engine  # noqa: E402

from agnes_teach.deal import deal  # noqa: E402
from agnes_teach.profile import get_profile, profile_ids  # noqa: E402


def main() -> None:
    for pid in profile_ids():
        lines = [f"# perft of {pid}: move sequences of each length from the start of each deal"]
        for number in DEALS:
            pos = deal(number, get_profile(pid))
            for depth in range(1, DEPTH + 1):
                lines.append(f"deal {number} depth {depth} nodes {perft_engine(pos, depth)}")
        (HERE / f"{pid}.perft").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(pid, file=sys.stderr)


if __name__ == "__main__":
    main()
