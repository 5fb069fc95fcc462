"""The judge's host: ``--host``, ``$OLLAMA_HOST`` and the app's Settings read alike.

No database, no models, no httpx (the graders and the app's Settings use it too): the
text is checked as httpx would read it on sending, so a host httpx refuses is one line
(exit 2) before any request, not httpx's InvalidURL (exit 70, seventh hostile pass T3).
"""

from __future__ import annotations

import ipaddress
import os
import re
from urllib.parse import urlsplit

from reviewer.errors import BadInputError
from reviewer.text_rules import spelt

DEFAULT_HOST = "http://127.0.0.1:11434"


_DOTTED_QUAD = re.compile(r"[0-9]+(?:\.[0-9]+){3}")
"""What httpx reads as an IPv4 address (and refuses unless ``ipaddress`` accepts it)."""
_HOST_NAME = re.compile(r"[\w.-]+")
"""Letters (any script: IDNA), digits, ``_``, ``.`` and ``-``: a space, ``%`` or ``<``
in a host name is a typo, never a server."""


def normalize_host(text: str, given_as: str = "") -> str:
    """``host:port`` or a URL as a full URL (``http://`` and port 11434 when missing).

    BadInputError, before any request, for what httpx would refuse on sending (an IPv4
    address with a part past 255 or a leading zero: InvalidURL, exit 70 in the seventh
    hostile pass, T3) or what is no host at all (``http:///`` became
    ``http://http:11434``, M1). ``given_as`` names where the text came from
    (``$OLLAMA_HOST``). Shared by ``--host``, ``$OLLAMA_HOST`` and the app's Settings."""
    given = text
    where = f"judge host {given!r}" + (f" (from {given_as})" if given_as else "")
    text = text.strip()
    if "://" not in text:
        if ":/" in text:  # "http:/h": a slash forgotten, not the host "http"
            raise BadInputError(f"{where}: no host name (write http://HOST:PORT)")
        text = f"http://{text}"
    text = text.rstrip("/")  # "http:///" is "http:" now: no host name below
    try:  # urlsplit refuses an unclosed "[", .port a port that is not 0-65535
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise BadInputError(f"{where}: not a URL ({exc})") from None
    if parts.scheme not in ("http", "https"):
        raise BadInputError(f"{where}: the URL must start with http:// or https://")
    if not parts.hostname:
        raise BadInputError(f"{where}: no host name (write http://HOST:PORT)")
    if port == 0:
        raise BadInputError(f"{text!r} is not a judge host URL")
    _check_host_name(parts.hostname, where)
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    if host == "0.0.0.0":  # what a server listens on, not where a client connects
        host = "127.0.0.1"
    port = port or (443 if parts.scheme == "https" else 11434)
    return f"{parts.scheme}://{host}:{port}{parts.path}"


def _check_host_name(name: str, where: str) -> None:
    """BadInputError unless ``name`` (urlsplit's hostname: bracketed IPv6 already
    checked) is an IPv4 address httpx accepts or a plausible host name."""
    if ":" in name:
        return
    if _DOTTED_QUAD.fullmatch(name):
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            raise BadInputError(f"{where}: {name!r} is not a valid IPv4 address (four "
                                "numbers 0-255, without leading zeros)") from None
        return
    if not _HOST_NAME.fullmatch(name):
        raise BadInputError(f"{where}: {spelt(name)!r} is not a valid host name")
    _check_labels(name, where)


def _check_labels(name: str, where: str) -> None:
    """BadInputError for an empty label (``a..b``) or an ``xn--`` label that is not
    Punycode: httpx decodes such a host only on sending, and its IDNAError read as "not
    Ollama's reply" with no server reached (eleventh hostile pass, V8)."""
    labels = name.removesuffix(".").split(".")
    if any(not label for label in labels):
        raise BadInputError(f"{where}: {spelt(name)!r} is not a valid host name (an empty "
                            "part between dots)")
    if any(label.lower().startswith("xn--") for label in labels):
        import idna  # httpx's own decoder, loaded only for such a name

        try:
            idna.decode(name)
        except idna.IDNAError as exc:
            raise BadInputError(f"{where}: {spelt(name)!r} is not a valid host name "
                                f"({exc})") from None


def default_host() -> str:
    """``$OLLAMA_HOST`` (as Ollama reads it) or ``http://127.0.0.1:11434``."""
    env = os.environ.get("OLLAMA_HOST", "").strip()
    return normalize_host(env, "$OLLAMA_HOST") if env else DEFAULT_HOST
