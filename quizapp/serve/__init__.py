"""`quizapp serve`: the app in the browser, through textual-serve.

Each browser tab gets its own app process (textual-serve's model): the same `python -m quizapp`
a student runs in a terminal, with the same options, driven over a websocket. This package
never imports torch or textual's app side: the server only starts, limits and ends processes.
"""
