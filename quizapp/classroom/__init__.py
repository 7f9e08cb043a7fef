"""For the instructor: item analysis of a class's answers (which questions the class gets wrong,
which distractor pulls them) and each student's standing. No textual, no torch."""
