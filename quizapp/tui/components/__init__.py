"""The app's concerns, one module each; quizapp/tui/app.py only wires them to the App.

- palette.py: the command palette's entries (a table: adding a command is one line there)
- sessions.py: starting quizzes, previews and mock exams
- live_reload.py: watching the bank files and announcing what a reload changed
- quitting.py: asking before a quit would cut a session short or leave answers unsaved
- startup.py: what starts at the first layout, and what waits for the first frame

Other concerns have modules beside app.py in quizapp/tui/:
app_options.py (how the app was asked to start), history_writes.py (the review history,
written off the UI thread), lab_service.py and lab_device.py (the lab and its device),
drill.py, hidden.py (bury and suspend), quiz_mode.py, theme_memory.py, home_refresh.py,
reload.py (the watcher itself) and first_frame.py; each screen's opener lives with its
screen in quizapp/tui/screens/ (stats, readiness, fit, help, lab).
"""
