"""The CSV `expect` column: claims typed into one spreadsheet cell, imported and exported."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.authoring.csv_import import DeckInfo, import_csv
from quizapp.authoring.expect_cell import format_expect_cell, parse_expect_cell
from quizapp.bank.claims import MAX_SAYS_LENGTH
from quizapp.bank.model import Claim, Location

HEADER = "id,type,prompt,explanation,difficulty,tags,back,compute,expect\n"
HERE = Location("test.csv", 1, 1)


def imported(cell: str, compute: str = "mha_params d_model=512 n_heads=8"):
    text = HEADER + f'r1,flashcard,P,E,easy,t,B,{compute},"{cell}"\n'
    return import_csv(text, deck=DeckInfo("d", "D", "d"))


def test_a_typed_cell_splits_on_semicolons_and_line_breaks_with_words_after_dashes() -> None:
    cell = (
        "params_single_head == params_multi_head -- Same count, however many heads; "
        "head_dim == 64\n  2 ** 20 == params_multi_head --  Four matrices\\; all square  ;"
    )
    assert parse_expect_cell(cell) == [
        {
            "claim": "params_single_head == params_multi_head",
            "says": "Same count, however many heads",
        },
        "head_dim == 64",
        {"claim": "2 ** 20 == params_multi_head", "says": "Four matrices; all square"},
    ]


def test_an_imported_row_carries_its_claims_into_the_deck() -> None:
    result = imported(
        "head_dim == 64 -- Each head is 64 wide; params_single_head == params_multi_head"
    )
    assert result.problems == [] and result.text is not None
    assert (
        "      expect:\n"
        "        - claim: head_dim == 64\n"
        "          says: Each head is 64 wide\n"
        "        - params_single_head == params_multi_head\n"
    ) in result.text


def test_a_row_with_a_bad_claim_or_no_compute_is_rejected_with_the_reason() -> None:
    [problem] = imported("head_dim.real == 64").problems
    assert problem.line == 2 and "attributes" in problem.message
    [problem] = imported("head_dim == 64", compute="").problems
    assert problem.message == "expect is given but compute is empty"


def test_export_escapes_what_the_cell_syntax_uses() -> None:
    claims = [
        Claim("a -- b > 0", HERE, says="x; y -- z \\ w"),
        Claim("head_dim == 64", HERE),
    ]
    cell = format_expect_cell(claims)
    assert cell == "a - - b > 0 -- x\\; y -- z \\\\ w; head_dim == 64"
    assert parse_expect_cell(cell) == [
        {"claim": "a - - b > 0", "says": "x; y -- z \\ w"},
        "head_dim == 64",
    ]


_SAYS = (
    st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
        min_size=1,
        max_size=MAX_SAYS_LENGTH,
    )
    .map(str.strip)
    .filter(bool)
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), _SAYS), min_size=1, max_size=5))
def test_any_words_round_trip_through_a_cell(words: list[str | None]) -> None:
    claims = [Claim(f"head_dim == {i}", HERE, says=w) for i, w in enumerate(words)]
    expected = [c.text if c.says is None else {"claim": c.text, "says": c.says} for c in claims]
    assert parse_expect_cell(format_expect_cell(claims)) == expected
