"""A TCP proxy in front of the test PostgreSQL that can stall: the sockets stay open and
nothing is forwarded any more (a frozen server, a partition that drops packets), the
fault of the fifteenth hostile pass's P15-5.

``StallProxy(host, port)`` listens on a free local port and forwards both ways. It stalls
when ``stall()`` is called, or (``stall_on``) at the first bytes from the client holding
one of the given markers (the SQL text of a write): those bytes are held, never sent.
``close()`` closes every socket: a worker blocked on one gets an error, so its write
fails and the server rolls back what it had not committed.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading


class StallProxy:
    """Forwards 127.0.0.1:``port`` (its own) to ``target``; see the module."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stalled = threading.Event()
        self.markers: tuple[bytes, ...] = ()
        self._closed = threading.Event()
        self._sockets: list[socket.socket] = [self.listener]
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, database_url: str) -> str:
        """``database_url`` (of the real server) through this proxy."""
        host, port = self.target
        return database_url.replace(f"{host}:{port}", f"127.0.0.1:{self.port}")

    def stall(self) -> None:
        """Forward nothing from now on; keep every socket open."""
        self.stalled.set()

    def stall_on(self, *markers: bytes) -> None:
        """Stall at the first client bytes holding one of ``markers`` (held, not sent)."""
        self.markers = markers

    def close(self) -> None:
        """Close every socket (the connections break)."""
        self._closed.set()
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    sock.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self._lock:
                self._sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        try:
            self._forward(client, server)
        finally:  # one side gone: the other sees the connection end
            for sock in (client, server):
                with contextlib.suppress(OSError):
                    sock.close()

    def _forward(self, client: socket.socket, server: socket.socket) -> None:
        peers = {client: server, server: client}
        while not self._closed.is_set():
            if self.stalled.is_set():
                self._closed.wait(0.05)
                continue
            try:
                ready, _, _ = select.select(list(peers), [], [], 0.1)
            except (OSError, ValueError):
                return
            for sock in ready:
                try:
                    data = sock.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                if sock is client and any(m in data for m in self.markers):
                    self.stalled.set()  # held: the server never sees these bytes
                    continue
                try:
                    peers[sock].sendall(data)
                except OSError:
                    return
