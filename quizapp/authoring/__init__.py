"""Instructors' tools: lint, schema, and (later) new, preview, import and export."""
