"""`quizapp export`'s --seed and --no-shuffle: how each question's options are ordered."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from quizapp.cli import flag_types

if TYPE_CHECKING:
    from quizapp.bank.display_order import ExportOrder


EXPORT_ORDER_EPILOG = """\
Every format lists a choice question's options shuffled (a file in written order would
put the key where the author wrote it), seeded by the question id and --seed N, so
exporting again writes the same file; --no-shuffle (an authoring aid) keeps the file's
order. Steps stay in the key's order in csv and json; on an Anki front they are shuffled,
never in the key's order."""


def add_export_order_options(export: argparse.ArgumentParser) -> None:
    export.add_argument(
        "--seed",
        type=flag_types.SEED,
        metavar="N",
        help="shuffle each question's options by its id and N (default: by its id alone); "
        "the same bank and N always write the same file",
    )
    export.add_argument(
        "--no-shuffle",
        action="store_true",
        help="authoring aid: keep the options in the bank's file order (round trips, diffs "
        "against the YAML); never use it for a file students study from. Steps on an Anki "
        "card's front are shuffled even then",
    )


def export_order(args: argparse.Namespace) -> ExportOrder:
    from quizapp.bank.display_order import ExportOrder

    return ExportOrder(seed=args.seed, shuffle=not args.no_shuffle)
