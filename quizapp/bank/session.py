"""A quiz session: which questions, in what order, and how the student did. Pure, no UI."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from quizapp.bank.display_order import display_order, session_seed_text
from quizapp.bank.grading import Grade
from quizapp.bank.model import Question
from quizapp.bank.variants import pick

# How an answer came in its session, recorded with it (the forecast counts only unaided first
# attempts as evidence: quizapp/srs/readiness/evidence.py).
FIRST = "first"  # the question's first answer in the session
REPEAT = "repeat"  # asked again after an answer that stood (a drill's learning step)
AIDED = "aided"  # asked again after its answer was shown and taken back (undo)


@dataclass(frozen=True)
class SessionOptions:
    length: int | None = None  # None: every selected question
    # The order of the QUESTIONS only (the home screen's Shuffle switch; a drill keeps its
    # queue's order). Each question's options are shuffled whatever this says.
    shuffle: bool = True
    seed: int | None = None  # None: a fresh seed, so a fresh order, each session
    # False only for the authoring aid `--no-shuffle`: the options as the file writes them.
    # Never a student's default: where the author wrote the key would be a cue
    # (quizapp/bank/display_order.py).
    shuffle_options: bool = True


def new_session_seed() -> int:
    return random.SystemRandom().randrange(2**63)


@dataclass
class Attempt:
    question: Question
    grade: Grade
    seconds: float


@dataclass
class TopicScore:
    topic: str
    correct: int = 0
    answered: int = 0

    @property
    def percent(self) -> float:
        return 100.0 * self.correct / self.answered if self.answered else 0.0


@dataclass
class QuizSession:
    questions: list[Question]
    title: str = "Session"
    kind: str = "quiz"  # quiz or drill: recorded with each answer
    rng: random.Random = field(default_factory=random.Random)
    # Each card's display order is drawn from this seed and its id (display_order.py): the
    # same card shows the same order all session long, another session shows another.
    seed: int | str = field(default_factory=new_session_seed)
    shuffle_options: bool = True
    attempts: list[Attempt] = field(default_factory=list)
    # Per question, the order its options or steps are shown in (indices into the file's order).
    display_orders: dict[str, tuple[int, ...]] = field(default_factory=dict)
    skipped: list[Question] = field(default_factory=list)  # not scored (buried, unknown key…)
    actions: list[str] = field(default_factory=list)  # "answer" or "skip", in order, for undo
    taken_back: set[str] = field(default_factory=set)  # ids whose answer (and feedback) was undone

    @classmethod
    def start(
        cls,
        questions: Iterable[Question],
        options: SessionOptions = SessionOptions(),
        title: str = "Session",
        kind: str = "quiz",
    ) -> QuizSession:
        seed = options.seed if options.seed is not None else new_session_seed()
        # The questions' order and variants come from their own generator, so the options'
        # orders (per card, from the seed) do not depend on how many questions were drawn.
        rng = random.Random(seed)
        chosen = list(questions)
        if options.shuffle:
            rng.shuffle(chosen)
        if options.length is not None:
            chosen = chosen[: max(0, options.length)]
        # A parameterized question shows a fresh variant each session (its id, and so its
        # review history, stays one card).
        chosen = [pick(question, rng) for question in chosen]
        session = cls(
            questions=chosen,
            title=title,
            kind=kind,
            rng=rng,
            seed=seed,
            shuffle_options=options.shuffle_options,
        )
        for question in chosen:
            session.display_orders[question.id] = session.display_order_of(question)
        return session

    def display_order_of(self, question: Question) -> tuple[int, ...]:
        """The order this session shows the question's options or steps in: the same each time
        it is asked. An ordering question is never shown solved, even with --no-shuffle."""
        seed_text = session_seed_text(self.seed, question.id)
        return display_order(question, seed_text, shuffle=self.shuffle_options)

    @property
    def index(self) -> int:
        return len(self.attempts) + len(self.skipped)

    @property
    def finished(self) -> bool:
        return self.index >= len(self.questions)

    @property
    def current(self) -> Question | None:
        return None if self.finished else self.questions[self.index]

    @property
    def score(self) -> int:
        return sum(a.grade.correct for a in self.attempts)

    def record(self, grade: Grade, seconds: float) -> Attempt:
        question = self.current
        if question is None:
            raise RuntimeError("the session is over")
        attempt = Attempt(question, grade, seconds)
        self.attempts.append(attempt)
        self.actions.append("answer")
        return attempt

    def attempt(self, question: Question) -> str:
        """How an answer to `question` now comes in this session: FIRST, REPEAT or AIDED."""
        if question.id in self.taken_back:
            return AIDED
        if any(a.question.id == question.id for a in self.attempts):
            return REPEAT
        return FIRST

    @property
    def last_action(self) -> str | None:
        return self.actions[-1] if self.actions else None

    def undo(self) -> Question | None:
        """Take back the latest answer or skip; its question becomes current again."""
        if not self.actions:
            return None
        kind = self.actions.pop()
        question = self.attempts.pop().question if kind == "answer" else self.skipped.pop()
        # Move it to the current slot: questions before the index are the answered and skipped
        # ones, in any order, so this keeps `current` pointing at the undone question.
        self.questions.remove(question)
        self.questions.insert(self.index, question)
        if kind == "answer":
            self.taken_back.add(question.id)  # its answer and explanation have been shown
            # A question comes again only after an answer (a drill's learning step): with the
            # answer taken back, so is the repeat.
            later = self.questions[self.index + 1 :]
            self.questions[self.index + 1 :] = [q for q in later if q.id != question.id]
        return question

    def ask_next(self, question: Question) -> None:
        """Ask `question` (again) now: a drill's learning card that has come due."""
        self.questions.insert(self.index, question)
        self.display_orders.setdefault(question.id, self.display_order_of(question))

    @property
    def total(self) -> int:
        """Questions asked or still to ask: skipped ones (buried, suspended) no longer count."""
        return len(self.questions) - len(self.skipped)

    def skip(self) -> None:
        """Move past the current question without scoring it (its key could not be computed)."""
        question = self.current
        if question is None:
            raise RuntimeError("the session is over")
        self.skipped.append(question)
        self.actions.append("skip")

    def by_topic(self) -> list[TopicScore]:
        scores: dict[str, TopicScore] = {}
        for attempt in self.attempts:
            entry = scores.setdefault(attempt.question.topic, TopicScore(attempt.question.topic))
            entry.answered += 1
            entry.correct += attempt.grade.correct
        return sorted(scores.values(), key=lambda s: s.topic)

    @property
    def missed(self) -> list[Attempt]:
        return [a for a in self.attempts if not a.grade.correct]


def select(
    questions: Sequence[Question], *, deck_ids: Iterable[str] = (), tags: Iterable[str] = ()
) -> list[Question]:
    """The questions in any of the decks (all decks if none named) carrying any of the tags."""
    decks, wanted = set(deck_ids), set(tags)
    return [
        q
        for q in questions
        if (not decks or q.deck_id in decks) and (not wanted or wanted.intersection(q.tags))
    ]
