"""The home screen: the decks with their question counts, session options, bank problems.

Under the decks, what a drill on the highlighted deck would take (the New column counts every
unseen card; a drill takes new ones only up to the day's limit) and what sessions leave out
(suspended and buried cards). Beside them, whether quizzes reschedule or are practice. The
counts stay current by themselves (quizapp/tui/components/home_refresh.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Label, Static, Switch

from quizapp.bank import Bank
from quizapp.tui.components.home_refresh import CountsRefresh
from quizapp.tui.components.quiz_mode import quiz_mode_text
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.field_focus import LEAVE_FIELD, in_form_field
from quizapp.tui.widgets.fitted_table import FittedTable
from quizapp.tui.widgets.history_status import HistoryStatus
from quizapp.tui.widgets.ordered_input import OrderedInput
from quizapp.tui.widgets.readiness_line import ReadinessLine
from quizapp.tui.widgets.title_bar import TitleBar
from quizapp.wording import plural

if TYPE_CHECKING:
    from textual.app import App

    from quizapp.srs.study.counts import HomeCounts

ALL_DECKS = "__all__"


class HomeScreen(Screen[None]):
    # Below 120 columns the session options go under the decks (app.tcss: .-narrow), so
    # that the deck table has the whole width.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = [
        Binding("enter", "start_highlighted", "Start deck", priority=False),
        Binding("d", "drill", "Drill"),
        Binding("S", "app.stats", "Stats"),
        Binding("R", "readiness", "Readiness"),
        Binding("a", "start_all", "Everything"),
        Binding("t", "pick_tags", "By tags"),
        Binding("e", "exam", "Exam"),
        Binding("m", "missed", "Missed"),  # shown only while there are some (check_action)
        Binding("n", "focus_length", "Length", show=False),
        Binding("s", "toggle_shuffle", "Shuffle questions", show=False),
        Binding("r", "toggle_reschedule", "Quizzes reschedule", show=False),
        LEAVE_FIELD,  # out of the Questions box or a switch: single keys work again
    ]

    def __init__(
        self,
        bank: Bank,
        *,
        length: int | None = None,
        shuffle: bool = True,
        quiz_reschedules: bool = False,
    ) -> None:
        super().__init__(id="home")
        self.bank = bank
        self.initial_length = length
        self.initial_shuffle = shuffle
        self.initial_reschedules = quiz_reschedules
        self.counts: HomeCounts | None = None
        self.counts_refresh = CountsRefresh(self)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield HistoryStatus()  # up while answers wait to be saved
        yield ReadinessLine()  # with an exam date: the predicted score and today's plan
        with Horizontal(id="home-body"):
            with Vertical(id="deck-pane"):
                yield Label("Decks", classes="pane-title")
                # Titles and domains give way with an ellipsis before a column is cut off.
                yield FittedTable(
                    id="decks", cursor_type="row", zebra_stripes=True, shrinkable=("Deck", "Domain")
                )
                yield Static(id="drill-note", markup=False)
                # Under the decks, where a file's path has the width to read whole. Always
                # there, hidden while there is nothing to say: live reload can fill it.
                yield Label(
                    self._problems_title(), id="problems-title", classes="pane-title problem-title"
                )
                with VerticalScroll(id="problems-scroll"):
                    # Not markup: YAML messages quote brackets, and codes look like tags.
                    yield Static(self._problems_text(), id="problems", markup=False)
            with VerticalScroll(id="side-pane"):
                yield Label("Session", classes="pane-title")
                with Horizontal(classes="option-row"):
                    yield Label("Questions\n(blank = all)", classes="option-label")
                    yield OrderedInput(
                        str(self.initial_length or ""),
                        placeholder="all",
                        id="length",
                        type="integer",
                        max_length=4,
                    )
                with Horizontal(classes="option-row"):
                    # The questions' order only: options are always shuffled for a student.
                    yield Label("Shuffle questions", classes="option-label")
                    yield Switch(value=self.initial_shuffle, id="shuffle")
                with Horizontal(classes="option-row"):
                    yield Label("Quizzes reschedule", classes="option-label")
                    yield Switch(value=self.initial_reschedules, id="reschedule")
                yield Static(quiz_mode_text(self.initial_reschedules), id="quiz-mode")
                yield Static(self._help_text(), id="home-help")
        yield Footer()

    def _problems_title(self) -> str:
        return f"Problems in bank files ({len(self.bank.errors)})"

    def _help_text(self) -> str:
        return (
            "[b]Enter[/] quiz the highlighted deck · [b]d[/] drill it (due + new) · "
            "[b]a[/] everything · [b]t[/] pick tags · [b]S[/] stats · [b]R[/] readiness\n"
            "[b]?[/] every key · [b]ctrl+p[/] commands · [b]q[/] quit"
        )

    def _problems_text(self) -> str:
        # Shown in full: an instructor needs the file and line to fix it.
        lines = [d.format() for d in self.bank.errors[:50]]
        if len(self.bank.errors) > 50:
            lines.append(f"… and {len(self.bank.errors) - 50} more (run quizapp lint)")
        return "\n".join(lines)

    @property
    def _in_app(self) -> bool:
        """Still in the app, and not being taken down. A quit that arrives while the screen
        mounts (a browser tab closed at once) removes its widgets before its Mount is handled,
        and a refresh queued before a quit can arrive after: then there is nothing to draw
        into. `_pruning` is set on a screen whose widgets are being removed; Textual's own
        widgets check it the same way (Widget.refresh, signals)."""
        return self.is_attached and not self._pruning

    def on_mount(self) -> None:
        if not self._in_app:
            return
        self.title = "quizapp"
        self._show_problems()
        table = self.query_one("#decks", DataTable)
        # Counts come first so they survive a narrow terminal; long titles get the rest. Due and
        # new stay blank until the review history is open (just after the first frame).
        table.add_columns("Due", "New", "Questions", "Deck", "Weight", "Domain")
        self._fill_rows()
        table.focus()
        self.counts_refresh.start()
        if self.bank.errors:
            files = len({d.path for d in self.bank.errors})
            self.notify(
                f"{plural(len(self.bank.errors), 'problem')} in {plural(files, 'bank file')}; "
                "the rest loaded.",
                title="Bank problems",
                severity="warning",
                timeout=8,
                markup=False,
            )

    def show_bank(self, bank: Bank) -> None:
        """A reloaded bank: its decks, its question counts and its problems."""
        self.bank = bank
        if self.is_mounted and self._in_app:
            self._show_problems()
            self._fill_rows()

    def _show_problems(self) -> None:
        bank = self.bank
        self.sub_title = (
            f"{plural(len(bank.questions), 'question')} in {plural(len(bank.decks), 'deck')}"
        )
        errors = bool(self.bank.errors)
        title = self.query_one("#problems-title", Label)
        problems = self.query_one("#problems", Static)
        title.update(self._problems_title())
        problems.update(self._problems_text())
        title.display = problems.display = errors
        self.query_one("#problems-scroll").display = errors

    def show_counts(self, counts: HomeCounts | None) -> None:
        self.counts = counts
        if counts is not None:
            self.counts_refresh.refresh_at(counts.next_change)
        if self.is_mounted and self._in_app:
            self._fill_rows()
            self.query_one(ReadinessLine).refresh_line()
            self.refresh_bindings()  # m (missed) shows only while there are some

    def _fill_rows(self) -> None:
        table = self.query_one("#decks", DataTable)
        cursor = table.cursor_row
        table.clear()
        counts = self.counts.decks if self.counts is not None else {}

        def cells(key: str) -> tuple[str, str]:
            if key not in counts:
                return "", ""
            due, new = counts[key]
            return str(due), str(new)

        for deck in self.bank.decks:
            table.add_row(
                *cells(deck.id),
                str(len(deck.questions)),
                literal(deck.title),
                f"{deck.exam_weight:g}",
                literal(deck.domain),
                key=deck.id,
            )
        totals = ("", "")
        if counts:
            totals = (
                str(sum(d for d, _ in counts.values())),
                str(sum(n for _, n in counts.values())),
            )
        table.add_row(*totals, str(len(self.bank.questions)), "All decks", "", "", key=ALL_DECKS)
        table.move_cursor(row=min(cursor, table.row_count - 1))
        self._show_drill_note()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self._in_app:
            self._show_drill_note()

    def _highlighted_decks(self) -> tuple[str, ...]:
        table = self.query_one("#decks", DataTable)
        if not table.row_count:
            return ()
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return () if key in (None, ALL_DECKS) else (key,)

    def _show_drill_note(self) -> None:
        from quizapp.tui.components.quiz_mode import drill_note

        note = self.query_one("#drill-note", Static)
        note.update(drill_note(self.counts, self._highlighted_decks()))
        note.display = self.counts is not None

    def on_screen_resume(self) -> None:
        # Back from a session: the counts have moved.
        self.app.refresh_home()  # type: ignore[attr-defined]

    def action_readiness(self) -> None:
        from quizapp.tui.screens.readiness import open_readiness

        open_readiness(self.app)

    def action_drill(self) -> None:
        self.app.start_drill(deck_ids=self._highlighted_decks())  # type: ignore[attr-defined]

    # -- options ------------------------------------------------------------------------------

    @property
    def session_length(self) -> int | None:
        """The length in the Questions box: None when blank (all the questions)."""
        raw = self.query_one("#length", Input).value.strip()
        return int(raw) if raw.isdigit() and int(raw) > 0 else None

    def _length_is_usable(self) -> bool:
        """Blank or 1 and more. 0 (or less) is refused out loud rather than read as "all"."""
        box = self.query_one("#length", Input)
        raw = box.value.strip()
        if not raw or self.session_length is not None:
            return True
        self.notify(
            f"{raw} questions is no session: type how many (1 or more), or leave the box "
            "blank for all of them.",
            title="Questions",
            severity="warning",
            timeout=6,
            markup=False,
        )
        box.focus()
        return False

    @property
    def shuffle(self) -> bool:
        return self.query_one("#shuffle", Switch).value

    def action_focus_length(self) -> None:
        self.query_one("#length", Input).focus()

    def action_leave_field(self) -> None:
        self.query_one("#decks", DataTable).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_field":
            return in_form_field(self.focused)  # False: not in the footer either
        if action == "missed":
            return bool(self.counts and self.counts.missed)
        return True

    def action_toggle_shuffle(self) -> None:
        switch = self.query_one("#shuffle", Switch)
        switch.value = not switch.value

    def action_toggle_reschedule(self) -> None:
        switch = self.query_one("#reschedule", Switch)
        switch.value = not switch.value

    def on_switch_changed(self, event: Switch.Changed) -> None:
        if event.switch.id != "reschedule":
            return
        from quizapp.tui.components.quiz_mode import set_quiz_reschedules

        set_quiz_reschedules(self.app, event.value)  # type: ignore[arg-type]
        self.query_one("#quiz-mode", Static).update(quiz_mode_text(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter after typing a length means "go": start the highlighted deck with it.
        if self._length_is_usable():
            self.query_one("#decks", DataTable).focus()
            self.action_start_highlighted()

    # -- starting -----------------------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._start(event.row_key.value)

    def action_start_highlighted(self) -> None:
        table = self.query_one("#decks", DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            self._start(key)

    def action_start_all(self) -> None:
        self._start(ALL_DECKS)

    def _start(self, deck_key: str | None) -> None:
        if not self._length_is_usable():
            return
        self._remember_length()
        decks = () if deck_key in (None, ALL_DECKS) else (deck_key,)
        self.app.start_session(deck_ids=decks, length=self.session_length, shuffle=self.shuffle)  # type: ignore[attr-defined]

    def _remember_length(self) -> None:
        """A length the student typed (not one --length gave) is kept for the next launch."""
        length = self.session_length
        if length == self.initial_length:
            return
        self.initial_length = length
        from quizapp.tui.components.length_memory import remember_session_length

        remember_session_length(self.app, self.app.options.config_path, length)  # type: ignore[attr-defined]

    def action_missed(self) -> None:
        """A quiz of the questions missed in practice and not answered right since. Practice
        leaves their cards alone, so this is how they come back (docs/scheduling.md)."""
        missed = self.counts.missed if self.counts is not None else ()
        by_id = self.bank.questions
        questions = [by_id[qid] for qid in missed if qid in by_id]
        if not questions:
            self.notify("Nothing missed in practice.", timeout=3)
            return
        self.app.start_session(  # type: ignore[attr-defined]
            questions=questions, shuffle=self.shuffle, title="Missed in practice"
        )

    def action_exam(self) -> None:
        """A timed mock exam across the decks, after a page that says what it will be."""
        self.app.start_exam(intro=True)  # type: ignore[attr-defined]

    def action_pick_tags(self) -> None:
        from quizapp.tui.screens.tag_picker import TagPicker

        if not self._length_is_usable():
            return

        def chosen(tags: list[str] | None) -> None:
            if tags:
                self._remember_length()
                self.app.start_session(  # type: ignore[attr-defined]
                    tags=tags, length=self.session_length, shuffle=self.shuffle
                )

        self.app.push_screen(TagPicker(self.bank), chosen)


def refresh_home_counts(app: App[object]) -> None:
    """New counts for the home screen, when it shows (alone or under a dialog); a home
    screen under a session catches up when it is back (HomeScreen.on_screen_resume). `app`
    is the QuizApp (its history, bank and settings), typed as a plain App to keep this screen
    from importing the app that imports it."""
    from textual.screen import ModalScreen

    for screen in reversed(app.screen_stack):
        if isinstance(screen, HomeScreen):
            counts = app.history_writes.home_counts(app.bank, app.settings)  # type: ignore[attr-defined]
            screen.show_counts(counts)
        if not isinstance(screen, ModalScreen):
            return
