"""The jinja2 environment: templates from the ``agnes_teach.templates`` package, gettext per language.

Templates use the jinja2 i18n extension (``pgettext``, ``npgettext`` with
``%(name)s`` fields, new-style so values are escaped); Python code uses
``i18n.text`` with ``{name}`` fields.  Both read the same catalogues.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path

import jinja2

from .. import i18n
from ..outputs import registered

TEMPLATE_PACKAGE = "agnes_teach.templates"


def _load_template(name: str) -> str:
    file = resources.files(TEMPLATE_PACKAGE).joinpath(name)
    if not file.is_file():
        raise jinja2.TemplateNotFound(name)
    return file.read_text("utf-8")


def read_asset(name: str) -> str:
    """A stylesheet or other text file shipped with the templates."""
    return _load_template(name)


@cache
def environment(lang: str) -> jinja2.Environment:
    """A template environment speaking `lang`; undefined names fail loudly."""
    i18n.check_lang(lang)
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load_template),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = lang
    env.globals["read_asset"] = read_asset
    return env


@contextmanager
def atomic_path(target: Path, suffix: str = "") -> Iterator[Path]:
    """A temporary path beside `target`, renamed onto it only if the block succeeds."""
    target.parent.mkdir(parents=True, exist_ok=True)

    def new_temp() -> Path:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix or ".tmp", dir=target.parent)
        os.close(fd)
        return Path(tmp)

    with registered(new_temp) as tmp_path:
        try:
            yield tmp_path
            # mkstemp creates the file private (0600); give it the usual mode for new files.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp_path, 0o666 & ~umask)
            os.replace(tmp_path, target)
        finally:
            if tmp_path.exists():
                tmp_path.unlink()
