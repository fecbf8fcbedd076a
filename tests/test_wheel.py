"""The package as a user installs it: a wheel in a fresh virtualenv, run outside the repository.

An editable install reads templates and data from the source tree, so a file left out of the
package data goes unnoticed there; this test builds the wheel, installs it alone into a new venv
and runs ``guide``, ``sheet`` and ``demo`` from a folder that is not the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
_NOT_SOURCE = (".git", ".venv", "build", "dist", "site", "*.egg-info", ".*_cache", ".hypothesis",
               "__pycache__")


@dataclass(frozen=True)
class FreshInstall:
    python: Path
    command: Path  # the console script the wheel installed
    site: Path  # the fresh venv's site-packages
    work: Path  # an empty working folder outside the repository


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> FreshInstall:
    setuptools_major = int(version("setuptools").split(".")[0])
    assert setuptools_major >= 77, "the wheel is built without build isolation: install the test extra"
    root = tmp_path_factory.mktemp("wheel")
    # Built from a clean copy: an in-tree build/ folder left by an earlier build would hand the wheel
    # files the package data no longer lists.
    source = root / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*_NOT_SOURCE))
    wheels = root / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                  "-q", "-w", str(wheels), str(source)], cwd=root)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("agnes_teach-*.whl")

    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=root).stdout.strip())
    # The dependencies come from the running venv, as a plain path: a path line of a .pth file does
    # not run the .pth files inside that folder, so the running venv's editable finder stays out.
    (site / "running-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                      "--no-index", "-q", str(wheel)], cwd=root)
    assert installed.returncode == 0, installed.stderr
    work = root / "work"
    work.mkdir()
    return FreshInstall(python, env_dir / "bin" / "agnes-teach", site, work)


def test_the_package_imports_from_the_fresh_venv(fresh: FreshInstall) -> None:
    found = _run([str(fresh.python), "-c", "import agnes_teach; print(agnes_teach.__file__)"], cwd=fresh.work)
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()).is_relative_to(fresh.site)


def test_the_wheel_ships_every_template(fresh: FreshInstall) -> None:
    shipped = {p.name for p in (fresh.site / "agnes_teach" / "templates").iterdir()}
    in_source = {p.name for p in (REPO / "templates").iterdir() if p.suffix != ".py" and p.is_file()}
    assert in_source <= shipped


def _work_folder(fresh: FreshInstall, name: str) -> Path:
    """An empty folder outside the repository: guide and demo must find the library in the package."""
    work = fresh.work / name
    work.mkdir()
    return work


def test_the_wheel_ships_the_puzzle_library(fresh: FreshInstall) -> None:
    shipped = {p.relative_to(fresh.site / "agnes_teach" / "puzzles").as_posix()
               for p in (fresh.site / "agnes_teach" / "puzzles").rglob("*.yaml")}
    in_source = {p.relative_to(REPO / "puzzles").as_posix() for p in (REPO / "puzzles").rglob("*.yaml")}
    assert in_source and in_source == shipped


def test_guide_runs_from_the_wheel(fresh: FreshInstall) -> None:
    work = _work_folder(fresh, "guide-run")
    ran = _run([str(fresh.command), "guide", "--lang", "en", "--out", "guide"], cwd=work)
    assert ran.returncode == 0, ran.stderr
    # The pages inline guide-steps.js and practice.js, the two scripts a non-editable install lacked.
    pages = {p.name for p in (work / "guide").iterdir()}
    assert {"index.html", "en.html", "practice-en.html"} <= pages, pages


def test_sheet_of_a_shipped_example_runs_from_the_wheel(fresh: FreshInstall) -> None:
    example = _run([str(fresh.python), "-c", "from importlib.resources import files; "
                    "print(files('agnes_teach') / 'data' / 'examples' / 'tableau-run.yaml')"], cwd=fresh.work)
    path = example.stdout.strip()
    assert Path(path).is_relative_to(fresh.site), path
    out = fresh.work / "sheet.pdf"
    ran = _run([str(fresh.command), "sheet", path, "--out", str(out)], cwd=fresh.work)
    assert ran.returncode == 0, ran.stderr
    assert out.read_bytes().startswith(b"%PDF")


def test_demo_runs_from_the_wheel(fresh: FreshInstall) -> None:
    work = _work_folder(fresh, "demo-run")
    ran = _run([str(fresh.command), "demo", "--lang", "en", "--out", "build"], cwd=work)
    assert ran.returncode == 0, ran.stderr
    assert (work / "build" / "worksheet-en.pdf").read_bytes().startswith(b"%PDF")
    assert list((work / "build" / "guide").glob("*.html"))


def test_sheet_from_the_installed_library_runs_from_the_wheel(fresh: FreshInstall) -> None:
    out = fresh.work / "empty-column.pdf"
    ran = _run([str(fresh.command), "sheet", "--theme", "tableau.empty", "--count", "2", "--out", str(out)],
               cwd=fresh.work)
    assert ran.returncode == 0, ran.stderr
    assert out.read_bytes().startswith(b"%PDF")


# Every other command, cheaply, from the wheel and outside the repository: (arguments, its exit code).
EVERY_COMMAND = [
    (["--version"], 0),
    (["deal", "1", "--json"], 0),
    (["moves", "{deal}"], 0),
    (["check", "{deal}", "--solution", "4H>t3"], 1),  # a line that does not win: no claim holds
    (["solve", "--deal", "5", "--budget", "30", "--json"], 0),
    (["hint", "--deal", "5", "--json"], 0),
    (["survey", "--deals", "5-6", "--budget", "30", "--workers", "1", "--out", "{survey}"], 0),
    (["generate", "--theme", "tableau.empty", "--count", "1", "--deals", "4", "--out", "{generated}"], 0),
    (["schema"], 0),
    (["classroom", "init", "--db", "{db}"], 0),
]


@pytest.mark.parametrize(("args", "code"), EVERY_COMMAND, ids=[a[0] for a, _ in EVERY_COMMAND])
def test_every_command_runs_from_the_wheel(fresh: FreshInstall, args: list[str], code: int) -> None:
    work = fresh.work / f"command-{args[0].strip('-')}"
    work.mkdir(exist_ok=True)
    dealt = _run([str(fresh.command), "deal", "1"], cwd=work)
    assert dealt.returncode == 0, dealt.stderr
    (work / "deal1.yaml").write_text(dealt.stdout, encoding="utf-8")
    places = {"deal": "deal1.yaml", "survey": "survey.jsonl", "generated": "generated", "db": "class.db"}
    ran = _run([str(fresh.command), *(a.format(**places) for a in args)], cwd=work)
    assert ran.returncode == code, (ran.stdout[-500:], ran.stderr[-500:])
    assert (ran.stdout + ran.stderr).strip(), "every command says what it did"
    if args[0] == "generate":
        assert list((work / "generated").glob("*.yaml")), "generate wrote its puzzle"


def test_the_classroom_serves_its_pages_from_the_wheel(fresh: FreshInstall) -> None:
    """The pupils' page, the dashboard and their scripts are package data: served from the wheel."""
    import http.client
    import signal

    work = fresh.work / "classroom"
    work.mkdir(exist_ok=True)
    made = _run([str(fresh.command), "classroom", "init", "--db", "class.db"], cwd=work)
    assert made.returncode == 0 and made.stdout.startswith("teacher token: "), made.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.Popen([str(fresh.command), "classroom", "serve", "--db", "class.db", "--port", "0"],
                            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:"), proc.stderr.read() if proc.stderr else line
        port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        for path in ("/", "/teacher", "/static/classroom.js", "/static/classroom-teacher.js",
                     "/static/classroom-common.js", "/static/classroom.css"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", path)
            reply = conn.getresponse()
            assert reply.status == 200 and reply.read(), path
            conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    assert proc.returncode == 0
