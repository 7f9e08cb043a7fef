"""A database URL's password kept out of everything printed.

libpq reads a password from two places in a URL: the user info (`postgresql://ada:pw@host/db`)
and the query (`?password=pw`, or `&password=pw` after another parameter; `sslpassword` holds
the client key's). Both are masked: `postgresql://ada:***@host/db?sslmode=require&password=***`.
libpq's own messages can quote the URL, or the token it could not read (which may be the
password), so a driver's message about a URL is masked too (`redacted_message`).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

MASK = "***"
SECRET_PARAMETERS = frozenset({"password", "sslpassword"})
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def redacted(url: str) -> str:
    """The URL with every password masked, to print. Text that is not a URL (a SQLite file's
    path) comes back as it was."""
    scheme = _SCHEME.match(url)
    if scheme is None:
        return url
    rest = url[scheme.end() :]
    shown, shown_up_to = [], 0
    for start, end in _merged(_secret_spans(rest)):
        shown += [rest[shown_up_to:start], MASK]
        shown_up_to = end
    return scheme.group() + "".join(shown) + rest[shown_up_to:]


def passwords(url: str) -> set[str]:
    """Every password the URL holds, as written and percent-decoded (never "")."""
    scheme = _SCHEME.match(url)
    if scheme is None:
        return set()
    rest = url[scheme.end() :]
    found = {rest[start:end] for start, end in _secret_spans(rest)}
    as_libpq_reads_it = rest.split("@", 1)[0]  # libpq's user info ends at the first "@"
    if "@" in rest and ":" in as_libpq_reads_it:
        found.add(as_libpq_reads_it.split(":", 1)[1])
    return {form for secret in found for form in (secret, unquote(secret)) if form}


def redacted_message(text: str, url: str) -> str:
    """A driver's message about `url` with none of the URL's passwords in it, in whatever
    form libpq quoted them: the whole URL, or the token it choked on."""
    message = text.replace(url, redacted(url))
    for secret in sorted(passwords(url), key=len, reverse=True):  # "ab%41" before "ab"
        message = message.replace(secret, MASK)
    return message


def _secret_spans(rest: str) -> list[tuple[int, int]]:
    """Where in the URL after its scheme a password may be, generously: masking a host or a
    parameter too is better than showing part of a password that holds "@", "?" or "/"."""
    spans = []
    # The user info: from its first ":" to the last "@" (libpq stops at the first "@").
    userinfo, at, _hosts = rest.rpartition("@")
    if at and ":" in userinfo:
        spans.append((userinfo.index(":") + 1, len(userinfo)))
    # A password parameter after any "?" or "&", so a "?" inside a password cannot hide one.
    for start in (index + 1 for index, char in enumerate(rest) if char in "?&"):
        name, equals, _tail = rest[start:].partition("=")
        # libpq percent-decodes a parameter's name as well as its value.
        if equals and "&" not in name and unquote(name).strip().lower() in SECRET_PARAMETERS:
            value_start = start + len(name) + 1
            value_end = rest.find("&", value_start)
            spans.append((value_start, len(rest) if value_end < 0 else value_end))
    return spans


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
