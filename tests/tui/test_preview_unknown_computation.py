"""`quizapp preview FILE` on a file with a question whose computation does not exist: the
other questions open, the broken one is not served, and the error shows on screen."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from quizapp.tui.components.reload import BankWatcher
from tests.bank.test_unknown_computation import write_deck
from tests.tui.test_preview import preview_app, quiz_screen
from tests.tui.test_reload import save
from tests.tui.test_sessions import drive, wait_for
from tests.tui.toasts import said


def test_preview_leaves_the_question_out_and_shows_why(tmp_path: Path) -> None:
    deck = write_deck(tmp_path)
    app = preview_app(str(deck))
    assert "q-typo" not in app.bank.questions

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        assert [q.id for q in screen.session.questions] == ["q-good"]
        await wait_for(pilot, lambda: "unknown computation" in "\n".join(said(app)))
        shown = "\n".join(said(app))
        assert f"{deck.name}:11:13" in shown and "'mha_param'" in shown

    drive(app, scenario)


def test_a_reloaded_file_is_held_to_the_same_names(tmp_path: Path) -> None:
    deck = write_deck(tmp_path)
    app = preview_app(str(deck))
    watcher = BankWatcher.start([deck], app.bank)
    save(deck, deck.read_text().replace("back: B", "back: C"))
    changed = watcher.poll()
    assert changed is not None
    assert list(changed.bank.questions) == ["q-good"]
    assert [d.code for d in changed.bank.errors] == ["unknown-computation"]
