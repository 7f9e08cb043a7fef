"""learned_table_coverage: the tokens a learned position table leaves without a row."""

from __future__ import annotations

import pytest
import torch

from quizapp.experiments.context import Cancelled, Context
from quizapp.experiments.lab.positional_encoding_scenarios import learned_table_coverage
from quizapp.experiments.registry import get_spec
from quizapp.experiments.spec import ArgumentError

CPU = torch.device("cpu")


def _coverage(**args: int) -> dict[str, object]:
    bound = get_spec("learned_table_coverage").bind(args)
    return learned_table_coverage(Context(device=CPU), **bound).values


@pytest.mark.parametrize(
    ("max_positions", "seq_len", "d_model"),
    [(512, 700, 768), (1024, 1025, 64), (3, 10, 2), (7, 1, 5)],
)
def test_tokens_past_the_last_row_are_counted_by_failed_lookups(
    max_positions: int, seq_len: int, d_model: int
) -> None:
    values = _coverage(max_positions=max_positions, seq_len=seq_len, d_model=d_model)
    # Independently: rows cover positions 0 .. max_positions - 1, and a row has d_model numbers.
    missing = [p for p in range(seq_len) if p >= max_positions]
    assert values["tokens_past_table"] == len(missing)
    assert values["tokens_with_row"] == seq_len - len(missing)
    assert values["first_missing_position"] == (missing[0] if missing else -1)
    assert values["table_params"] == max_positions * d_model


def test_the_bert_scenario_leaves_188_tokens_and_says_where_they_start() -> None:
    result = learned_table_coverage(
        Context(device=CPU), max_positions=512, seq_len=700, d_model=768
    )
    assert result.values["tokens_past_table"] == 700 - 512
    assert "from position 512 on" in result.summary
    assert result.table is not None
    assert result.table.rows == (("0 to 511", "yes"), ("512 to 699", "no: no such row"))


def test_an_input_that_fits_has_no_missing_position() -> None:
    result = learned_table_coverage(Context(device=CPU), max_positions=16, seq_len=16, d_model=4)
    assert result.values["tokens_past_table"] == 0
    assert result.values["first_missing_position"] == -1
    assert "all **16** lookups found a row" in result.summary


def test_cancelling_stops_the_lookups() -> None:
    context = Context(device=CPU, is_cancelled=lambda: True)
    with pytest.raises(Cancelled):
        learned_table_coverage(context, max_positions=512, seq_len=700, d_model=768)


def test_arguments_past_their_bounds_are_refused() -> None:
    with pytest.raises(ArgumentError):
        get_spec("learned_table_coverage").bind({"seq_len": 0})
