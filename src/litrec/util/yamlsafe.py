"""Safe YAML loading that keeps where every value stands in the file.

Records are parsed to a node tree with PyYAML's safe composer (the C one when
available) and converted to plain Python data here, so that:

- only the standard YAML tags are accepted (no Python objects, ever);
- aliases are refused, so an alias bomb ("billion laughs") fails at once;
- every value can be traced back to its line and column for error messages.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

import yaml

from litrec.util.confine import MAX_RECORD_BYTES
from litrec.util.formatting import excerpt, shorten
from litrec.util.mend import syntax_fix

try:  # the C composer is several times faster; both are safe
    from yaml import CSafeLoader as _Base
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml import SafeLoader as _Base


class _Loader(_Base):
    """The safe loader with a memo for implicit tag resolution.

    Resolving a plain scalar's tag runs regular expressions in Python and is
    the largest cost of composing; record files repeat the same keys and
    values, so the answers are cached (they depend only on the value).
    """

    _memo: dict = {}

    def resolve(self, kind, value, implicit):
        if kind is yaml.ScalarNode and implicit[0]:
            key = value
            tag = self._memo.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(self._memo) < 200_000:
                    self._memo[key] = tag
            return tag
        return super().resolve(kind, value, implicit)

MAX_BYTES = MAX_RECORD_BYTES  # a record file over 1 MiB is refused before parsing
MAX_NODES = 100_000  # a record with more values than this is refused
MAX_DEPTH = 64

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_SCALAR_TAGS = {
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:timestamp",
}
_constructor = yaml.SafeLoader.__new__(yaml.SafeLoader)
yaml.constructor.SafeConstructor.__init__(_constructor)


class YamlProblem(Exception):
    """A file that is not acceptable YAML for a record; `field` names where, when known."""

    def __init__(self, message: str, line: int = 1, col: int = 1, code: str = "yaml"):
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.code = code
        self.loc: list = []  # filled in on the way out of the converter: ["filed", "date"]

    @property
    def field(self) -> str:
        """The field the problem is in, as `claims[0].check` (empty at the top level)."""
        out = ""
        for part in self.loc:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
        return out


@dataclass(frozen=True, slots=True)
class Loaded:
    """A parsed document and its node tree (for locating values); with `load_bytes(...,
    collect=True)`, the values it could not read (`problems`, each kept as its text)."""

    data: Any
    root: yaml.Node
    problems: list = field(default_factory=list)  # YamlProblem of each unreadable value


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Converter:
    """Node tree -> plain values. With `collect`, a scalar that cannot be read (an impossible
    date, a number too long) is kept as its text and its problem, located, added to
    `problems`, so the rest of the file is read and checked too; else it is raised."""

    __slots__ = ("seen", "count", "collect", "path", "problems", "max_nodes")

    def __init__(self, collect: bool = False, max_nodes: int = MAX_NODES) -> None:
        self.seen: set[int] = set()
        self.count = 0
        self.max_nodes = max_nodes
        self.collect = collect
        self.path: list = []  # the keys and indexes down to the node being converted
        self.problems: list[YamlProblem] = []

    def _too_big(self, node: yaml.Node) -> YamlProblem:
        line, col = _mark(node)
        return YamlProblem(
            f"the document is too large or too deep (limit {self.max_nodes} values, "
            f"depth {MAX_DEPTH}); split it into several records",
            line, col, "yaml-limit",
        )

    def convert(self, node: yaml.Node, depth: int = 0) -> Any:
        tag = node.tag
        cls = node.__class__
        if cls is yaml.ScalarNode:  # scalars first: most nodes are plain strings
            self.count += 1
            if self.count > self.max_nodes:  # a flat list of many values counts too
                raise self._too_big(node)
            if tag == _STR:
                return node.value
            if tag in _SCALAR_TAGS:
                if not self.collect:
                    return _scalar(node)
                try:
                    return _scalar(node)
                except YamlProblem as problem:
                    if problem.code != "yaml-value" or not self.path:
                        raise
                    problem.loc = list(self.path)
                    self.problems.append(problem)
                    return node.value
            line, col = _mark(node)
            raise YamlProblem(_TAG_MSG.format(tag=excerpt(tag)), line, col, "yaml-tag")
        key = id(node)
        if key in self.seen:  # only an alias reaches a collection node twice
            line, col = _mark(node)
            raise YamlProblem(
                "YAML anchors and aliases (&name, *name) are not allowed in records; write the value out",
                line, col, "yaml-alias",
            )
        self.seen.add(key)
        self.count += 1
        if self.count > self.max_nodes or depth > MAX_DEPTH:
            raise self._too_big(node)
        conv = self.convert
        if cls is yaml.MappingNode and tag == _MAP:
            out: dict[Any, Any] = {}
            for knode, vnode in node.value:
                if knode.tag == "tag:yaml.org,2002:merge":
                    line, col = _mark(knode)
                    merge = YamlProblem(
                        "merge keys (<<) are not allowed in records; write the keys out",
                        line, col, "yaml-alias",
                    )
                    merge.loc.append("<<")
                    raise merge
                k = conv(knode, depth + 1)
                if not isinstance(k, str):
                    raise _bad_key(knode, k)
                if k in out:
                    line, col = _mark(knode)
                    duplicate = YamlProblem(
                        f"duplicate key '{excerpt(k)}'; keep one of them", line, col, "yaml-duplicate-key"
                    )
                    duplicate.loc.append(k)
                    raise duplicate
                self.path.append(k)
                try:
                    out[k] = conv(vnode, depth + 1)
                except YamlProblem as problem:
                    problem.loc.insert(0, k)
                    raise
                finally:
                    self.path.pop()
            return out
        if cls is yaml.SequenceNode and tag == _SEQ:
            items: list[Any] = []
            append = items.append
            try:
                for v in node.value:
                    self.path.append(len(items))
                    try:
                        append(conv(v, depth + 1))
                    finally:
                        self.path.pop()
            except YamlProblem as problem:
                problem.loc.insert(0, len(items))
                raise
            return items
        line, col = _mark(node)
        raise YamlProblem(_TAG_MSG.format(tag=excerpt(tag)), line, col, "yaml-tag")


def _bad_key(knode: yaml.Node, key: Any) -> YamlProblem:
    """A mapping key that is not text: field names are always text."""
    line, col = _mark(knode)
    if isinstance(key, (dict, list)):
        return YamlProblem("a mapping key must be a plain value", line, col, "yaml-key")
    text = knode.value if isinstance(knode, yaml.ScalarNode) else repr(key)
    what = {type(None): "null", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(key), "a date" if hasattr(key, "isoformat") else type(key).__name__)
    if not text:
        return YamlProblem("a key is empty (it reads as null); write the field name",
                           line, col, "yaml-key")
    return YamlProblem(f"key '{text}' reads as {what} in YAML, not as a field name; "
                       f"field names are text: quote it ('{text}') or fix the key",
                       line, col, "yaml-key")


def _scalar(node: yaml.ScalarNode) -> Any:
    """A plain scalar's value; a located YamlProblem for one YAML reads but Python cannot hold."""
    tag = node.tag
    try:
        value = _constructor.yaml_constructors[tag](_constructor, node)
    except (ValueError, OverflowError, ArithmeticError, AttributeError, yaml.YAMLError) as exc:
        # AttributeError: PyYAML's timestamp constructor on a `!!timestamp` that is no date at all
        line, col = _mark(node)
        text = shorten(node.value, 40)
        if tag.endswith(":timestamp"):
            why = ("not a date YAML reads" if isinstance(exc, AttributeError)
                   else str(exc).split(":")[0] if str(exc) else "no such date")
            msg = (f"'{text}' is not a real date ({why}); write a date that exists, as "
                   "YYYY-MM-DD, or quote it if it is text")
        elif tag.endswith(":int"):
            digits = sum(ch.isdigit() for ch in node.value)
            msg = (f"the whole number {text} is too long to read ({digits} digits, "
                   f"limit {_int_limit()}); quote it if it is text")
        else:
            msg = f"cannot read {text!r} as a {tag.rsplit(':', 1)[-1]}: {exc}"
        raise YamlProblem(msg, line, col, "yaml-value") from None
    if value.__class__ is float and value in (_INF, -_INF) and "inf" not in node.value.lower():
        line, col = _mark(node)
        text = shorten(node.value, 40)
        raise YamlProblem(f"the number {text} is too large to hold (beyond ±1.8e308); "
                          "write a smaller number, or quote it if it is text",
                          line, col, "yaml-value")
    return value


_INF = float("inf")


def _int_limit() -> int:
    return sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300


_TAG_MSG = ("tag '{tag}' is not allowed in records; only plain YAML values "
            "(strings, numbers, booleans, dates, lists, mappings) are")


def load_bytes(raw: bytes, collect: bool = False, max_bytes: int = MAX_BYTES, max_nodes: int = MAX_NODES,
               what: str = "a record") -> Loaded:
    """Parse one record file's bytes; raise YamlProblem for anything unacceptable.

    `collect`: a value that cannot be read (an impossible date, a number too long) does not
    stop the reading: it is kept as its text and its located problem listed in
    `Loaded.problems`, so the file's other problems are found too. `max_bytes`, `max_nodes`:
    the limits, a record's unless the file is another (`what`: litrec's review file, which
    grows with the project).
    """
    if len(raw) > max_bytes:
        raise YamlProblem(
            f"file is {len(raw)} bytes, over the {max_bytes}-byte limit for {what}",
            code="yaml-limit",
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise YamlProblem(
            f"file is not UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
            line, col, "encoding",
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = excerpt(exc.problem or "invalid YAML")
        ctx = f" ({excerpt(exc.context)})" if exc.context else ""
        fix = syntax_fix(exc.problem or "", exc.context or "", text, mark)
        raise YamlProblem(f"YAML syntax error: {what}{ctx}; {fix}", line, col, "yaml-syntax") from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        preceding = text[: exc.position]
        line = preceding.count("\n") + 1
        col = exc.position - (preceding.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        raise YamlProblem(f"character U+{char:04X} is not allowed in YAML; remove it",
                          line, col, "yaml-syntax") from None
    except yaml.YAMLError as exc:  # e.g. several documents in one file
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise YamlProblem(f"YAML error: {excerpt(first)}", code="yaml-syntax") from None
    if root is None:
        raise YamlProblem("file is empty; a record is a YAML mapping with at least 'id' and 'kind'",
                          code="empty")
    converter = _Converter(collect, max_nodes)
    data = converter.convert(root)
    if not isinstance(data, dict):
        line, col = _mark(root)
        found = "a list" if isinstance(data, list) else f"{type(data).__name__} {excerpt(repr(data), 60)}"
        raise YamlProblem(
            f"the top level must be a mapping of fields (id: ..., kind: ...), found {found}",
            line, col, "not-mapping",
        )
    return Loaded(data, root, converter.problems)


class LazyRoot:
    """The node tree of a file, parsed again only when a message needs a position."""

    __slots__ = ("path", "_node")

    def __init__(self, path: str) -> None:
        self.path = path
        self._node: yaml.Node | None = None

    @property
    def node(self) -> yaml.Node | None:
        """The file's node tree, parsed on first use."""
        if self._node is None:
            from litrec.util.confine import Refused, read_regular

            try:
                self._node = load_bytes(read_regular(self.path, MAX_BYTES)).root
            except (OSError, Refused, YamlProblem):
                return None
        return self._node


def locate(root: yaml.Node | LazyRoot | None, loc: tuple, key: bool = False) -> tuple[int, int]:
    """Line and column of the value at `loc` (or of its key), or of the nearest parent."""
    if isinstance(root, LazyRoot):
        root = root.node
    if root is None:
        return 1, 1
    node = root
    best = _mark(root)
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(node, yaml.MappingNode):
            for knode, vnode in node.value:
                if knode.value == part or (not isinstance(part, str) and knode.value == str(part)):
                    if last and key:
                        return _mark(knode)
                    node = vnode
                    break
            else:
                return best
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if 0 <= part < len(node.value):
                node = node.value[part]
            else:
                return best
        else:
            return best
        best = _mark(node)
    return best

