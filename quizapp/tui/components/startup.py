"""Start-up: what runs once the first layout is done, and what waits for the first frame.

Whatever would compete with the first frame for the GIL (opening the history's writer
thread, importing torch) starts only once that frame is out (quizapp/tui/components/first_frame.py), so
the student never stares at a blank terminal. The timings are kept on the app for tests and
`bench/bench_startup.py`.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from quizapp import STARTED_AT
from quizapp.tui.components.first_frame import after_first_frame, log_startup
from quizapp.tui.components.theme_memory import remember_theme_picks

if TYPE_CHECKING:
    from quizapp.tui.components.host import AppHost


def on_first_layout(app: AppHost) -> None:
    """Textual's Ready: the first layout is done, and the frame is on its way to the terminal."""
    app.startup_seconds = time.perf_counter() - STARTED_AT
    app.torch_loaded_at_first_screen = "torch" in sys.modules
    # Cheap (a signal subscription; nothing is read until a theme is picked), and a pick
    # made before the first frame is out must be remembered too.
    remember_theme_picks(app, app.options.config_path)
    if app.options.start == "exam":
        app.start_exam(**app.options.exam)
    elif app.options.start == "preview":
        app.start_preview()
    after_first_frame(app, lambda: after_first_frame_out(app))


def after_first_frame_out(app: AppHost) -> None:
    """Open the history (its writer thread), watch the bank files, and import torch."""
    from quizapp.tui.components.live_reload import start_watching

    app.first_frame_seconds = time.perf_counter() - STARTED_AT
    log_startup(app, app.startup_seconds or 0.0, app.first_frame_seconds, "torch" in sys.modules)
    app.history_writes.start()
    start_watching(app)
    if app.options.start in ("drill", "traps"):
        # A drill is built from the history: without one there is nothing to drill.
        from quizapp.tui.components.trap_drill import opening_drill

        app.history_writes.when_open(opening_drill(app), lambda: app.exit(return_code=1))
    if app.options.warm_up:
        app.run_worker(app.lab.warm_up, thread=True, name="torch warm-up", group="warm-up")
