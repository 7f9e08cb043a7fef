"""What one browser session may ask of the server and of its app process.

The terminal size reaches the app twice: in the websocket's URL (`?width=&height=`, the size of
the first screen) and in every "resize" message. The app allocates its screen at that size, so
a size of 10**7 columns makes one session take gigabytes; both are clamped to TERMINAL_CELLS.
A message over MAX_MESSAGE_BYTES closes its session (aiohttp refuses the frame from its header,
before reading it), and a message that is not one of textual-serve's envelopes is ignored.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError

from quizapp.bank.literal import terminal_safe

log = logging.getLogger("quizapp.serve")

# A 4K screen in a small font is about 480 x 135 cells; a session smaller than 20 x 10 cannot
# show a question.
MIN_WIDTH, MAX_WIDTH = 20, 500
MIN_HEIGHT, MAX_HEIGHT = 10, 200
DEFAULT_WIDTH, DEFAULT_HEIGHT = 80, 24
# A keystroke is a few bytes, a paste of an answer a few kilobytes.
MAX_MESSAGE_BYTES = 64 * 1024

DECIMAL = re.compile(r"(-?)([0-9]+)")


@dataclass(frozen=True)
class TerminalSize:
    width: int
    height: int


def cells(value: object, low: int, high: int) -> int | None:
    """`value` (a number, or its decimal text) clamped to low..high; None when it is no number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        decimal = DECIMAL.fullmatch(value.strip())
        if decimal is None:
            return None
        # Not int() of a long text: its digits are counted, not converted (a URL of 10**6
        # digits is cheap to send).
        sign, digits = decimal.groups()
        value = int(sign + digits) if len(digits) <= 9 else (low if sign else high)
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        value = int(value)
    if not isinstance(value, int):
        return None
    return max(low, min(high, value))


def url_size(query: Mapping[str, str]) -> TerminalSize:
    """The first screen's size from the websocket URL: clamped, 80 x 24 where not a number."""
    width = cells(query.get("width", ""), MIN_WIDTH, MAX_WIDTH)
    height = cells(query.get("height", ""), MIN_HEIGHT, MAX_HEIGHT)
    return TerminalSize(width or DEFAULT_WIDTH, height or DEFAULT_HEIGHT)


def resize_size(data: object) -> TerminalSize | None:
    """A resize message's size, clamped; None (the message is ignored) where it has none."""
    if not isinstance(data, dict):
        return None
    width = cells(data.get("width"), MIN_WIDTH, MAX_WIDTH)
    height = cells(data.get("height"), MIN_HEIGHT, MAX_HEIGHT)
    if width is None or height is None:
        return None
    return TerminalSize(width, height)


def envelope(text: str) -> tuple[str, object] | None:
    """A message's [type, data] envelope, or None when it is not one."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a number too long, nested too deep
        return None
    if not isinstance(parsed, list) or not parsed or not isinstance(parsed[0], str):
        return None
    return parsed[0], parsed[1] if len(parsed) > 1 else None


class AppSession(Protocol):
    """What the messages drive: textual-serve's AppService."""

    async def send_bytes(self, data: bytes) -> bool: ...
    async def set_terminal_size(self, width: int, height: int) -> None: ...
    async def blur(self) -> None: ...
    async def focus(self) -> None: ...


async def process_messages(websocket: web.WebSocketResponse, app: AppSession, session: str) -> None:
    """textual-serve's message loop, with every message bounded; returns when the session ends.
    `session` names it in the log."""
    async for message in websocket:
        if message.type == WSMsgType.ERROR:
            # aiohttp's own limit (max_msg_size) or a broken frame: it has closed the socket.
            log.warning("closed session %s: %s", session, terminal_safe(message.data))
            return
        if message.type != WSMsgType.TEXT:
            continue
        size = len(message.data.encode("utf-8"))
        if size > MAX_MESSAGE_BYTES:
            log.warning(
                "closed session %s: a message of %d bytes, over the limit of %d",
                session,
                size,
                MAX_MESSAGE_BYTES,
            )
            await websocket.close(code=WSCloseCode.MESSAGE_TOO_BIG, message=b"message too big")
            return
        parsed = envelope(message.data)
        if parsed is None:
            continue
        kind, data = parsed
        if kind == "stdin" and isinstance(data, str):
            await app.send_bytes(data.encode("utf-8"))
        elif kind == "resize":
            size_asked = resize_size(data)
            if size_asked is not None:
                await app.set_terminal_size(size_asked.width, size_asked.height)
        elif kind == "ping":
            await websocket.send_json(["pong", data])
        elif kind == "blur":
            await app.blur()
        elif kind == "focus":
            await app.focus()


class MalformedRequestsInOneLine(logging.Filter):
    """aiohttp logs a request it cannot parse (a header with a control character, say) with a
    traceback: anyone who can reach the port could fill the server's terminal with them. Such a
    request is answered 400 and logged as one line, its content escaped."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            why = terminal_safe(" ".join(str(error.message).split()))
            record.msg, record.args = "refused a malformed request: %s", (why[:300],)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def log_malformed_requests_in_one_line() -> None:
    logging.getLogger("aiohttp.server").addFilter(MalformedRequestsInOneLine())
