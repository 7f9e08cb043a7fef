"""textual-serve's server with what a class needs: an app process started from an argument
list (never through a shell), a session limit that answers with a page instead of a hang,
every app process ended when its tab closes or the server stops, a websocket accepted only
from the server's own pages (origin.py), and sizes and messages bounded (bounds.py).

textual-serve (1.1) starts `command` with a shell and ends a process by asking it to quit and
waiting without a deadline; both are replaced here. The websocket handler is textual-serve's
own, with the session count and the argument-list process around it. Its page asks Google for
its font; this one serves the copy textual-serve ships, so a student's browser asks nothing of
any other site.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
import re
import shlex
import signal
import ssl
from collections.abc import Mapping, Sequence
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, hdrs, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from quizapp.serve.bounds import (
    MAX_MESSAGE_BYTES,
    log_malformed_requests_in_one_line,
    process_messages,
    url_size,
)
from quizapp.serve.origin import OriginPolicy, shown
from quizapp.serve.sign_in import SIGN_IN_PATH, SignIn

log = logging.getLogger("quizapp.serve")

# How long an app process has to quit once asked (it saves what is left to save first), and
# then to end once told to with SIGTERM, before it is killed.
QUIT_SECONDS = 15.0
TERMINATE_SECONDS = 5.0

FULL_TITLE = "quizapp is full"

INDEX_TEMPLATE = "app_index.html"
# textual-serve's page loads Roboto Mono from fonts.googleapis.com; it ships the font itself.
GOOGLE_FONTS_LINK = re.compile(
    r"<link\s[^>]*href=[\"']https?://fonts\.(?:googleapis|gstatic)\.com/[^>]*>", re.IGNORECASE
)
LOCAL_FONTS = """<style>
      @font-face {
        font-family: "Roboto Mono";
        font-style: normal;
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
      }
      @font-face {
        font-family: "Roboto Mono";
        font-style: italic;
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf")
          format("truetype");
      }
    </style>"""
# A URL the page would fetch from elsewhere: an attribute or url() that is absolute, not built
# from the server's own {{ config.static.url }}.
OUTSIDE_FETCH = re.compile(
    r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//"""
)


class ThirdPartyPage(RuntimeError):
    """textual-serve's page fetches something from another site, and it is not the font."""


def local_index_page(templates_path: Path) -> str:
    """textual-serve's page template, with its fonts served by this server."""
    page = GOOGLE_FONTS_LINK.sub(LOCAL_FONTS, (templates_path / INDEX_TEMPLATE).read_text())
    outside = OUTSIDE_FETCH.search(page)
    if outside:
        raise ThirdPartyPage(
            f"textual-serve's {INDEX_TEMPLATE} fetches from another site "
            f"({page[outside.start() : outside.start() + 60]!r}); quizapp serves no such page"
        )
    return page


def full_message(max_sessions: int) -> str:
    in_use = (
        f"All {max_sessions} sessions are in use"
        if max_sessions > 1
        else "The one session this server allows is in use"
    )
    return f"{in_use}. Close a quizapp tab you no longer need, or try again in a minute."


class AppProcess(AppService):
    """One tab's app process: started from `argv` in its own session (a Ctrl+C in the server's
    terminal reaches the server only, which then ends each app in order), and ended within
    deadlines."""

    def __init__(
        self, argv: Sequence[str], environment: Mapping[str, str], **kwargs: object
    ) -> None:
        super().__init__(shlex.join(argv), **kwargs)  # type: ignore[arg-type]
        self.argv = list(argv)
        self.extra_environment = dict(environment)
        self._ending: asyncio.Future[None] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment.update(self.extra_environment)
        return environment

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the app to quit, then make sure it has ended: SIGTERM after QUIT_SECONDS, SIGKILL
        after TERMINATE_SECONDS more. Safe to call more than once and from more than one task
        (a closing tab and the server's own shutdown both do): they wait on one shutdown, and a
        caller that is cancelled does not cut it short."""
        if self._process is None:
            return
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(self._process))
        await asyncio.shield(self._ending)

    async def _end(self, process: asyncio.subprocess.Process) -> None:
        loop = asyncio.get_running_loop()
        quit_by = loop.time() + QUIT_SECONDS
        try:
            await asyncio.wait_for(super().stop(), QUIT_SECONDS)
        except TimeoutError:
            pass
        except Exception as error:  # its pipe already closed, say: the ladder below still runs
            log.warning("app process %s: asking it to quit failed: %s", process.pid, error)
        # The app's output can end before the app does (it is still saving, say): what is left
        # of QUIT_SECONDS is its to finish in.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), max(0.0, quit_by - loop.time()))
        for sig, seconds in ((signal.SIGTERM, TERMINATE_SECONDS), (signal.SIGKILL, None)):
            if process.returncode is not None:
                break
            log.warning("app process %s did not quit; sending %s", process.pid, sig.name)
            # The whole group: a child the app started (e.g. an optimizer run) goes too.
            # The group leader is not reaped yet, so its id cannot have been reused.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), seconds)
        # Its pipes, now: left to the garbage collector they are closed after the event loop,
        # which asyncio reports as an error on the way out.
        transport = getattr(process, "_transport", None)
        if transport is not None:
            transport.close()


class QuizServer(Server):
    """Serves `argv` (an app command line) to browsers, one process per tab, at most
    `max_sessions` at once."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        host: str,
        port: int,
        max_sessions: int,
        public_url: str | None = None,
        environment: Mapping[str, str] | None = None,
        title: str = "quizapp",
        sign_in: SignIn | None = None,
        allowed_origins: Sequence[str] = (),
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title=title, public_url=public_url)
        self.argv = list(argv)
        self.environment = dict(environment or {})
        self.max_sessions = max_sessions
        self.sessions: dict[AppProcess, web.WebSocketResponse] = {}
        # Counted from the moment a websocket is accepted until its process has ended, so a
        # burst of tabs cannot start more processes than the limit.
        self.open_sessions = 0
        self.index_page = local_index_page(Path(self.templates_path))
        # A class store: each browser signs in, and its app runs as that student's role.
        self.sign_in = sign_in
        self.origin_policy = OriginPolicy.build(
            listen_host=host, public_url=self.public_url, allowed_origins=allowed_origins
        )
        self.ssl_context = ssl_context

    @property
    def full(self) -> bool:
        return self.open_sessions >= self.max_sessions

    def app_pids(self) -> list[int]:
        return [pid for service in self.sessions if (pid := service.pid) is not None]

    async def handle_index(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        if self.sign_in is not None and self.sign_in.session_of(request) is None:
            return web.Response(status=303, headers={"Location": SIGN_IN_PATH})
        if self.full:
            return _full_page(self.max_sessions)
        return await super().handle_index(request)  # type: ignore[misc]

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        origin = request.headers.get(hdrs.ORIGIN)
        host = request.headers.get(hdrs.HOST)
        refusal = self.origin_policy.refusal(origin, host, request.scheme)
        if refusal is not None:  # before any process starts: a foreign page drives nothing
            log.warning(
                "refused a websocket from %s: %s (Origin %s, Host %s)",
                request.remote,
                refusal,
                shown(origin),
                shown(host),
            )
            raise web.HTTPForbidden(text=f"quizapp serve: websocket refused: {refusal}\n")
        argv, environment = self.argv, self.environment
        if self.sign_in is not None:
            signed_in = self.sign_in.session_of(request)
            if signed_in is None:
                log.warning("websocket refused: not signed in (from %s)", request.remote)
                raise web.HTTPForbidden(text="Sign in first.")
            argv, student_environment = self.sign_in.app_command(signed_in)
            environment = {**environment, **student_environment}
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE_BYTES)
        size = url_size(request.query)
        if self.full:
            # The page was served while a slot was free, and the slot went to another tab
            # before this one connected: say so in the terminal, then close.
            await websocket.prepare(request)
            text = f"\r\n  {FULL_TITLE}.\r\n\r\n  {full_message(self.max_sessions)}\r\n"
            await websocket.send_bytes(text.encode("utf-8"))
            await websocket.close()
            return websocket
        self.open_sessions += 1
        app_service: AppProcess | None = None
        try:
            await websocket.prepare(request)
            app_service = AppProcess(
                argv,
                environment,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            self.sessions[app_service] = websocket
            await app_service.start(size.width, size.height)
            await process_messages(websocket, app_service, f"of app process {app_service.pid}")
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.exception(error)
        finally:
            if app_service is not None:
                await app_service.stop()
                self.sessions.pop(app_service, None)
            self.open_sessions -= 1
        return websocket

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        # The page from memory, with its fonts local (local_index_page).
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({INDEX_TEMPLATE: self.index_page}))
        if self.sign_in is not None:
            self.sign_in.add_routes(app)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: textual-serve prints its logo here, before the port is open."""

    def _say_listening(self, *_aiohttp_banner: object) -> None:
        print(
            f"quizapp serve: {self.public_url} (up to {self.max_sessions} sessions; "
            "Ctrl+C to stop)",
            flush=True,
        )

    async def on_shutdown(self, app: web.Application) -> None:
        """End every app process, then close the tabs' websockets."""
        services = list(self.sessions.items())
        await asyncio.gather(*(service.stop() for service, _ in services))
        await asyncio.gather(
            *(
                websocket.close(code=WSCloseCode.GOING_AWAY, message=b"quizapp serve stopped")
                for _, websocket in services
            ),
            return_exceptions=True,
        )

    def serve(self, debug: bool = False) -> None:
        """Run until SIGINT or SIGTERM; every app process has ended when this returns."""
        self.debug = debug
        logging.basicConfig(level=logging.WARNING, format="quizapp serve: %(message)s")
        log_malformed_requests_in_one_line()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.request_exit)
        web.run_app(
            self._make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=self._say_listening,  # called once every address is listening
            ssl_context=self.ssl_context,
            access_log=None,
            # on_shutdown has ended the apps and closed their sockets: nothing to wait for.
            shutdown_timeout=5,
        )


def _full_page(max_sessions: int) -> web.Response:
    message = html.escape(full_message(max_sessions))
    body = (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{FULL_TITLE}</title></head>"
        "<body style='font-family: sans-serif; max-width: 36em; margin: 3em auto; padding: 0 1em'>"
        f"<h1>{FULL_TITLE}</h1><p>{message}</p>"
        "<p><a href='/'>Try again</a></p></body></html>\n"
    )
    return web.Response(
        text=body, status=503, content_type="text/html", headers={"Retry-After": "60"}
    )
