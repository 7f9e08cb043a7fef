"""Exam readiness: the forecast of the exam-day score, the study plan, and the simulations
that measure both against strong baselines."""
