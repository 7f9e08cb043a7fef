"""A question named in a line of its own (a toast, a picker): the start of its prompt.

Internal ids (`mha-exam-domain1-base`) mean nothing to a student; the prompt's first words do.
The text is flattened to one line, Markdown's emphasis and code marks are dropped, control
characters go, and it is cut with an ellipsis. Show it as literal text (`markup=False`,
`literal`): the prompt is bank text.
"""

from __future__ import annotations

import re
import unicodedata

_HEADING = re.compile(r"^\s*#+\s+")
_MARKS = re.compile(r"\*\*|__|`+")


def short_prompt(prompt: str, width: int = 48) -> str:
    """The prompt on one line, at most `width` characters, ending in `…` when cut."""
    text = _MARKS.sub("", _HEADING.sub("", prompt))
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"
