"""The home screen's exam line: "Exam in N days · predicted P% (80%: a–b, from Q of T
questions) · today: K cards, about M min", or "not enough evidence yet: answer N more
questions for a forecast" in place of the prediction. Hidden without an exam date; worked out off the UI thread (the forecast takes
a moment) whenever the home screen's counts are refreshed while it is on screen."""

from __future__ import annotations

from textual import work
from textual.widgets import Static


class ReadinessLine(Static):
    DEFAULT_CSS = """
    ReadinessLine {
        height: auto;
        padding: 0 1;
        background: $primary-muted;
        color: $text;
        display: none;
    }
    ReadinessLine.-shown { display: block; }
    """

    def __init__(self) -> None:
        super().__init__("", markup=False, id="readiness-line")

    def refresh_line(self) -> None:
        settings = getattr(self.app, "settings", None)
        if settings is None or settings.exam_date is None:
            self.show("")
            return
        if not self.screen.is_current:
            return  # worked out again when the home screen is back
        self._work_out()

    @work(thread=True, exclusive=True, group="readiness-line")
    def _work_out(self) -> None:
        from quizapp.srs.readiness.interrupt import Interrupted
        from quizapp.tui.screens.readiness import load_readiness

        try:
            report = load_readiness(self.app)
        except Interrupted:
            return  # the app is ending: nothing to show
        except Exception as exc:  # never take the home screen down over a forecast
            line = f"Exam forecast unavailable: {type(exc).__name__}: {exc}"
        else:
            line = report.home_line() if report is not None else ""
        self.app.call_from_thread(self.show, line)

    def show(self, line: str) -> None:
        self.update(line)
        self.set_class(bool(line), "-shown")
