"""`quizapp export --format gift`: the command's side (quizapp.authoring.gift_out writes it).

Each question the file cannot hold is one line on stderr, `ID: left out: reason`, and each
part of a written question it loses (a unit, a relative tolerance) one `ID: note: ...`; the
summary line then counts what was written and what was left out. Leaving out a question
GIFT has no type for is not an error: the exit status stays 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.bank.display_order import ExportOrder
    from quizapp.bank.model import Deck

GIFT_EPILOG = """\
gift   Moodle GIFT text: a $CATEGORY per deck, each question named ::id:: with its id in
       // [id:...] and its tags in [tag:...]; option whys as per-answer feedback (#), the
       explanation as general feedback (####), numeric keys with their tolerance. Computed
       questions keep their key (a `from:` key is computed now, unless --no-eval) and end
       their explanation with a line naming the computation. Ordering questions and
       flashcards have no GIFT type: each is reported by id and left out.
"""


def gift_data(
    args: argparse.Namespace, decks: Sequence[Deck], order: ExportOrder
) -> tuple[bytes, int, str]:
    """The file, how many questions it holds, and the summary's tail ("; 9 left out ...").
    Reports what was left out or lost on stderr."""
    from quizapp.authoring.gift_out import export_gift

    derived: dict[str, dict[str, object]] = {}
    if not args.no_eval:
        from quizapp.authoring.anki_cards import anki_variant
        from quizapp.authoring.anki_package import derived_values

        shown = [anki_variant(q) for deck in decks for q in deck.questions]
        derived = derived_values(shown, use_cache=not args.no_cache)
    result = export_gift(decks, order, derived)
    for item in result.left_out:
        print(item.format("left out"), file=sys.stderr)
    for item in result.notes:
        print(item.format("note"), file=sys.stderr)
    tail = ""
    if result.left_out:
        tail = f"; {len(result.left_out)} left out (GIFT cannot hold them, see above)"
    return result.text.encode("utf-8"), len(result.written), tail


__all__ = ["GIFT_EPILOG", "gift_data"]
