"""A TCP proxy in front of the test PostgreSQL server that can stop forwarding.

Fifteenth hostile pass, P15-5: a connection that stalls (the socket stays open, nothing
comes back: a proxy or a NAT that stops forwarding, a server frozen, a laptop's Wi-Fi
gone) kept a command waiting for ever, deaf to Ctrl-C. Here a thread forwards between a
port of 127.0.0.1 and the real server; once the client has sent ``stall_on`` (a piece
of an SQL statement: psycopg sends the statement's text), nothing more is forwarded either
way, on every connection, old or new (or on those already open only), until
:meth:`resume`. The sockets stay open: the
client sees a server that has stopped answering, as a TCP keepalive would not tell.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from types import TracebackType

CHUNK = 65536


class StallingProxy:
    """``with StallingProxy(port, stall_on=b"INSERT") as proxy:`` forwards
    ``proxy.port`` to ``127.0.0.1:port``; ``proxy.stalled`` is set once ``stall_on`` went
    by (or :meth:`stall` was called); ``proxy.connections`` counts the connections
    accepted."""

    def __init__(self, upstream_port: int, stall_on: bytes | None = None, *,
                 new_ones_too: bool = True) -> None:
        self.upstream_port = upstream_port
        self.markers: tuple[bytes, ...] = (stall_on,) if stall_on is not None else ()
        # False: connections made after the stall are forwarded (a NAT that lost one
        # connection's state, the server itself answering).
        self.new_ones_too = new_ones_too
        self.stalled = threading.Event()
        self.connections = 0
        self._stopping = threading.Event()
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self.port: int = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = [self._listener]
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> StallingProxy:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def start(self) -> StallingProxy:
        """Accept and forward (what ``with`` does)."""
        self._start(self._accept)
        return self

    def url(self, database_url: str) -> str:
        """``database_url`` (of the real server on 127.0.0.1) through this proxy."""
        return database_url.replace(f"127.0.0.1:{self.upstream_port}",
                                    f"127.0.0.1:{self.port}")

    def hold_at(self, *markers: bytes) -> None:
        """Stall at the first client bytes holding one of ``markers``."""
        self.markers = markers

    def close(self) -> None:
        """Close every socket: a connection blocked on one fails (its server rolls back
        what it had not committed); what was held is never delivered."""
        self._stopping.set()
        self.stalled.clear()
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
        for thread in self._threads:
            thread.join(timeout=10)

    def stall(self) -> None:
        """Stop forwarding now."""
        self.stalled.set()

    def resume(self) -> None:
        """Forward again what was held."""
        self.stalled.clear()

    def _start(self, target: object, *args: object) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)  # type: ignore[arg-type]
        self._threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream_port))
            with self._lock:
                self._sockets += [client, server]
                self.connections += 1
            held = self.new_ones_too or not self.stalled.is_set()
            self._start(self._pump, client, server, True, held)
            self._start(self._pump, server, client, False, held)

    def _pump(self, source: socket.socket, sink: socket.socket, from_client: bool,
              held: bool) -> None:
        seen = b""
        while not self._stopping.is_set():
            try:
                ready, _, _ = select.select([source], [], [], 0.05)
                if not ready:
                    continue
                data = source.recv(CHUNK)
            except OSError:
                return
            if from_client and self.markers:
                seen = (seen + data)[-(len(data) + max(map(len, self.markers))):]
                if any(marker in seen for marker in self.markers):
                    self.stalled.set()
            while held and self.stalled.is_set() and not self._stopping.is_set():
                self._stopping.wait(0.05)  # held, the socket left open
            if self._stopping.is_set():
                return  # what was held is dropped, never delivered late
            if not data:
                with contextlib.suppress(OSError):
                    sink.shutdown(socket.SHUT_WR)
                return
            try:
                sink.sendall(data)
            except OSError:
                return
