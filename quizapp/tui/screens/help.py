"""`?`: every key the app answers to, gathered from the live bindings plus the quiz keys."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

QUIZ_KEYS = """\
## Answering
| key | does |
| --- | --- |
| 1–9 | pick an option (toggle it in *select all that apply*) |
| ↑ / ↓ | move between options or steps |
| shift+↑ / shift+↓, [ / ] | move a step up or down (ordering) |
| Enter | submit; after the feedback, the next question |
| Space | reveal a flashcard's back; after the feedback, the next question |
| 1 / 2 / 3 / 4 | grade a revealed flashcard: Again, Hard, Good, Easy |
| Escape | leave the session (answers so far are kept) |

## The live lab
| key | does |
| --- | --- |
| r | rerun the computation with the arguments in the form |
| x | cancel a running computation |
| Tab | move between the lab's argument fields |
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.bindings_here = bindings

    def compose(self) -> ComposeResult:
        rows = "\n".join(f"| {key} | {description} |" for key, description in self.bindings_here)
        text = f"# Keys\n\n## Here\n| key | does |\n| --- | --- |\n{rows}\n\n{QUIZ_KEYS}\n" + (
            "## Everywhere\n| key | does |\n| --- | --- |\n"
            "| ? | this help |\n| ctrl+p | command palette: decks, computations, theme |\n"
            "| q, ctrl+q | quit (asks first in the middle of a session) |\n"
        )
        with VerticalScroll(classes="dialog help-dialog"):
            yield Markdown(text)
