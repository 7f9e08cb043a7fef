"""Text on screen: untrusted text shown literally, a question named in a line, a number box's hint."""
