"""Reading a compute block's `expect:` list: claims checked for form where they are written.

The loader holds each claim to the evaluator's whitelist (quizapp.bank.claims) and reports a
claim it refuses at the claim's own line. Whether the names are values of the computation is
a registry question, so `quizapp lint` checks that (the bank never imports the registry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizapp.bank import fields as F
from quizapp.bank.claims import MAX_CLAIMS, MAX_SAYS_LENGTH, ClaimError, parse_claim, quoted
from quizapp.bank.model import Claim
from quizapp.bank.yaml12 import Node, ScalarNode

if TYPE_CHECKING:
    from quizapp.bank.validate_nodes import NodeReader


def read_expect(validator: NodeReader, node: Node) -> tuple[Claim, ...] | None:
    """The claims of an `expect:` list, or None when any entry is wrong (each is reported)."""
    items = validator.sequence(node, "expect")
    if items is None:
        return None
    if not items:
        validator.report(node, "bad-claim", "expect lists no claims; write one or remove it")
        return None
    if len(items) > MAX_CLAIMS:
        validator.report(
            node, "bad-claim", f"expect lists {len(items)} claims; at most {MAX_CLAIMS}"
        )
        return None
    claims: list[Claim] = []
    ok = True
    for item in items:
        claim = _read_claim(validator, item)
        if claim is None:
            ok = False
        else:
            claims.append(claim)
    return tuple(claims) if ok else None


def _read_claim(validator: NodeReader, item: Node) -> Claim | None:
    says: str | None = None
    if isinstance(item, ScalarNode):
        text_node: Node = item  # the shorthand: a bare string is a claim without words
    else:
        found = validator.mapping(item, F.CLAIM_FIELDS, "a claim")
        if found is None or "claim" not in found:
            return None
        text_node = found["claim"][1]
        if "says" in found:
            says_node = found["says"][1]
            says = validator.text(says_node, "says")
            if says is None:
                return None
            says = says.strip()
            if not says.isprintable():  # a line break, a tab, an escape sequence
                validator.report(
                    says_node, "bad-claim", "says is one line of printable text; shorten it"
                )
                return None
            if len(says) > MAX_SAYS_LENGTH:
                validator.report(
                    says_node,
                    "bad-claim",
                    f"says is at most {MAX_SAYS_LENGTH} characters, not {len(says)}",
                )
                return None
    text = validator.text(text_node, "a claim")
    if text is None:
        return None
    try:
        parsed = parse_claim(text)
    except ClaimError as exc:
        validator.report(text_node, "bad-claim", f"claim {quoted(text)}: {exc}")
        return None
    return Claim(text=parsed.text, location=validator.location(text_node), says=says)
