"""Live reload: the running app picks up saved bank files, keeps the last good version of a
broken one, and says where the problem is."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable

from quizapp.bank import load_bank
from quizapp.srs.config import Settings
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.components.reload import BankWatcher
from quizapp.tui.screens.home import ALL_DECKS, HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from tests.tui.test_sessions import drive, text_of, wait_for
from tests.tui.toasts import said

HEADER = """\
format: 1
deck:
  id: {deck}
  title: {title}
  topic: testing
  domain: Test domain
  exam_weight: 0.5
questions:
"""

CARD = """\
  - id: {qid}
    type: flashcard
    prompt: Front of {qid}
    back: Back of {qid}
    explanation: Because.
    difficulty: easy
    tags: [basics]
"""


def deck_text(deck: str, ids: list[str], title: str | None = None) -> str:
    return HEADER.format(deck=deck, title=title or deck.title()) + "".join(
        CARD.format(qid=qid) for qid in ids
    )


def save(path: Path, text: str) -> None:
    """Write as an editor would, and move the mtime on so even a same-size save is seen."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    now = max(path.stat().st_mtime_ns, before + 1_000_000)
    os.utime(path, ns=(now, now))


def make_app(folder: Path, **options: object) -> QuizApp:
    bank = load_bank([folder])
    return QuizApp(
        bank,
        AppOptions(  # type: ignore[arg-type]
            device="cpu",
            shuffle=False,
            warm_up=False,
            bank_paths=(folder,),
            watch_interval=0.1,
            **options,
        ),
    )


def home(app: QuizApp) -> HomeScreen:
    screen = app.screen
    assert isinstance(screen, HomeScreen)
    return screen


def question_counts(app: QuizApp) -> dict[str, str]:
    """Per deck shown on the home screen (and 'all'): its question count, as displayed."""
    table = home(app).query_one("#decks", DataTable)
    counts = {}
    for row in range(table.row_count):
        key = table.coordinate_to_cell_key((row, 0)).row_key.value
        counts["all" if key == ALL_DECKS else key] = str(table.get_row_at(row)[2])
    return counts


def problems(app: QuizApp) -> str:
    panel = home(app).query_one("#problems")
    return text_of(panel) if panel.display else ""


async def ready(pilot: Pilot) -> None:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, HomeScreen) and app.screen.is_mounted and app.watcher is not None
        ),
    )


def notifications(app: QuizApp) -> list[str]:
    return said(app)


def test_an_edit_shows_on_the_home_screen_within_a_second(tmp_path: Path) -> None:
    deck = tmp_path / "alpha.yaml"
    deck.write_text(deck_text("alpha", ["a-1", "a-2"]))
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await ready(pilot)
        assert question_counts(app) == {"alpha": "2", "all": "2"}
        save(deck, deck_text("alpha", ["a-1", "a-2", "a-3"]))
        await wait_for(pilot, lambda: question_counts(app)["alpha"] == "3", timeout=1.5)
        assert set(app.bank.questions) == {"a-1", "a-2", "a-3"}
        await wait_for(pilot, lambda: "Reloaded deck Alpha (3 questions)" in notifications(app))
        assert "3 questions in 1 deck" in home(app).sub_title

    drive(app, scenario)


def test_a_broken_save_keeps_the_last_good_deck_and_says_where_then_clears(
    tmp_path: Path,
) -> None:
    deck = tmp_path / "alpha.yaml"
    good = deck_text("alpha", ["a-1", "a-2"])
    deck.write_text(good)
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await ready(pilot)
        assert not home(app).query_one("#problems").display
        # A typo on line 4: an unclosed flow sequence.
        save(deck, good.replace("title: Alpha", "title: [Alpha"))
        await wait_for(pilot, lambda: problems(app) != "")
        assert f"{deck}:4:" in problems(app)  # the line with the unclosed [
        assert "YAML syntax" in problems(app)
        assert question_counts(app)["alpha"] == "2"  # the last good version, still in use
        assert set(app.bank.questions) == {"a-1", "a-2"}
        await wait_for(
            pilot, lambda: "The last good version stays in use." in "".join(notifications(app))
        )
        shown = "\n".join(notifications(app))
        # A toast is narrow: the path may lose its start (…), never the file, line and column.
        assert f"/{deck.name}:4:" in shown and "The last good version stays in use." in shown
        # The fix: the problems go, the new version comes in.
        save(deck, deck_text("alpha", ["a-1", "a-2", "a-3"]))
        await wait_for(pilot, lambda: problems(app) == "")
        assert question_counts(app)["alpha"] == "3"
        assert not home(app).query_one("#problems-title").display
        await wait_for(pilot, lambda: f"Problems fixed: {deck}" in notifications(app))

    drive(app, scenario)


def test_a_half_written_file_then_the_whole_file(tmp_path: Path) -> None:
    deck = tmp_path / "alpha.yaml"
    deck.write_text(deck_text("alpha", ["a-1", "a-2"]))
    full = deck_text("alpha", ["a-1", "a-2", "a-3"])
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await ready(pilot)
        # Truncated mid-question, as an editor that truncates then writes can leave it.
        save(deck, full[: full.index("prompt: Front of a-3")])
        await wait_for(pilot, lambda: problems(app) != "")
        assert f"{deck}:" in problems(app)
        assert question_counts(app)["alpha"] == "2"
        save(deck, full)
        await wait_for(pilot, lambda: question_counts(app)["alpha"] == "3")
        assert problems(app) == ""

    drive(app, scenario)


def test_a_new_file_in_a_watched_folder_and_a_removed_one(tmp_path: Path) -> None:
    (tmp_path / "alpha.yaml").write_text(deck_text("alpha", ["a-1", "a-2"]))
    beta = tmp_path / "more" / "beta.yaml"
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await ready(pilot)
        beta.parent.mkdir()
        save(beta, deck_text("beta", ["b-1"]))
        await wait_for(pilot, lambda: "beta" in question_counts(app))
        assert question_counts(app) == {"alpha": "2", "beta": "1", "all": "3"}
        await wait_for(pilot, lambda: "Loaded new deck Beta (1 question)" in notifications(app))
        beta.unlink()
        await wait_for(pilot, lambda: "beta" not in question_counts(app))
        assert question_counts(app) == {"alpha": "2", "all": "2"}
        await wait_for(pilot, lambda: "Removed deck Beta: its file is gone" in notifications(app))

    drive(app, scenario)


def test_a_session_in_progress_keeps_its_questions_and_new_ones_use_the_new_bank(
    tmp_path: Path,
) -> None:
    deck = tmp_path / "alpha.yaml"
    deck.write_text(deck_text("alpha", ["a-1", "a-2"]))
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await ready(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        quiz: QuizScreen = app.screen  # type: ignore[assignment]
        before = list(quiz.session.questions)
        save(deck, deck_text("alpha", ["a-1", "a-2", "a-3"]))
        await wait_for(pilot, lambda: "a-3" in app.bank.questions)
        assert app.screen is quiz and quiz.session.questions == before
        assert quiz.question is before[0]
        await pilot.press("escape", "y")  # leave, confirming
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert question_counts(app)["alpha"] == "3"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        assert [q.id for q in app.screen.session.questions] == ["a-1", "a-2", "a-3"]  # type: ignore[attr-defined]

    drive(app, scenario)


def test_the_history_is_untouched_and_its_ids_still_count(tmp_path: Path) -> None:
    bank_dir = tmp_path / "bank"
    bank_dir.mkdir()
    deck = bank_dir / "alpha.yaml"
    deck.write_text(deck_text("alpha", ["a-1", "a-2"]))
    db = tmp_path / "history.sqlite3"
    # A quiz that reschedules, so that its answer makes a-1 a card of the history.
    app = make_app(bank_dir, db_path=db, settings=Settings(quiz_reschedules=True))

    def row(app: QuizApp) -> list[str]:
        return [str(c) for c in home(app).query_one("#decks", DataTable).get_row_at(0)]

    async def scenario(pilot: Pilot) -> None:
        await ready(pilot)
        await wait_for(pilot, lambda: app.history is not None and row(app)[1] != "")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        await pilot.press("space", "3")  # a-1: revealed, graded Good
        await wait_for(pilot, lambda: app.screen.state == "answered")  # type: ignore[attr-defined]
        await pilot.press("escape", "y")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, HomeScreen) and app.screen.is_mounted and row(app)[1] == "1"
            ),
        )
        # The deck is renamed and a question added: a-1 keeps its history, by id.
        save(deck, deck_text("alpha", ["a-1", "a-2", "a-3"], title="Renamed"))
        await wait_for(pilot, lambda: row(app)[2] == "3")
        assert row(app)[:4] == ["0", "2", "3", "Renamed"]  # due, new (a-2, a-3), questions

    drive(app, scenario)
    with ReviewStore.open(db) as store:
        assert [r.question_id for r in store.reviews()] == ["a-1"]


def test_cross_file_duplicates_are_caught_as_at_load(tmp_path: Path) -> None:
    alpha, beta = tmp_path / "a.yaml", tmp_path / "b.yaml"
    alpha.write_text(deck_text("alpha", ["a-1", "a-2"]))
    beta.write_text(deck_text("beta", ["b-1"]))
    bank = load_bank([tmp_path])
    watcher = BankWatcher.start([tmp_path], bank)
    assert watcher.poll() is None  # nothing changed

    save(beta, deck_text("beta", ["b-1", "a-2"]))  # a-2 is alpha's
    change = watcher.poll()
    assert change is not None
    assert [d.id for d in change.reloaded] == ["beta"]
    assert change.size_of(change.reloaded[0]) == 1
    [problem] = change.problems
    assert problem.code == "duplicate-id" and problem.path == str(beta)
    assert problem.line == 16  # the second question of b.yaml
    assert change.bank.questions["a-2"].deck_id == "alpha"
    assert change.bank.errors == load_bank([tmp_path]).errors  # exactly as a fresh load

    # Alpha gives a-2 up: beta's copy is the only one now, and the problem clears.
    save(alpha, deck_text("alpha", ["a-1"]))
    change = watcher.poll()
    assert change is not None
    assert change.bank.questions["a-2"].deck_id == "beta"
    assert change.problems == () and change.cleared == (str(beta),)
    assert change.bank.errors == []


def test_a_file_broken_from_the_start_loads_once_fixed(tmp_path: Path) -> None:
    deck = tmp_path / "alpha.yaml"
    deck.write_text("deck: [unclosed\n")
    bank = load_bank([tmp_path])
    watcher = BankWatcher.start([tmp_path], bank)
    save(deck, deck_text("alpha", ["a-1"]))
    change = watcher.poll()
    assert change is not None
    assert [d.id for d in change.reloaded] == ["alpha"]
    assert change.cleared == (str(deck),) and change.bank.errors == []


def test_a_watched_file_that_disappears_and_comes_back(tmp_path: Path) -> None:
    deck = tmp_path / "alpha.yaml"
    text = textwrap.dedent(deck_text("alpha", ["a-1"]))
    deck.write_text(text)
    watcher = BankWatcher.start([deck], load_bank([deck]))
    deck.unlink()
    change = watcher.poll()
    assert change is not None
    assert [d.id for d in change.removed] == ["alpha"]
    assert [p.code for p in change.problems] == ["not-found"]
    save(deck, text)
    change = watcher.poll()
    assert change is not None
    assert [d.id for d in change.added] == ["alpha"] and change.cleared == (str(deck),)
