"""Writing bank YAML that quizapp reads back exactly: a question, a deck's header, a deck.

Used by every importer, and by the tests that turn exports back into deck files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from quizapp.bank import fields as F
from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.model import Deck
from quizapp.bank.yaml12 import Yaml12Resolver

MODELINE = "# yaml-language-server: $schema=schema.json"
DEFAULT_DOMAIN = "General"
# The bundled decks' weights sum to 1; an imported deck joins them at a modest share.
DEFAULT_WEIGHT = 0.1


@dataclass(frozen=True)
class DeckInfo:
    id: str
    title: str
    topic: str
    domain: str = DEFAULT_DOMAIN
    exam_weight: float = DEFAULT_WEIGHT
    description: str | None = None


class Flow(list):
    """A list written in flow style: `tags: [a, b]`."""


class FlowMap(dict):
    """A mapping written in flow style: `args: {d_model: 512}`."""


_YAML12 = Yaml12Resolver()


class BankDumper(yaml.SafeDumper):
    """A safe dumper whose output quizapp reads back exactly.

    A string is written plain only when both YAML 1.1 (PyYAML, most editors) and YAML 1.2
    (quizapp) read it as a string, so `1e5`, `yes` and `0o17` come out quoted. Sequences are
    indented under their key, as in the bundled files, and multi-line text uses `|` blocks.
    """

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        tag = super().resolve(kind, value, implicit)
        if kind is yaml.ScalarNode and implicit[0] and tag == "tag:yaml.org,2002:str":
            return _YAML12.resolve(kind, value, implicit)
        return tag


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # `|+` (text ending in blank lines) would swallow the blank line between questions.
    style = "|" if "\n" in data and not data.endswith("\n\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _represent_float(dumper: yaml.SafeDumper, data: float) -> yaml.Node:
    if math.isfinite(data):
        text = repr(data)  # exact; `1.0e-05` rather than `1e-05` so YAML 1.1 tools agree
        if "e" in text and "." not in text:
            text = text.replace("e", ".0e", 1)
        return dumper.represent_scalar("tag:yaml.org,2002:float", text)
    return yaml.SafeDumper.represent_float(dumper, data)


BankDumper.add_representer(str, _represent_str)
BankDumper.add_representer(float, _represent_float)
BankDumper.add_representer(
    Flow, lambda d, data: d.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)
)
BankDumper.add_representer(
    FlowMap, lambda d, data: d.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)
)


def dump_yaml(data: Any) -> str:
    return yaml.dump(
        data,
        Dumper=BankDumper,
        sort_keys=False,
        allow_unicode=True,
        width=1_000_000,
        default_flow_style=False,
    )


def dump_question(question: Mapping[str, Any]) -> str:
    """One question as an item of the `questions:` list (indented two spaces)."""
    q = dict(question)
    if isinstance(q.get("tags"), list) and not isinstance(q["tags"], Flow):
        q["tags"] = Flow(q["tags"])
    if isinstance(q.get("vary"), Mapping) and not isinstance(q["vary"], FlowMap):
        q["vary"] = FlowMap({k: list(v) for k, v in q["vary"].items()})
    compute = q.get("compute")
    if isinstance(compute, Mapping) and compute.get("args") is not None:
        q["compute"] = {**compute, "args": FlowMap(compute["args"])}
    text = dump_yaml({"questions": [q]})
    assert text.startswith("questions:\n")
    return text[len("questions:\n") :]


def deck_header(deck: DeckInfo) -> str:
    meta: dict[str, Any] = {
        "id": deck.id,
        "title": deck.title,
        "topic": deck.topic,
        "domain": deck.domain,
        "exam_weight": deck.exam_weight,
    }
    if deck.description:
        meta["description"] = deck.description
    return f"{MODELINE}\n" + dump_yaml({"format": F.FORMAT_VERSION, "deck": meta})


def render_deck(deck: DeckInfo, questions: list[Mapping[str, Any]]) -> str:
    """A whole deck file: the modeline, the deck, and the questions a blank line apart."""
    return deck_header(deck) + "questions:\n" + "\n".join(dump_question(q) for q in questions)


def lint_text(text: str, scratch: Path) -> tuple[Deck | None, list[Diagnostic]]:
    """Load and lint deck-file text exactly as `quizapp lint --no-eval` would (through a file
    in `scratch`). Returns the deck that loaded and the errors."""
    from quizapp.authoring.lint import lint

    path = scratch / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    report = lint([path], evaluate=False)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    return (report.bank.decks[0] if report.bank.decks else None), errors


__all__ = [
    "DEFAULT_DOMAIN",
    "DEFAULT_WEIGHT",
    "MODELINE",
    "BankDumper",
    "DeckInfo",
    "Flow",
    "FlowMap",
    "deck_header",
    "dump_question",
    "dump_yaml",
    "lint_text",
    "render_deck",
]
