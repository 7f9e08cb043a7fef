"""quizapp: exam-prep quizzes on transformer internals, backed by live PyTorch computations."""

from time import perf_counter as _perf_counter

__version__ = "0.1.0"

# When quizapp was first imported: the start of the command, near enough, for the start-up
# time the app logs (see quizapp/tui/components/first_frame.py).
STARTED_AT = _perf_counter()
