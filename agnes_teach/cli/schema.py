"""``agnes-teach schema``: the JSON Schema of scenario and position files, for editors."""

from __future__ import annotations

import json

import typer

from ..fields import file_schema
from .errors import input_errors

app = typer.Typer()  # joined, without a name, into the root app of agnes_teach.cli


def schema_text() -> str:
    return json.dumps(file_schema(), indent=2, ensure_ascii=False) + "\n"


@app.command("schema")
@input_errors
def schema_command() -> None:
    """Print the JSON Schema (draft 2020-12) of scenario and position files.

    It comes from the same table of fields the loader checks every file
    against.  Save it and name it on the first line of a YAML file, so an
    editor with a YAML language server completes and checks the keys:

        agnes-teach schema > scenario.schema.json
        # yaml-language-server: $schema=scenario.schema.json

    \b
    Example:
      agnes-teach schema > scenario.schema.json
    """
    print(schema_text(), end="")
