"""Fuzz the command line: mutated scenarios through moves, check, solve and sheet.

Each input is a valid scenario from ``puzzles/`` (or a bare position) with 1 to
3 structural mutations (tests/_fuzz_util.py: values of other types at any key,
lists, strings and mappings turned into each other, keys deleted and added,
card and move spellings, huge and odd numbers, unicode and control characters),
written as YAML and run through the real command line in-process.  A run
fails when an exception escapes (a traceback for the user), when stderr shows
a traceback, or when the exit code is not one the command documents.
Failing inputs are saved for replay.  With ``--tags`` each input is instead a
valid scenario with one value replaced by a YAML tag and a value (``!!bool yes``
running on into a list, ``!!timestamp 2020-99-99``, ``!!binary zz%%``,
``!!python/...``; tests/_fuzz_util.py ``tag_text``), which the loader must turn
into one message and exit 2.

    .venv/bin/python bench/fuzz.py --count 10000 --commands moves,check,solve --seed 1
    .venv/bin/python bench/fuzz.py --count 10000 --commands sheet --seed 2 --max-seconds 3000
    .venv/bin/python bench/fuzz.py --tags --count 500 --commands moves,check,solve,hint,sheet --seed 3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _fuzz_util import EXIT_CODES, mutate, run_command, seed_documents, tag_text, to_text  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000, help="inputs per command")
    parser.add_argument("--commands", default="moves,check,solve,sheet")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.05, help="--budget given to check and solve")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop a command's run after this long (the count reached is reported)")
    parser.add_argument("--failures", type=Path, default=Path("build/fuzz-failures"),
                        help="folder for the inputs that failed")
    parser.add_argument("--json", type=Path, default=None, help="write the figures as JSON here")
    parser.add_argument("--tags", action="store_true",
                        help="throw YAML tags at the loader instead of structural mutations")
    args = parser.parse_args()

    docs = seed_documents()
    figures: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for command in args.commands.split(","):
            if command not in EXIT_CODES:
                parser.error(f"unknown command {command!r}")
            rng = random.Random(f"{args.seed}-{command}")
            codes: Counter[int] = Counter()
            failures = 0
            started = time.monotonic()
            done = 0
            for number in range(args.count):
                if args.max_seconds is not None and time.monotonic() - started > args.max_seconds:
                    break
                if args.tags:
                    text = tag_text(to_text(docs[rng.randrange(len(docs))]), rng.randrange)
                else:
                    text = to_text(mutate(docs[rng.randrange(len(docs))], rng.randrange, rng.randint(1, 3)))
                path = tmp / "input.yaml"
                path.write_text(text, "utf-8")
                outcome = run_command(command, path, tmp, budget=args.budget)
                codes[outcome.code] += 1
                done += 1
                if not outcome.ok:
                    failures += 1
                    args.failures.mkdir(parents=True, exist_ok=True)
                    (args.failures / f"{command}-{number}.yaml").write_text(text, "utf-8")
                    print(f"FAIL {command} #{number}: exit {outcome.code}, {outcome.error!r}\n"
                          f"{outcome.stderr[-500:]}", file=sys.stderr)
                if done % 1000 == 0:
                    print(f"{command}: {done} inputs, {failures} failures", file=sys.stderr, flush=True)
            seconds = time.monotonic() - started
            figures[command] = {"inputs": done, "failures": failures,
                                "exit_codes": dict(sorted(codes.items())), "seconds": round(seconds, 1)}
            shown = ", ".join(f"exit {code}: {n}" for code, n in sorted(codes.items()))
            print(f"{command}: {done} inputs, {failures} failures ({shown}), "
                  f"{seconds / max(done, 1) * 1000:.0f} ms per input", flush=True)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"seed": args.seed, "budget": args.budget, "figures": figures},
                                        indent=2) + "\n", "utf-8")
    sys.exit(1 if any(f["failures"] for f in figures.values()) else 0)


if __name__ == "__main__":
    main()
