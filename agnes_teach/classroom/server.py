"""Running the classroom under uvicorn: one process, one database, a clean stop.

The socket is bound here, before uvicorn starts, so a port in use or a host
that does not exist is a plain message (exit 2), and ``--port 0`` (any free
port) prints the port really bound. uvicorn handles SIGINT and SIGTERM: it
stops taking connections, lets the requests in flight finish (at most
``GRACE_SECONDS``) and returns; the database is closed after it.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import uvicorn

from ..errors import InputError, Problem
from .app import Classroom, create_app
from .db import Store
from .puzzle_library import load_library

GRACE_SECONDS = 5


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; InputError naming the problem (in use, no such address)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, OverflowError) as exc:
        raise InputError(Problem(f"--host {host}: not an address of this machine ({exc})")) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise InputError(Problem(f"cannot listen on {host}:{port}: {exc.strerror or exc}")) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def url_of(host: str, sock: socket.socket) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


class _Server(uvicorn.Server):
    """uvicorn's server that says where it listens, once, when it is ready."""

    announce = ""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            print(f"serving {self.announce}", flush=True)


def serve(db: Path, host: str, port: int) -> None:
    """Serve the classroom of `db` until SIGINT or SIGTERM; InputError for a bad file or address."""
    store = Store(db)  # checks the file (ours, whole, migrated) before anything listens
    try:
        room = Classroom(store, load_library())
        sock = bind(host, port)
        config = uvicorn.Config(create_app(room), log_level="warning", access_log=False,
                                server_header=False, timeout_graceful_shutdown=GRACE_SECONDS,
                                lifespan="off")
        server = _Server(config)
        server.announce = url_of(host, sock)
        with contextlib.closing(sock), _quiet_stop_signals():
            server.run(sockets=[sock])
    finally:
        store.close()
    if not server.started:
        sys.exit(1)
    print(f"agnes-teach: the classroom stopped; {db} is closed", file=sys.stderr)


@contextlib.contextmanager
def _quiet_stop_signals() -> Iterator[None]:
    """While serving, a stop signal is uvicorn's to handle. It raises the signal again after its
    graceful stop, for the handler it found: that handler must then do nothing, so the database is
    closed and the command returns normally."""
    previous = {sig: signal.signal(sig, lambda _sig, _frame: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
