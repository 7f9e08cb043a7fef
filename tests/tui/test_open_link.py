"""A link in bank Markdown never opens on one click: the full address is shown and asked about,
and only http, https and mailto addresses can be opened at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Button

from quizapp.bank import load_bank
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.open_link import OpenLink, ask_to_open, link_address, refusal
from quizapp.tui.screens.quiz import QuizScreen
from tests.tui.screen_text import drive_with_toasts, find, screen_lines
from tests.tui.test_sessions import wait_for

SIZE = (100, 40)
GUIDE = "https://example.com/attention?heads=8&ok=%E2%9C%93"

DECK = f"""\
format: 1
deck:
  id: links
  title: Links
  topic: links
  domain: Test domain
  exam_weight: 1
questions:
  - id: l-single
    type: single_choice
    difficulty: easy
    tags: [links]
    shuffle: false
    prompt: >-
      See [the notes](notes/lesson-3.md), [a shell](ssh://example.com),
      [the local file](file:///etc/passwd) or [run this](javascript:alert(1)).
    choices:
      - {{text: Right, correct: true, why: It is.}}
      - {{text: Wrong, why: It is not.}}
    explanation: "Heads are about subspaces. [Read the official guide]({GUIDE})"
"""


def links_app(tmp_path: Path) -> tuple[QuizApp, list[str]]:
    (tmp_path / "links.yaml").write_text(DECK, encoding="utf-8")
    app = QuizApp(
        load_bank([tmp_path / "links.yaml"]), AppOptions(device="cpu", warm_up=False, watch=False)
    )
    opened: list[str] = []
    app.open_url = lambda url, *, new_tab=True: opened.append(url)  # type: ignore[method-assign]
    return app, opened


async def click_text(pilot: Pilot, text: str) -> None:
    where = find(pilot.app, text)
    assert where is not None, f"{text!r} is not on screen"
    await pilot.click(offset=where)


async def open_quiz(pilot: Pilot) -> QuizScreen:
    await pilot.press("enter")  # the only deck
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, QuizScreen) and pilot.app.screen.is_mounted
    )
    return pilot.app.screen  # type: ignore[return-value]


async def dialog_for(pilot: Pilot, text: str) -> OpenLink:
    await click_text(pilot, text)
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, OpenLink) and pilot.app.screen.is_mounted
    )
    await pilot.pause()
    return pilot.app.screen  # type: ignore[return-value]


def test_an_explanation_link_opens_only_after_the_student_says_so(tmp_path: Path) -> None:
    app, opened = links_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        quiz = await open_quiz(pilot)
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: find(app, "Read the official guide") is not None)

        dialog = await dialog_for(pilot, "Read the official guide")
        assert opened == []  # one click only asks
        shown = "\n".join(screen_lines(app))
        assert GUIDE in shown  # the whole address, as it would be opened
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is quiz)
        assert opened == []

        await dialog_for(pilot, "Read the official guide")
        await pilot.click("#cancel")
        await wait_for(pilot, lambda: app.screen is quiz)
        assert opened == []

        dialog = await dialog_for(pilot, "Read the official guide")
        assert dialog.refused is None
        await pilot.click("#open")
        await wait_for(pilot, lambda: app.screen is quiz)
        assert opened == [GUIDE]

    drive_with_toasts(app, scenario, SIZE)


@pytest.mark.parametrize(
    ("link_text", "address"),
    [("the notes", "notes/lesson-3.md"), ("a shell", "ssh://example.com")],
)
def test_other_links_are_shown_and_refused(tmp_path: Path, link_text: str, address: str) -> None:
    app, opened = links_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        quiz = await open_quiz(pilot)
        await wait_for(pilot, lambda: find(app, link_text) is not None)
        dialog = await dialog_for(pilot, link_text)
        shown = "\n".join(screen_lines(app))
        assert address in shown
        assert "opens only http, https and mailto links" in shown
        assert dialog.refused is not None
        assert all(word in shown for word in dialog.refused.split())  # the reason, in full
        assert not dialog.query("#open")  # no way to open it
        await pilot.press("o")  # the open key does nothing here
        await pilot.pause()
        assert app.screen is dialog
        await pilot.click("#cancel")
        await wait_for(pilot, lambda: app.screen is quiz)
        assert opened == []

    drive_with_toasts(app, scenario, SIZE)


def test_file_and_javascript_links_are_not_even_links(tmp_path: Path) -> None:
    """The Markdown parser leaves them as text: a click asks nothing and opens nothing."""
    app, opened = links_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        quiz = await open_quiz(pilot)
        for text in ("[the local file](file:", "this](javascript:alert(1))"):
            await wait_for(pilot, lambda t=text: find(app, t) is not None)
            await click_text(pilot, text)
            await pilot.pause()
            assert app.screen is quiz
        assert opened == []

    drive_with_toasts(app, scenario, SIZE)


def test_a_file_address_reaching_the_dialog_is_refused(tmp_path: Path) -> None:
    app, opened = links_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        ask_to_open(app, "file:///etc/passwd")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenLink) and app.screen.is_mounted)
        await pilot.pause()
        dialog = app.screen
        assert dialog.refused is not None and not dialog.query("#open")
        await pilot.press("o")
        await pilot.pause()
        assert app.screen is dialog
        dialog.dismiss(True)  # even a dialog answered yes opens nothing it refused
        await pilot.pause()
        assert opened == []

    drive_with_toasts(app, scenario, SIZE)


@pytest.mark.parametrize(
    "href",
    ["https://example.com/a", "HTTP://Example.com", "mailto:student@example.com"],
)
def test_web_and_mail_addresses_may_be_opened(href: str) -> None:
    assert refusal(link_address(href)) is None


@pytest.mark.parametrize(
    "href",
    [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "notes/lesson-3.md",
        "#explanation",
        "https:///no-host",
        "mailto:",
        "ssh://example.com",
    ],
)
def test_everything_else_is_refused(href: str) -> None:
    assert refusal(link_address(href)) is not None


def test_the_address_shown_is_the_address_opened() -> None:
    # Spaces, control characters and non-ASCII letters are percent-encoded, so nothing can
    # hide in the address or reach the terminal raw; printable ASCII is left as written.
    assert link_address("https://example.com/a b\x1b[2J") == "https://example.com/a%20b%1B[2J"
    assert link_address("https://exаmple.com/✓") == "https://ex%D0%B0mple.com/%E2%9C%93"
    assert link_address(GUIDE) == GUIDE


def test_the_dialog_has_open_and_cancel_for_a_web_link(tmp_path: Path) -> None:
    app, opened = links_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await show_dialog(pilot, "https://example.com/x")
        labels = {str(b.label) for b in app.screen.query(Button)}
        assert labels == {"Open (o)", "Cancel (esc)"}
        assert app.focused is not None and app.focused.id == "cancel"
        await pilot.press("enter")  # Enter alone never opens: it presses Cancel
        await wait_for(pilot, lambda: not isinstance(app.screen, OpenLink))
        assert opened == []

    drive_with_toasts(app, scenario, SIZE)


async def show_dialog(pilot: Pilot, href: str) -> OpenLink:
    """The dialog for `href`, pushed directly, once it is on screen."""
    app = pilot.app
    app.push_screen(OpenLink(href))
    await wait_for(pilot, lambda: isinstance(app.screen, OpenLink) and app.screen.is_mounted)
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


def drawn_rows(dialog: OpenLink, selector: str) -> list[str]:
    """The lines one of the dialog's widgets draws, as text."""
    shown = dialog.query_one(selector)
    return [row.text for row in shown.render_lines(Region(0, 0, *shown.size))]


def test_a_long_address_is_shown_whole(tmp_path: Path) -> None:
    app, _ = links_app(tmp_path)
    address = "https://example.com/" + "very-long-path/" * 12 + "?to=the-end"

    async def scenario(pilot: Pilot) -> None:
        rows = drawn_rows(await show_dialog(pilot, address), "#link-address")
        assert len(rows) > 1  # wrapped, not cut off
        assert "".join(row.strip() for row in rows) == address

    drive_with_toasts(app, scenario, SIZE)


@pytest.mark.parametrize(
    ("href", "says", "never"),
    [
        ("mailto:student@example.com", "new message in your mail program", "web browser"),
        ("https://example.com/x", "opens in your web browser", "mail"),
        ("http://example.com/x", "opens in your web browser", "mail"),
    ],
)
def test_the_dialog_says_what_opening_does_for_each_scheme(
    tmp_path: Path, href: str, says: str, never: str
) -> None:
    app, _ = links_app(tmp_path)

    async def scenario(pilot: Pilot) -> None:
        note = " ".join(" ".join(drawn_rows(await show_dialog(pilot, href), "#link-note")).split())
        assert says in note and says in " ".join(" ".join(screen_lines(app)).split())
        assert never not in note

    drive_with_toasts(app, scenario, SIZE)
