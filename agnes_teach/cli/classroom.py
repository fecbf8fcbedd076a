"""``agnes-teach classroom``: the class server and its database (docs/classroom.md).

The server's modules (Starlette, uvicorn) load only when a classroom command
runs, so the other commands start as fast as before.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError, Problem
from .errors import input_errors
from .options import JsonOption, ParentsOption, check_out

if TYPE_CHECKING:
    from ..classroom.db import Store

app = typer.Typer(name="classroom", no_args_is_help=True,
                  help="Run a class: a small server where pupils play the assigned puzzles and the teacher "
                  "sees, per pupil and per rule, what was solved and which rule was misread.\n\n"
                  "\b\nExample:\n  agnes-teach classroom init --db class.db\n"
                  "  agnes-teach classroom serve --db class.db")

DbOption = Annotated[Path, typer.Option("--db", metavar="FILE", help="The classroom's database file.")]
DEFAULT_PORT = 8765


def _open(db: Path) -> Store:
    from ..classroom.db import Store

    return Store(db)


def _token_out(db: Path, token: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"db": str(db), "teacher_token": token}))
    else:
        print(f"teacher token: {token}")


@app.command("init")
@input_errors
def init_command(db: DbOption, as_json: JsonOption = False) -> None:
    """Create the classroom's database and print the teacher's token, once.

    The token is stored only as a hash: keep it (``token --reset`` makes a
    new one). FILE must not exist.

    \b
    Example:
      agnes-teach classroom init --db class.db
    """
    from ..classroom.db import create
    from ..classroom.tokens import new_token

    token = new_token()
    create(db, token)
    _token_out(db, token, as_json)


@app.command("token")
@input_errors
def token_command(
    db: DbOption,
    reset: Annotated[bool, typer.Option("--reset", help="Replace the teacher's token (the old one stops "
                                        "working at once).")] = False,
    as_json: JsonOption = False,
) -> None:
    """Replace the teacher's token and print the new one.

    \b
    Example:
      agnes-teach classroom token --db class.db --reset
    """
    from ..classroom.tokens import new_token

    if not reset:
        raise InputError("the token is stored only as a hash and cannot be shown again; "
                         "--reset replaces it with a new one")
    store = _open(db)
    try:
        token = new_token()
        store.reset_teacher(token)
    finally:
        store.close()
    _token_out(db, token, as_json)


@app.command("serve")
@input_errors
def serve_command(
    db: DbOption,
    host: Annotated[str, typer.Option("--host", help="Address to listen on; 0.0.0.0 lets the class's "
                                      "network in (the default lets in only this computer).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free "
                                      "port; the line printed says which).")] = DEFAULT_PORT,
) -> None:
    """Serve the pupils' page at /, the teacher's dashboard at /teacher and the API.

    Prints one line, ``serving http://HOST:PORT/``, when it is ready. Stops
    cleanly on Ctrl-C or SIGTERM; an attempt it has answered is on disk
    already. The teacher's dashboard opens as
    /teacher#token=TOKEN (the token never leaves the browser in a URL).

    \b
    Example:
      agnes-teach classroom serve --db class.db --host 0.0.0.0
    """
    from ..classroom.server import serve

    serve(db, host, port)


@app.command("report")
@input_errors
def report_command(
    db: DbOption,
    class_id: Annotated[str, typer.Option("--class", metavar="ID", help="The class (its id, as "
                                          "POST /api/classes answered).")],
    as_json: JsonOption = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV for a gradebook: one row per pupil and "
                                         "rule.")] = False,
) -> None:
    """Print a class's report, the same as the dashboard's, without the server.

    \b
    Example:
      agnes-teach classroom report --db class.db --class c-0123456789ab --csv > class.csv
    """
    from ..classroom.puzzle_library import load_library
    from ..classroom.report import class_report, report_csv

    if as_json and as_csv:
        raise InputError("--json and --csv: choose one")
    store = _open(db)
    try:
        if store.class_row(class_id) is None:
            known = ", ".join(row.id for row, _ in store.classes()) or "none yet"
            raise InputError(Problem(f"--class {class_id}: no such class (its classes: {known})", str(db)))
        report = class_report(store, load_library(), class_id)
    finally:
        store.close()
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
    elif as_csv:
        sys.stdout.write(report_csv(report))
    else:
        print(report_text(report))


def report_text(report: dict[str, Any]) -> str:
    """The report for a terminal: pupils, weak rules, puzzles."""
    lines = [f"{report['name']} ({report['class']}): {len(report['pupils'])} pupils, "
             f"{report['attempts']} attempts"]
    for pupil in report["pupils"]:
        refused = ", ".join(f"{rule} {count['refused']}" for rule, count in pupil["by_rule"].items()
                            if count["refused"])
        lines.append(f"  {pupil['name']}: {pupil['solved']} of {pupil['attempts']} solved, "
                     f"{pupil['first_try_solved']} at the first try, rating {pupil['rating']:.0f}"
                     + (f"; refused: {refused}" if refused else ""))
    if report["weak_rules"]:
        lines.append("rules the class fails most:")
        lines += [f"  {w['rule']}: weak for {w['pupils']} pupils, {w['solved']} of {w['attempts']} solved, "
                  f"{w['refused']} moves refused" for w in report["weak_rules"]]
    lines.append("puzzles:")
    lines += [f"  {p['id']} ({p['theme']}): {p['solved']} of {p['attempts']} solved, rating "
              f"{p['rating']:.0f} ± {p['deviation']:.0f}{' (provisional)' if p['provisional'] else ''}"
              for p in report["puzzles"]]
    return "\n".join(lines)


@app.command("ratings")
@input_errors
def ratings_command(
    db: DbOption,
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Folder to write the refreshed scenario "
                                      "files into.")],
    parents: ParentsOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write the library's puzzles whose rating is settled, their difficulty set from the rating.

    A puzzle's rating (Glicko-2, from pupils' first attempts) is settled once
    its deviation is under 110; below 1400 it is easy, from 1600 hard, medium
    between. Copy the files over puzzles/small/<theme>/ to print the new
    difficulty on the next sheet.

    \b
    Example:
      agnes-teach classroom ratings --db class.db --out rated
    """
    from ..classroom.puzzle_library import load_library
    from ..classroom.ratings import refreshed_file, refreshes
    from ..generator.output import write_puzzles

    check_out(out, parents)
    store = _open(db)
    try:
        found = refreshes(store, load_library())
    finally:
        store.close()
    files = [(r.file.name, refreshed_file(r)) for r in found]
    if files:
        try:
            write_puzzles(files, out)
        except OSError as exc:
            raise InputError(Problem(f"cannot write the files: {exc.strerror or exc}", str(out))) from None
    if as_json:
        print(json.dumps({"written": [str(out / r.file.name) for r in found],
                          "puzzles": [r.to_json() for r in found]}))
        return
    for r in found:
        change = "unchanged" if r.printed == r.rated else f"was {r.printed.value}"
        print(f"{out / r.file.name}: {r.rated.value} ({change}; rating {r.rating:.0f} ± {r.deviation:.0f})")
    if not found:
        print("no puzzle has a settled rating yet (its deviation must fall below 110); nothing written",
              file=sys.stderr)
