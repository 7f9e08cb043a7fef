"""A hostile bank: Textual/Rich markup in every text field of every question type and deck.

`write_hostile_bank(folder, drop)` writes it; each field's text starts with a literal
`[@click=app.quit]<field>[/]` (so a test can look for `[@click=app.quit]<field>` on screen),
then a click action that would write a screenshot into `drop`, bold red, and a link. Shown as
markup, one click on any of it would quit the app or write a file; shown as data, it is text.

Ids, topics and tags cannot hold brackets (the loader accepts only `a-z0-9-_.` there), so
they are plain. Run `python -m tests.tui.hostile_bank FOLDER DROP` to write it for a try in
a terminal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

QUIT = "[@click=app.quit]"
DECK_FILE = "hostile.yaml"
BROKEN_FILE = "[@click=app.quit]broken.yaml"  # a file name is untrusted text too

# The one computation argument that reaches the screen as text (lowercased by the
# computation, so only lowercase markup); `swapped` lacks a word, so the run fails and
# its error message quotes the words back.
SENTENCE = "[@click=app.quit]argword[/] [bold]mark[/]"
MISMATCHED = "[bold]mark[/] other"


def hostile(field: str, drop: Path) -> str:
    """The hostile text of one field: every kind of markup, the quit click first."""
    return (
        f"{QUIT}{field}[/] [@click=app.screenshot('pwned.svg','{drop}')]shot[/] "
        "[bold red]red[/] [link=https://evil.example]link[/]"
    )


def visible(field: str) -> str:
    """What the screen shows at the start of the field when it is shown as text."""
    return f"{QUIT}{field}"


def deck_fields(drop: Path) -> dict[str, str]:
    return {
        "title": hostile("deck-title", drop),
        "domain": hostile("deck-domain", drop),
        "description": hostile("deck-description", drop),
    }


def questions(drop: Path) -> list[dict[str, object]]:
    def h(field: str) -> str:
        return hostile(field, drop)

    def common(qid: str, kind: str) -> dict[str, object]:
        return {
            "id": qid,
            "type": kind,
            "difficulty": "easy",
            "tags": ["hostile", f"tag-{kind.replace('_', '-')}"],
            "source": h(f"source-{qid}"),
            "prompt": h(f"prompt-{qid}"),
            "explanation": h(f"explanation-{qid}"),
        }

    return [
        common("h-single", "single_choice")
        | {
            "shuffle": False,
            "choices": [
                {"text": h("choice-single-1"), "correct": True, "why": h("why-single-1")},
                {"text": h("choice-single-2"), "why": h("why-single-2")},
            ],
        },
        common("h-multi", "multiple_choice")
        | {
            "shuffle": False,
            "choices": [
                {"text": h("choice-multi-1"), "correct": True, "why": h("why-multi-1")},
                {"text": h("choice-multi-2"), "why": h("why-multi-2")},
            ],
        },
        common("h-tf", "true_false")
        | {"answer": False, "why_true": h("why-true"), "why_false": h("why-false")},
        common("h-numeric", "numeric")
        | {
            "answer": {"value": 42, "tolerance": 0, "unit": h("unit")},
            "traps": [{"value": 7, "why": h("trap-why")}],
        },
        # The key comes from a computation that fails: its error quotes the argument back.
        common("h-derived", "numeric")
        | {
            "answer": {"from": "equivariance_error", "tolerance": 1},
            "compute": {
                "name": "permutation_demo",
                "args": {"sentence": SENTENCE, "swapped": MISMATCHED, "d_model": 8, "n_heads": 2},
            },
        },
        common("h-order", "ordering")
        | {
            "steps": [
                {"text": h("step-1"), "why": h("step-why-1")},
                h("step-2"),
            ]
        },
        common("h-card", "flashcard")
        | {
            "back": h("back"),
            "compute": {
                "name": "permutation_demo",
                "args": {"sentence": SENTENCE, "swapped": SENTENCE, "d_model": 8, "n_heads": 2},
            },
        },
    ]


def _yaml(value: object, indent: int = 0) -> str:
    """Block YAML, every scalar JSON-quoted (JSON strings are YAML 1.2 double-quoted scalars)."""
    pad = " " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if isinstance(item, dict | list):
                lines.append(f"{pad}{key}:\n{_yaml(item, indent + 2)}")
            else:
                lines.append(f"{pad}{key}: {json.dumps(item)}")
        return "\n".join(lines)
    if isinstance(value, list):
        lines = []
        for item in value:
            if isinstance(item, dict | list):
                nested = _yaml(item, indent + 2)
                lines.append(f"{pad}- {nested.lstrip()}")
            else:
                lines.append(f"{pad}- {json.dumps(item)}")
        return "\n".join(lines)
    return pad + json.dumps(value)


def write_hostile_bank(folder: Path, drop: Path, *, broken: bool = True) -> Path:
    """The hostile deck (and, with `broken`, a hostile file that fails to load) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = {"id": "hostile", "topic": "hostile-topic", "exam_weight": 1} | deck_fields(drop)
    document = {"format": 1, "deck": deck, "questions": questions(drop)}
    (folder / DECK_FILE).write_text(_yaml(document) + "\n", encoding="utf-8")
    if broken:
        (folder / BROKEN_FILE).write_text(
            f'format: 1\ndeck: {{title: "{hostile("broken-title", drop)}"\n', encoding="utf-8"
        )
    return folder / DECK_FILE


if __name__ == "__main__":
    write_hostile_bank(Path(sys.argv[1]), Path(sys.argv[2]))
