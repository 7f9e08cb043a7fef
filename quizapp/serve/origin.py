"""Which pages may open a session: the websocket's `Origin` against the server's own.

A browser sends `Origin` with every websocket handshake, and a page cannot change it. Without a
check, any site a student visits could open a session on the class server in the student's name
and drive it (cross-site websocket hijacking; OWASP). So a websocket is accepted only from:

- the page's own origin as the browser reached the server: the request's scheme with its `Host`
  header (X-Forwarded-* headers are not read: anyone can send them, and behind a proxy the origin
  to trust is given as --public-url or --allowed-origin instead);
- the origin of --public-url, the address the page itself tells browsers to connect to;
- each origin given with --allowed-origin.

`Host` is trusted only as one of the server's own names (an IP address, a loopback name, the
host it listens on, or the host of --public-url or an --allowed-origin). Otherwise a site could
point its own DNS name at the server's address (DNS rebinding): its page would then be
same-origin with `Host` and pass the check.

A handshake without `Origin` is accepted: browsers always send one, so it comes from a program
(curl, a script), which can write any `Origin` it likes and holds no student's cookies or
network position it would borrow. The check defends students' browsers, not the server against
its clients.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})


class BadOrigin(ValueError):
    """An --allowed-origin that is not scheme://host[:port]."""


def parse_origin(text: str) -> str:
    """`text` as a normalized origin (lower case, default port left out), or BadOrigin.

    An origin is exactly scheme://host[:port]: http or https, no path, query, fragment, user
    or spaces, as browsers send it.
    """
    if not text or any(c.isspace() or not c.isprintable() for c in text):
        raise BadOrigin(f"expected scheme://host[:port], not {text!r}")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise BadOrigin(
            f"expected scheme://host[:port] with a port from 1 to 65535, not {text!r}"
        ) from None
    scheme = parts.scheme.lower()
    if (
        scheme not in DEFAULT_PORTS
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
        or text.endswith(("?", "#"))
        or port == 0
    ):
        raise BadOrigin(
            f"expected scheme://host[:port] (http or https, nothing after the port), not {text!r}"
        )
    return _origin(scheme, parts.hostname, port)


def _origin(scheme: str, hostname: str, port: int | None) -> str:
    host = hostname.lower()
    if ":" in host:  # an IPv6 address is written in brackets
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _hostname_and_port(parts: SplitResult) -> tuple[str, int | None] | None:
    try:
        return (parts.hostname or "", parts.port)
    except ValueError:
        return None


def is_loopback_name(hostname: str) -> bool:
    if hostname.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False


def _is_address(hostname: str) -> bool:
    try:
        ipaddress.ip_address(hostname)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class OriginPolicy:
    """The origins a websocket may come from, and the names the server answers to."""

    allowed: frozenset[str]
    own_names: frozenset[str]

    @classmethod
    def build(
        cls, *, listen_host: str, public_url: str | None, allowed_origins: Iterable[str]
    ) -> OriginPolicy:
        allowed = {parse_origin(origin) for origin in allowed_origins}
        if public_url is not None:
            parts = urlsplit(public_url)
            known = _hostname_and_port(parts)
            if known is not None and parts.scheme in DEFAULT_PORTS and known[0]:
                allowed.add(_origin(parts.scheme, *known))
        names = {listen_host.lower()} | {urlsplit(origin).hostname or "" for origin in allowed}
        return cls(frozenset(allowed), frozenset(names - {""}))

    def refusal(self, origin: str | None, host: str | None, scheme: str) -> str | None:
        """Why a websocket with these headers is refused, or None when it is accepted."""
        if origin is None:
            return None  # not a browser: see the module's docstring
        try:
            normalized = parse_origin(origin)
        except BadOrigin:
            return "its Origin is not an http(s) origin"
        if normalized in self.allowed:
            return None
        own = self._own_origin(host, scheme)
        if own is None:
            return "its Host is not a name of this server"
        if normalized == own:
            return None
        if _same_loopback_port(normalized, own):
            return None
        return "its Origin is another site"

    def _own_origin(self, host: str | None, scheme: str) -> str | None:
        """The page's own origin, from the Host header, when Host is one of this server's
        names (an address, a loopback name, or a name it was given)."""
        if not host or scheme not in DEFAULT_PORTS:
            return None
        known = _hostname_and_port(urlsplit(f"{scheme}://{host}"))
        if known is None or not known[0]:
            return None
        hostname, port = known
        if not (_is_address(hostname) or is_loopback_name(hostname) or hostname in self.own_names):
            return None
        return _origin(scheme, hostname, port)


def _same_loopback_port(origin: str, own: str) -> bool:
    """`localhost` and `127.0.0.1` at one port are the same server: a student who types either
    name reaches the page, whose websocket goes to the address the server prints."""
    first, second = urlsplit(origin), urlsplit(own)
    return (
        first.scheme == second.scheme
        and is_loopback_name(first.hostname or "")
        and is_loopback_name(second.hostname or "")
        and first.port == second.port
    )


def shown(header: str | None) -> str:
    """A header as it may be logged: control characters escaped, and cut to a line's length."""
    if header is None:
        return "(none)"
    # repr escapes control characters and invisible ones (a bidirectional override) alike.
    return repr(header[:200]) + ("…" if len(header) > 200 else "")
