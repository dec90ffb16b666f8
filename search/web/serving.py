"""The web app on a socket, bounded: the port bound before "serving" is said (a busy port is one
line), the connections counted against the open-file limit, a client that sends no request
within a few seconds closed, the Host header checked (DNS rebinding), the "out of system
resource" log line said once a minute, not thousands of times a second."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0  # for a connection's request to arrive, and between two of them
MAX_CONNECTIONS = 128
BACKLOG = 16  # connections asyncio accepts in one pass, before the limit can close any
RESERVED_FILES = 24 + BACKLOG  # descriptors kept for the index, the database, logs, listener
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]", "::1")


class PortInUse(OSError):
    """The address cannot be bound (taken, not this machine's, not allowed)."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (PortInUse with the reason when it cannot be had)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio turns Nagle's algorithm off only on sockets that say they are
    # TCP, and with it on, every answer on a kept-alive connection waited 40 ms for an ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(2048)
    except OSError as error:
        sock.close()
        raise PortInUse(error.errno, error.strerror) from None
    sock.set_inheritable(True)
    return sock


def connection_limit() -> int:
    """How many connections at once: the open-file limit raised to its hard limit, less what
    the server itself needs; past it a connection is closed at once instead of an accept()
    failing without end."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 4096)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return max(4, min(MAX_CONNECTIONS, soft - RESERVED_FILES))


class BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for every request to arrive (uvicorn only
    times out a connection idle after a response) and a refusal past the connection limit."""

    limit = MAX_CONNECTIONS  # set by `run` from the open-file limit
    deadline: asyncio.TimerHandle | None = None
    arrived = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arrived = time.monotonic()
        open_ = sum(not c.transport.is_closing() for c in self.connections)
        if open_ > self.limit:
            # Full: the oldest connection with no request in flight makes room (a client
            # holding sockets open without asking keeps none for long); else this one waits
            # for nothing and is closed.
            idle = [
                c
                for c in self.connections
                if isinstance(c, BoundedH11) and c is not self and c._idle()
            ]
            oldest = min(idle, key=lambda c: c.arrived, default=self)
            oldest.transport.close()
            if oldest is self:
                return
        self._arm()

    def _idle(self) -> bool:
        return (self.cycle is None or self.cycle.response_complete) and not (
            self.transport.is_closing()
        )

    def _arm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _too_slow(self) -> None:
        """No request in flight since the deadline was set: a silent or trickling client."""
        if self._idle():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        super().connection_lost(exc)


class OncePerMinute(logging.Filter):
    """asyncio's "socket.accept() out of system resource" at most once a minute: logged at
    every retry it filled 58 MB in seconds, and blocked the server on a full stderr pipe."""

    def __init__(self) -> None:
        super().__init__()
        self.last = 0.0

    def filter(self, record: logging.LogRecord) -> bool:
        if "out of system resource" not in record.getMessage():
            return True
        now = time.monotonic()
        if now - self.last < 60:
            return False
        self.last = now
        record.exc_info = None  # one line: the traceback adds nothing
        return True


def allowed_hosts(host: str) -> set[str] | None:
    """The Host header values (without port) the app answers: the address it is bound to, and
    localhost's names when bound there; None (any) when bound to every address, as the names
    the machine is reached by are not known."""
    bare = host.strip("[]").lower()
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(bare)
        if address.is_unspecified:
            return None
        if address.is_loopback:
            return {*LOOPBACK_NAMES, bare, f"[{bare}]"}
        return {bare, f"[{bare}]"}
    return {bare, *(LOOPBACK_NAMES if bare == "localhost" else ())}


class HostGuard:
    """ASGI middleware: a request whose Host is not one the server answers to is refused (400)
    before any route runs, so that a page of another site rebound to this address by DNS
    cannot read /api/*."""

    def __init__(self, app: Any, hosts: set[str] | None, headers: dict[str, str]) -> None:
        self.app, self.hosts, self.headers = app, hosts, headers

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.hosts is None:
            return await self.app(scope, receive, send)
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name in self.hosts:
            return await self.app(scope, receive, send)
        from starlette.responses import PlainTextResponse

        response = PlainTextResponse(
            "400 Bad Request: unknown Host header; use the address mtgrules serve printed\n",
            status_code=400,
            headers=self.headers,
        )
        await response(scope, receive, send)


HOST_VARIABLE = "MTGRULES_SERVE_HOST"  # the bound address, for each worker's Host check


def _guarded(app: Any, host: str) -> Any:
    """The app behind the Host check, in a process whose log and connection limit are set."""
    from search.web.app import SECURITY_HEADERS

    logging.getLogger("asyncio").addFilter(OncePerMinute())
    BoundedH11.limit = connection_limit()
    return HostGuard(app, allowed_hosts(host), SECURITY_HEADERS)


def worker_app() -> Any:
    """What each worker process of `serve --workers N` loads: the app of MTGRULES_HOME behind
    the same Host check, connection limit and quiet log as a single process."""
    import os

    from search.web.app import app_from_environment

    return _guarded(app_from_environment(), os.environ.get(HOST_VARIABLE, "127.0.0.1"))


def run(app: Any, sock: socket.socket, host: str, workers: int = 1) -> None:
    """Serve the app on the bound socket until interrupted; with workers > 1, that many
    processes (uvicorn's supervisor) accept on the same socket, each making its own app
    (`worker_app`: an app holds an engine, which is not shared between processes)."""
    import os

    import uvicorn

    limit = connection_limit()  # raised here, inherited by the workers
    options: dict[str, Any] = {
        "log_level": "warning",
        "http": BoundedH11,
        # Requests in flight past this are answered 503 at once (uvicorn counts connections
        # too, closing ones included: hence above the connections' own limit).
        "limit_concurrency": 2 * limit,
        "timeout_keep_alive": int(REQUEST_SECONDS),
        "backlog": BACKLOG,
    }
    if workers > 1:
        from uvicorn.supervisors import Multiprocess

        os.environ[HOST_VARIABLE] = host
        config = uvicorn.Config(
            "search.web.serving:worker_app", factory=True, workers=workers, **options
        )
        Multiprocess(config, sockets=[sock]).run()
        return
    uvicorn.Server(uvicorn.Config(_guarded(app, host), **options)).run(sockets=[sock])
