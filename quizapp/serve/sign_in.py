"""Signing in to `quizapp serve` on a class store: who is at the keyboard.

Before any app process starts, a browser signs in with a student's name and password (a plain
HTML form). The server checks them by connecting to PostgreSQL as that role
(quizapp/serve/credentials.py); on success it issues an unguessable token in a cookie
(HttpOnly, SameSite=Strict, Secure over TLS) that expires. The websocket of a tab without a
valid token is refused with 403, and a signed-in tab's app process runs as the student's role:
its URL names the role, its password goes in PGPASSWORD (never on a command line).

Against guessing: every answer to a sign-in takes at least MINIMUM_ANSWER_S, right or wrong,
and a wrong password reads exactly as an unknown name; an address with FAILURES_ALLOWED
failures in the last FAILURE_WINDOW_S gets 429 until the oldest ages out. Against cross-site
requests: the cookie is SameSite=Strict, and a POST whose Origin (or Referer) is not this
server's is refused.
"""

from __future__ import annotations

import asyncio
import html
import logging
import math
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web

from quizapp.serve.credentials import (
    NAME_MAX_CHARS,
    PASSWORD_MAX_CHARS,
    credentials_problem,
    password_is_right,
    student_url,
)

log = logging.getLogger("quizapp.serve")

SIGN_IN_PATH = "/sign-in"
COOKIE = "quizapp_session"
MINIMUM_ANSWER_S = 1.0
FAILURES_ALLOWED = 5
FAILURE_WINDOW_S = 60.0
SESSION_HOURS = 12.0  # a school day: then the student signs in again
# Bounds on the server's memory, whatever a crowd of clients sends.
MAX_ADDRESSES = 10_000  # failure records kept; the longest-quiet address goes first
MAX_SIGNED_IN = 10_000  # tokens kept; the oldest goes first
FORM_MAX_BYTES = 4096

WRONG = "Unknown name or wrong password."

PasswordCheck = Callable[[str, str, str], Awaitable[bool]]


@dataclass(frozen=True)
class SignedIn:
    """One browser's sign-in: the student's role and password, until `expires` (monotonic)."""

    student: str
    password: str
    expires: float

    def __repr__(self) -> str:  # never the password, in a log or a traceback
        return f"SignedIn(student={self.student!r})"


class FailureLimit:
    """Failed sign-ins per client address, in a sliding window, for a bounded table."""

    def __init__(
        self,
        allowed: int = FAILURES_ALLOWED,
        window_s: float = FAILURE_WINDOW_S,
        max_addresses: int = MAX_ADDRESSES,
    ) -> None:
        self.allowed = allowed
        self.window_s = window_s
        self.max_addresses = max_addresses
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def retry_after(self, address: str, now: float) -> int:
        """Seconds until `address` may try again; 0: it may now."""
        failures = self._failures.get(address)
        if failures is None:
            return 0
        while failures and failures[0] <= now - self.window_s:
            failures.popleft()
        if not failures:
            del self._failures[address]
            return 0
        if len(failures) < self.allowed:
            return 0
        return max(1, math.ceil(failures[0] + self.window_s - now))

    def failed(self, address: str, now: float) -> None:
        """Count a failure (at the start of every attempt: a burst of attempts in parallel is
        counted before any of them is answered)."""
        failures = self._failures.pop(address, None) or deque(maxlen=self.allowed)
        failures.append(now)
        self._failures[address] = failures  # the most recent failure last
        while len(self._failures) > self.max_addresses:
            self._failures.popitem(last=False)

    def forgive(self, address: str, at: float) -> None:
        """The attempt counted at `at` succeeded: it was no failure."""
        failures = self._failures.get(address)
        if failures is not None and at in failures:
            failures.remove(at)

    def __len__(self) -> int:
        return len(self._failures)


class SignIn:
    """The sign-in pages, and the signed-in browsers, of one server on the store at `store_url`.

    `session_argv(url, student)` is the app command line of a session as `student` on `url`
    (the store's URL with the student as its user and no password)."""

    def __init__(
        self,
        store_url: str,
        session_argv: Callable[[str, str], list[str]],
        *,
        check: PasswordCheck = password_is_right,
        minimum_answer_s: float = MINIMUM_ANSWER_S,
        limit: FailureLimit | None = None,
        secure_cookie: bool = False,
        public_hosts: frozenset[str] = frozenset(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store_url = store_url
        self.session_argv = session_argv
        self.check = check
        self.minimum_answer_s = minimum_answer_s
        self.limit = limit if limit is not None else FailureLimit()
        self.secure_cookie = secure_cookie
        self.public_hosts = public_hosts  # host:port browsers reach the server at, behind a proxy
        self.clock = clock
        self.signed_in: OrderedDict[str, SignedIn] = OrderedDict()

    # -- the signed-in browsers ------------------------------------------------------------------

    def session_of(self, request: web.Request) -> SignedIn | None:
        """Whose browser sent `request`: its cookie's token, if it is one this server issued
        and it has not expired."""
        token = request.cookies.get(COOKIE, "")
        signed_in = self.signed_in.get(token) if token else None
        if signed_in is None:
            return None
        if signed_in.expires <= self.clock():
            del self.signed_in[token]
            return None
        return signed_in

    def app_command(self, signed_in: SignedIn) -> tuple[list[str], dict[str, str]]:
        """A signed-in session's app command line and the environment it adds: the student's
        role in the URL (and as --student), the password in PGPASSWORD only."""
        url = student_url(self.store_url, signed_in.student)
        # QUIZAPP_DB too: the server's own (the owner's URL) must not reach a student's process.
        environment = {"QUIZAPP_DB": url, "PGPASSWORD": signed_in.password}
        return self.session_argv(url, signed_in.student), environment

    def _issue(self, student: str, password: str) -> str:
        now = self.clock()
        for token in [t for t, s in self.signed_in.items() if s.expires <= now]:
            del self.signed_in[token]
        token = secrets.token_urlsafe(32)
        self.signed_in[token] = SignedIn(student, password, now + SESSION_HOURS * 3600)
        while len(self.signed_in) > MAX_SIGNED_IN:
            self.signed_in.popitem(last=False)
        return token

    # -- the pages -----------------------------------------------------------------------------

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get(SIGN_IN_PATH, self.handle_form)
        app.router.add_post(SIGN_IN_PATH, self.handle_sign_in)

    async def handle_form(self, request: web.Request) -> web.Response:
        return sign_in_page()

    async def handle_sign_in(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request, self.public_hosts):
            log.warning("sign-in refused: a form posted from another site (%s)", _from(request))
            return sign_in_page("This sign-in came from another site.", status=403)
        address = request.remote or "unknown"
        started = self.clock()
        wait = self.limit.retry_after(address, started)
        if wait:
            return _too_many(wait)
        if (request.content_length or 0) > FORM_MAX_BYTES:
            return sign_in_page(WRONG, status=413)
        self.limit.failed(address, started)
        form = await request.post()
        name, password = str(form.get("student", "")), str(form.get("password", ""))
        right = credentials_problem(name, password) is None and await self.check(
            self.store_url, name, password
        )
        # The same least time for every answer: how long a check took tells nothing.
        await asyncio.sleep(max(0.0, started + self.minimum_answer_s - self.clock()))
        if not right:
            return sign_in_page(WRONG, status=401)
        self.limit.forgive(address, started)
        log.info("signed in: %s from %s", name, address)
        response = web.Response(status=303, headers={"Location": "/"})
        response.set_cookie(
            COOKIE,
            self._issue(name, password),
            max_age=int(SESSION_HOURS * 3600),
            path="/",
            httponly=True,
            samesite="Strict",
            secure=self.secure_cookie or request.secure,
        )
        return response


def same_origin(request: web.Request, public_hosts: frozenset[str] = frozenset()) -> bool:
    """Whether the browser says the form was on this server's page: its Origin, else its
    Referer, names the host and port the request was sent to (or one of `public_hosts`).
    Neither header: refused."""
    sent_from = request.headers.get("Origin") or request.headers.get("Referer") or ""
    host = urlsplit(sent_from).netloc.lower()
    return bool(host) and (host == request.host.lower() or host in public_hosts)


def _from(request: web.Request) -> str:
    return repr((request.headers.get("Origin") or request.headers.get("Referer") or "")[:100])


def _too_many(retry_after: int) -> web.Response:
    page = sign_in_page(
        f"Too many failed sign-ins from this address: try again in {retry_after} seconds.",
        status=429,
    )
    page.headers["Retry-After"] = str(retry_after)
    return page


def sign_in_page(message: str | None = None, *, status: int = 200) -> web.Response:
    said = f"<p role='alert'><strong>{html.escape(message)}</strong></p>" if message else ""
    body = (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<title>Sign in to quizapp</title></head>"
        "<body style='font-family: sans-serif; max-width: 24em; margin: 3em auto; padding: 0 1em'>"
        f"<h1>Sign in to quizapp</h1>{said}"
        f"<form method='post' action='{SIGN_IN_PATH}'>"
        "<p><label>Student name<br><input name='student' id='student' required "
        f"autocomplete='username' maxlength='{NAME_MAX_CHARS}'></label></p>"
        "<p><label>Password<br><input name='password' id='password' type='password' required "
        f"autocomplete='current-password' maxlength='{PASSWORD_MAX_CHARS}'></label></p>"
        "<p><button type='submit'>Sign in</button></p></form></body></html>\n"
    )
    return web.Response(
        text=body,
        status=status,
        content_type="text/html",
        # The page is never framed by another site (clickjacking), nor cached.
        headers={"X-Frame-Options": "DENY", "Cache-Control": "no-store"},
    )
