"""Safe YAML reading with YAML 1.2 scalar rules and hard limits.

We only ever *compose* (text -> node tree); nothing is constructed from tags, so no
Python object can be built from a bank file. Scalars are resolved with the YAML 1.2
core schema instead of PyYAML's YAML 1.1 defaults, so `1e-5` is a number and `no`
is a string.
"""

from __future__ import annotations

import math
import re

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from quizapp.bank.bounded import MAX_NUMBER_CHARACTERS, OutOfRange

# libyaml (the C parser) is ~10× faster; the pure-Python parser is the fallback.
try:
    from yaml._yaml import CParser as _Parser

    HAVE_LIBYAML = True
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser, Composer):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)

    HAVE_LIBYAML = False


STR = "tag:yaml.org,2002:str"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
BOOL = "tag:yaml.org,2002:bool"
NULL = "tag:yaml.org,2002:null"
SEQ = "tag:yaml.org,2002:seq"
MAP = "tag:yaml.org,2002:map"
KNOWN_TAGS = frozenset({STR, INT, FLOAT, BOOL, NULL, SEQ, MAP})

_INT_RE = re.compile(r"^(?:[-+]?[0-9]+(?:_[0-9]+)*|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:_[0-9]+)*(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


class Yaml12Resolver(yaml.resolver.BaseResolver):
    """The YAML 1.2 core schema: only true/false are booleans; no sexagesimals, dates or octal 010."""


Yaml12Resolver.yaml_implicit_resolvers = {}
Yaml12Resolver.add_implicit_resolver(
    BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
Yaml12Resolver.add_implicit_resolver(
    NULL, re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
Yaml12Resolver.add_implicit_resolver(INT, _INT_RE, list("-+0123456789"))
Yaml12Resolver.add_implicit_resolver(FLOAT, _FLOAT_RE, list("-+.0123456789"))


# A bank file nests about five levels deep; anything near this is not a bank file.
MAX_NESTING = 64


class NestingTooDeep(ValueError):
    pass


class _Composer(_Parser, Yaml12Resolver):
    def __init__(self, text: str) -> None:
        _Parser.__init__(self, text)
        Yaml12Resolver.__init__(self)
        self._depth = 0

    # The composer calls these around every node it builds, which makes them the one cheap
    # place to bound nesting before a deep tree is ever built.
    def descend_resolver(self, current_node: Node | None, current_index: object) -> None:
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise NestingTooDeep(f"the YAML nests more than {MAX_NESTING} levels deep")

    def ascend_resolver(self) -> None:
        self._depth -= 1

    # PyYAML's resolve() also walks path resolvers, which a bank never has; this one does only
    # the first-character lookup, so a list of 10**5 plain scalars composes in linear time
    # at a third of the cost.
    def resolve(self, kind: type, value: str, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            if implicit[0]:
                for tag, regexp in self.yaml_implicit_resolvers.get(value[:1], ()):
                    if regexp.match(value):
                        return tag
            return STR
        return SEQ if kind is SequenceNode else MAP


def compose(text: str) -> Node | None:
    """Parse one YAML document into nodes. Raises yaml.YAMLError on bad syntax.

    Raises NestingTooDeep past MAX_NESTING levels, so neither parser can recurse away.
    """
    composer = _Composer(text)
    try:
        return composer.get_single_node()
    finally:
        composer.dispose()


def parse_scalar(text: str) -> str | int | float | bool | None:
    """Read one plain scalar the way a bank file would (used for `key=value` on the command line)."""
    tag = Yaml12Resolver().resolve(ScalarNode, text, (True, False))
    return scalar_value(ScalarNode(tag, text))


def expanded_size(root: Node, limit: int) -> int:
    """How many nodes the tree has once every alias is expanded, counting no further than `limit`.

    The composer shares one node object between an anchor and its aliases, so the tree is
    small even when its expansion is astronomically large (a "billion laughs" file). Sizes
    are memoised per node object, so this costs one pass over the distinct nodes.
    """
    sizes: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes:
            continue
        if isinstance(node, ScalarNode):
            sizes[key] = 1
            continue
        children: list[Node] = (
            [part for pair in node.value for part in pair]
            if isinstance(node, MappingNode)
            else list(node.value)
        )
        if children_done:
            sizes[key] = min(limit + 1, 1 + sum(sizes[id(child)] for child in children))
        else:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
    return sizes[id(root)]


def scalar_value(node: ScalarNode) -> str | int | float | bool | None:
    """The Python value of a scalar under YAML 1.2 rules. Raises ValueError for a mis-tagged one."""
    tag, text = node.tag, node.value
    if tag == STR:
        return text
    if tag == BOOL:
        lowered = text.lower()
        if lowered in ("true", "false"):
            return lowered == "true"
        raise ValueError(f"{text!r} is not a boolean")
    if tag == NULL:
        if text in ("", "~", "null", "Null", "NULL"):
            return None
        raise ValueError(f"{text!r} is not null")
    if tag in (INT, FLOAT) and len(text) > MAX_NUMBER_CHARACTERS:
        # Counted, not converted: int() of thousands of digits is slow, then refused by Python.
        raise OutOfRange(
            f"a number written with {len(text)} characters is out of range "
            f"(at most {MAX_NUMBER_CHARACTERS} characters, magnitude at most 1e100)"
        )
    if tag == INT:
        if not _INT_RE.match(text):
            raise ValueError(f"{text!r} is not an integer")
        if text.startswith(("0o", "0x")):
            return int(text, 0)
        return int(text, 10)
    if tag == FLOAT:
        if not (_FLOAT_RE.match(text) or _INT_RE.match(text)):
            raise ValueError(f"{text!r} is not a number")
        lowered = text.lower()
        if lowered.endswith(".inf"):
            return -math.inf if lowered.startswith("-") else math.inf
        if lowered == ".nan":
            return math.nan
        value = float(text.replace("_", ""))
        if math.isinf(value):  # 1e400: finite as written, too large for a float
            raise OutOfRange(f"{text} is out of range (magnitude at most 1e100)")
        return value
    raise ValueError(f"unsupported tag {tag}")


__all__ = [
    "HAVE_LIBYAML",
    "KNOWN_TAGS",
    "MappingNode",
    "NestingTooDeep",
    "Node",
    "ScalarNode",
    "SequenceNode",
    "compose",
    "expanded_size",
    "parse_scalar",
    "scalar_value",
]
