"""What a preview does to its session: a reload's edits, a `vary:` question's variants, and
the options' order. Pure Python, no Textual: the preview screen
(quizapp/tui/screens/preview.py) calls these on its keys, and tests call them directly.

A session holds the variants it shows (`quizapp.bank.variants.pick` wrote the values in), so
a variant is found again and stepped from the question as the bank file writes it: its
*base*. Variants are numbered from 1 in the order `itertools.product` gives the `vary:`
lists, the last name changing fastest: the order `quizapp lint` checks them in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from quizapp.bank.model import ChoiceQuestion, Question, Scalar
from quizapp.bank.session import QuizSession
from quizapp.bank.variants import assignments, count, instantiate, pick

# -- variants ---------------------------------------------------------------------------------


def variant_count(base: Question) -> int:
    """How many variants the question has: 1 when it does not vary."""
    return count(base) if base.vary else 1


def variant_number(base: Question, shown: Question) -> int | None:
    """Which variant of `base` `shown` is (from 1); None when the question does not vary or
    the values shown are no longer among its `vary:` lists (an edit took them out)."""
    if not base.vary:
        return None
    wanted = dict(shown.assignment)
    for number, assignment in enumerate(assignments(base), start=1):
        if assignment == wanted:
            return number
    return None


def with_variant(base: Question, number: int) -> Question:
    """Variant `number` (from 1, wrapping round) of `base`; `base` itself if it does not vary."""
    if not base.vary:
        return base
    index = (number - 1) % count(base)
    for i, assignment in enumerate(assignments(base)):
        if i == index:
            return instantiate(base, assignment)
    raise AssertionError("unreachable: index is within count(base)")


def next_variant(base: Question, shown: Question) -> Question:
    """The variant after the one shown, the first after the last."""
    return with_variant(base, (variant_number(base, shown) or 0) + 1)


def variant_label(base: Question, shown: Question) -> str | None:
    """`variant 2 of 6: d_model=512, n_heads=8`; None when the question does not vary."""
    number = variant_number(base, shown)
    if number is None:
        return None
    values = ", ".join(f"{name}={_value(v)}" for name, v in shown.assignment.items())
    return f"variant {number} of {count(base)}: {values}"


def _value(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def carried_over(base: Question, shown: Question) -> Question:
    """The new version of a question on show: the same variant when its values are still
    allowed, else the first one."""
    if not base.vary:
        return base
    if variant_number(base, shown) is not None:
        return instantiate(base, shown.assignment)
    return with_variant(base, 1)


# -- a reload ---------------------------------------------------------------------------------


def apply_edits(session: QuizSession, fresh: Sequence[Question]) -> None:
    """Put the new versions of the previewed questions (`fresh`, as the files now write them,
    in preview order) into the session, in place.

    Every question of the session is replaced by its new version: the answered ones (their
    attempts too, so the summary and its review show the edit), the one on show and those to
    come. The question on show stays current, found by id; if it was deleted, the next one
    after it that is still there. After it come the rest not yet asked, in the new preview
    order, and then the not-yet-asked ones the new order puts before it (new questions added
    above it included): nothing is left out. A deleted question that was answered keeps its
    answer and its old text; one not yet asked is dropped.
    """
    by_id = {q.id: q for q in fresh}
    renewed: dict[str, Question] = {}

    def renew(question: Question) -> Question:
        base = by_id.get(question.id)
        if base is None:
            return question
        if question.id not in renewed:
            # One object per id: undo finds an attempt's question in the list by equality.
            renewed[question.id] = carried_over(base, question)
        return renewed[question.id]

    done = session.questions[: session.index]
    ahead = session.questions[session.index :]
    done_ids = {q.id for q in done}
    for attempt in session.attempts:
        attempt.question = renew(attempt.question)
    session.skipped = [renew(q) for q in session.skipped]
    on_show = {q.id: q for q in ahead}
    order = [q.id for q in fresh]
    anchor = next((q.id for q in ahead if q.id in by_id), None)
    if anchor is not None:
        start = order.index(anchor)
        order = order[start:] + order[:start]
    coming = [
        renew(on_show[qid]) if qid in on_show else pick(by_id[qid], session.rng)
        for qid in order
        if qid not in done_ids
    ]
    session.questions = [renew(q) for q in done] + coming
    refresh_orders(session)


# -- the options' order -----------------------------------------------------------------------


def refresh_orders(session: QuizSession) -> None:
    """Each question's display order drawn again (its option count may have changed)."""
    session.display_orders = {q.id: session.display_order_of(q) for q in session.questions}


def toggle_order(session: QuizSession) -> None:
    """Options as a student sees them (shuffled, per card and session) ⇄ as the file writes
    them. An ordering question's steps stay shuffled either way: in file order they would be
    the key."""
    session.shuffle_options = not session.shuffle_options
    refresh_orders(session)


def order_label(session: QuizSession, question: Question) -> str | None:
    """What the options' order is, for a choice question that has one to change."""
    if not isinstance(question, ChoiceQuestion):
        return None
    if not question.shuffle:
        return "options in file order (shuffle: false)"
    if session.shuffle_options:
        return "options shuffled as for a student"
    return "options in file order"


def replace_current(session: QuizSession, question: Question) -> None:
    """Show `question` (another variant of the current one) in the current one's place."""
    session.questions[session.index] = question


def starting_variants(
    questions: Sequence[Question], bases: Mapping[str, Question], number: int
) -> list[Question]:
    """The session's questions with every varied one on variant `number`."""
    return [with_variant(bases[q.id], number) if q.vary else q for q in questions]
