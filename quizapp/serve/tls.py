"""`quizapp serve --certfile --keyfile`: HTTPS (and wss://) served by aiohttp itself."""

from __future__ import annotations

import os
import ssl
from pathlib import Path


class TlsProblem(ValueError):
    """The certificate options cannot make a TLS context; the message is one line."""


def _readable(option: str, path: str) -> Path:
    file = Path(path)
    if not file.is_file():
        raise TlsProblem(f"{option} {path}: no such file")
    if not os.access(file, os.R_OK):
        raise TlsProblem(f"{option} {path}: not readable by this user")
    return file


def server_tls_context(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """The server's TLS context for the two files, None when neither is given, TlsProblem when
    only one is, or a file is missing, unreadable, or not a certificate and its key."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        raise TlsProblem("--certfile and --keyfile go together: give both, or neither")
    cert, key = _readable("--certfile", certfile), _readable("--keyfile", keyfile)
    # Python's server defaults: TLS 1.2 or newer, no compression, the library's cipher list.
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except ssl.SSLError as exc:
        detail = f" ({exc.reason})" if exc.reason and exc.reason != "PEM lib" else ""
        raise TlsProblem(
            f"--certfile {certfile} --keyfile {keyfile}: not a PEM certificate and its private "
            f"key{detail}"
        ) from None
    except OSError as exc:
        raise TlsProblem(f"--certfile/--keyfile: {exc.strerror or exc}") from None
    return context
