"""What a lab run's worker thread tells the LabPanel: each message carries the token of the run
it belongs to, so that the panel can drop one from a cancelled or superseded run."""

from __future__ import annotations

from textual.message import Message

from quizapp.experiments.result import Result


class RunStarted(Message, bubble=False):
    """The lab is ready and the computation itself has begun."""

    def __init__(self, token: int) -> None:
        super().__init__()
        self.token = token


class CachedResult(Message, bubble=False):
    """A result an earlier run kept: shown, labelled, until the live run replaces it."""

    def __init__(self, token: int, result: Result) -> None:
        super().__init__()
        self.token = token
        self.result = result


class RunProgress(Message, bubble=False):
    def __init__(self, token: int, fraction: float, text: str) -> None:
        super().__init__()
        self.token = token
        self.fraction = fraction
        self.text = text


class RunEnded(Message, bubble=False):
    def __init__(
        self,
        token: int,
        *,
        result: Result | None = None,
        error: BaseException | None = None,
        cancelled: bool = False,
        elapsed: float = 0.0,
        trace: str = "",
    ) -> None:
        super().__init__()
        self.token = token
        self.result = result
        self.error = error
        self.cancelled = cancelled
        self.elapsed = elapsed
        self.trace = trace  # formatted in the worker, logged on the UI thread
