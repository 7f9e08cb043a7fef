"""A student's own study as the app shows it: the drill queue, the home screen's figures,
study statistics and the traps fallen into."""
