"""Scenario computations for the positional-encoding deck.

learned_table_coverage: an input longer than a learned position table, looked up position by
position, as a model with such a table would have to. The count of tokens left without a row
comes from the lookups that fail, not from subtracting the arguments.
"""

from __future__ import annotations

import torch

from quizapp.experiments.context import Context
from quizapp.experiments.result import Result, Table
from quizapp.reference import LearnedPositionalEmbedding, PositionOutOfRange, count_parameters

# Lookups between two progress reports (each report is also where a cancel is noticed).
_LOOKUPS_PER_REPORT = 512


def learned_table_coverage(
    ctx: Context, *, max_positions: int, seq_len: int, d_model: int
) -> Result:
    ctx.progress(0.05, f"building a learned table of {max_positions} rows × {d_model}")
    # Built without initialising its rows: the lookups below ask only whether a row exists.
    with torch.device("meta"):
        table = LearnedPositionalEmbedding(max_positions, d_model)
    table = table.to_empty(device=ctx.device)
    table_params = count_parameters(table)

    with_row = 0
    without_row = 0
    first_missing = -1
    with torch.no_grad():
        for position in range(seq_len):
            if position % _LOOKUPS_PER_REPORT == 0:
                ctx.progress(0.1 + 0.8 * position / seq_len, f"looking up position {position}")
            try:
                table(torch.tensor([position], device=ctx.device))
            except PositionOutOfRange:
                without_row += 1
                if first_missing < 0:
                    first_missing = position
            else:
                with_row += 1

    values: dict[str, float | int | bool | str] = {
        "tokens_past_table": without_row,
        "tokens_with_row": with_row,
        "first_missing_position": first_missing,
        "table_params": table_params,
    }
    # Lookups succeed for a prefix of the positions and fail from the first missing one on.
    rows = []
    if with_row:
        rows.append((f"0 to {with_row - 1:,}", "yes"))
    if without_row:
        rows.append((f"{first_missing:,} to {seq_len - 1:,}", "no: no such row"))
    table_view = Table(
        title=f"A {seq_len:,}-token input against a table of {max_positions:,} rows",
        columns=("positions", "row in the table"),
        rows=tuple(rows),
    )
    if without_row:
        summary = (
            f"A learned table of {max_positions:,} rows (positions 0–{max_positions - 1:,}; "
            f"{table_params:,} parameters) was asked for every position of a {seq_len:,}-token "
            f"input, one at a time. **{with_row:,}** lookups found a row; **{without_row:,}** "
            f"failed, from position {first_missing:,} on: those tokens have no position vector, "
            "so the model must refuse the input, or it must be truncated or split."
        )
    else:
        summary = (
            f"A learned table of {max_positions:,} rows ({table_params:,} parameters) was asked "
            f"for every position of a {seq_len:,}-token input: all **{with_row:,}** lookups found "
            "a row. A longer input would run past the last one."
        )
    ctx.progress(1.0, "done")
    args = {"max_positions": max_positions, "seq_len": seq_len, "d_model": d_model}
    return Result(
        "learned_table_coverage", args, str(ctx.device), values, summary, table=table_view
    )
