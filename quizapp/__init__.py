"""quizapp: exam-prep quizzes on transformer internals, backed by live PyTorch computations."""

__version__ = "0.1.0"
