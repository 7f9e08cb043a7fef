"""The Textual app. Screens in screens/, widgets in widgets/, styles in app.tcss."""
