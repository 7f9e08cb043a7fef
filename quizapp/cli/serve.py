"""`quizapp serve`: the app in browsers, one app process per tab (quizapp/serve/)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.bank.literal import error_line, terminal_safe
from quizapp.cli import flag_types

if TYPE_CHECKING:
    from quizapp.serve.session import SessionOptions
    from quizapp.serve.sign_in import SignIn
    from quizapp.srs.store.history import HistoryLocation, PostgresLocation, StudentToAsk

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def _public_url(text: str) -> str:
    if not text.startswith(("http://", "https://")) or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"expected an http:// or https:// URL, not {text!r}")
    return text.rstrip("/")


def _allowed_origin(text: str) -> str:
    from quizapp.serve.origin import BadOrigin, parse_origin

    try:
        return parse_origin(text)
    except BadOrigin as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_serve_command(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from quizapp.serve.capacity import SESSION_MB_WITH_TORCH

    serve = commands.add_parser(
        "serve",
        help="serve the app to web browsers (textual-serve)",
        description="Serve the app to web browsers: each tab runs its own app process with "
        "the options given here. On a SQLite history every tab uses the one history, as the "
        "terminal app does; on a class's PostgreSQL store each browser signs in as its student "
        "and runs as that student's database role.",
    )
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    serve.add_argument(
        "--port", type=flag_types.PORT, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}"
    )
    serve.add_argument(
        "--public-url",
        type=_public_url,
        metavar="URL",
        help="the address browsers reach the server at, behind a proxy (default http://HOST:PORT)",
    )
    serve.add_argument(
        "--max-sessions",
        type=flag_types.SESSIONS,
        metavar="N",
        help="tabs served at once; more get a page saying the class is full (default: as "
        f"many as the memory holds at {SESSION_MB_WITH_TORCH} MiB a session)",
    )
    serve.add_argument(
        "--allowed-origin",
        type=_allowed_origin,
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a site (scheme://host[:port]) whose pages may open sessions, besides the server's "
        "own address and --public-url's; repeatable",
    )
    serve.add_argument(
        "--certfile",
        metavar="FILE",
        help="serve over HTTPS with this certificate chain (PEM); needs --keyfile",
    )
    serve.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM)")
    serve.add_argument(
        "--insecure-http",
        action="store_true",
        help="allow plain HTTP on an address other than this machine's loopback: passwords "
        "and answers cross the network in clear (a TLS proxy in front is the way to need this)",
    )
    return serve


def is_loopback(host: str) -> bool:
    import ipaddress  # here: the parser is built on every quizapp run, before the first frame

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run_serve(args: argparse.Namespace, location: HistoryLocation | StudentToAsk) -> int:
    """Serve until SIGINT or SIGTERM. The app options have been checked (the bank loads) and
    name the history at `location`."""
    from quizapp.serve.capacity import default_max_sessions
    from quizapp.serve.server import QuizServer, ThirdPartyPage
    from quizapp.serve.session import SessionOptions, session_argv, session_environment

    environment = session_environment(dict(os.environ))
    if isinstance(location, Path):
        # The one local history, as in the terminal. Absolute, so a session reads the same
        # file whatever its working folder.
        db = str(Path(args.db).resolve()) if args.db else None
    else:
        # The class's shared store: every browser signs in, and runs as its student's role.
        if args.student:
            message = (
                "--student: on a shared history each browser signs in as its student; "
                "serve it without --student"
            )
            print(error_line("quizapp serve", message), file=sys.stderr)
            return 2
        db = None  # each session's is its student's (quizapp/serve/sign_in.py)
    from quizapp.serve.tls import TlsProblem, server_tls_context

    try:
        ssl_context = server_tls_context(args.certfile, args.keyfile)
    except TlsProblem as exc:
        print(error_line("quizapp serve", exc), file=sys.stderr)
        return 2
    if ssl_context is None and not is_loopback(args.host):
        if not args.insecure_http:
            message = (
                f"--host {args.host}: plain HTTP beyond this machine sends answers (and "
                "passwords) in clear; give --certfile and --keyfile, or serve on 127.0.0.1 "
                "behind a TLS proxy, or --insecure-http on a network you trust"
            )
            print(error_line("quizapp serve", message), file=sys.stderr)
            return 2
        print(
            f"quizapp serve: warning: plain HTTP on {terminal_safe(args.host)} "
            "(--insecure-http): answers cross the network in clear",
            file=sys.stderr,
        )
    if not is_loopback(args.host) and isinstance(location, Path):
        print(_beyond_loopback_warning(args), file=sys.stderr)
    public_url = args.public_url
    if public_url is None and ssl_context is not None:
        host = f"[{args.host}]" if ":" in args.host else args.host
        public_url = f"https://{host}:{args.port}"
    options = SessionOptions(
        # Absolute, so a session reads the same files whatever its working folder.
        bank=tuple(str(Path(p).resolve()) for p in args.bank),
        no_default_bank=args.no_default_bank,
        db=db,
        device=args.device,
        theme=args.theme,
        length=args.length,
        default_parameters=args.default_parameters,
    )
    try:
        server = QuizServer(
            session_argv(options),
            host=args.host,
            port=args.port,
            max_sessions=args.max_sessions or default_max_sessions(),
            public_url=public_url,
            environment=environment,
            sign_in=None if isinstance(location, Path) else _sign_in(args, location, options),
            allowed_origins=args.allowed_origin,
            ssl_context=ssl_context,
        )
    except ThirdPartyPage as exc:  # a textual-serve whose page would send students elsewhere
        print(error_line("quizapp serve", exc), file=sys.stderr)
        return 1
    try:
        server.serve()
    except OSError as exc:  # the port is taken, or the address is not this machine's
        message = f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
        print(error_line("quizapp serve", message), file=sys.stderr)
        return 1
    return 0


def _beyond_loopback_warning(args: argparse.Namespace) -> str:
    """One student's own history served beyond this machine (a class store signs in)."""
    where = f"quizapp serve: warning: listening on {terminal_safe(args.host)}"
    return (
        f"{where}: anyone who can reach port {args.port} can use the app and its history "
        "(there is no login)"
    )


def _sign_in(
    args: argparse.Namespace, location: PostgresLocation | StudentToAsk, options: SessionOptions
) -> SignIn:
    """Sign-in for the class store at `location`: a session runs the app with `options` as
    the student who signed in, on their own role."""
    from dataclasses import replace
    from urllib.parse import urlsplit

    from quizapp.serve.session import session_argv
    from quizapp.serve.sign_in import SignIn

    def student_argv(url: str, student: str) -> list[str]:
        return session_argv(replace(options, db=url, student=student))

    public_url = args.public_url or ""
    return SignIn(
        location.url,
        student_argv,
        secure_cookie=public_url.startswith("https://"),
        public_hosts=frozenset({urlsplit(public_url).netloc.lower()} - {""}),
    )
