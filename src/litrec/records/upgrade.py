"""`litrec upgrade`: records written for an older format, brought to the present one in place.

What changed in the format, and what of it is mechanical:

- every expectation of a paper's claim (a literature record's) says where it comes from
  (`source`); one without gets `source: {kind: paper, where: "TODO", quote: "TODO",
  threshold: litrec, threshold_reason: "TODO"}`;
- a paper source needs `where`, `quote` and `threshold`, an official one `threshold`, and
  `threshold: litrec` its `threshold_reason`; each field missing gets its placeholder.

Only the record's owner can say where an expectation comes from, so what is added is the
placeholder `TODO` (`litrec.records.expectation.PLACEHOLDER`): the record validates,
`validate` warns of each to-do, a quote TODO is never checked against the paper's text, and
the site marks the source *to-do*. The threshold is said to be litrec's until the owner
says otherwise: a threshold whose origin was never written never reads as the paper's.
None of this changes what is judged (`source` is prose: `litrec.records.criteria`), so no
stored result goes stale and no verdict moves.

Each change is made to the file's text, as `litrec new claim` appends a claim
(`litrec.records.newclaim`): a field goes after the last one of its mapping, in the
mapping's own style (`, source: {...}` inside a flow mapping, a line at the keys'
indentation in a block one), so comments, layout and quoting stay as they were. The new
text must read as the old one plus the fields added, or the file is not written; a file
that needs no change is never written; a file is replaced in one rename, as itself (a
link inside the project stays a link); a link out of the project is refused.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from litrec.records.expectation import PLACEHOLDER

_TODO = f'"{PLACEHOLDER}"'
_THRESHOLD = (("threshold", "litrec"), ("threshold_reason", _TODO))
NEW_SOURCE = (("kind", "paper"), ("where", _TODO), ("quote", _TODO)) + _THRESHOLD


@dataclass(frozen=True)
class Change:
    """One field added: where (`claims[0].check.expect[1]`), at which line, and what."""

    field: str
    line: int
    added: str


@dataclass
class FileUpgrade:
    """What upgrading one record file does: its text before and after, each change, or why it
    is left as it is (`problem`)."""

    path: Path
    old: str = ""
    new: str = ""
    changes: list[Change] = field(default_factory=list)
    problem: str | None = None

    def diff(self, shown: str) -> str:
        """The change as a unified diff, the file named `shown`."""
        return "".join(difflib.unified_diff(self.old.splitlines(keepends=True),
                                            self.new.splitlines(keepends=True),
                                            f"a/{shown}", f"b/{shown}"))


def _get(node: Any, key: str) -> Any:
    """The value node of `key` in a mapping node, or None."""
    if not isinstance(node, yaml.MappingNode):
        return None
    return next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)


def _items(node: Any) -> list:
    return node.value if isinstance(node, yaml.SequenceNode) else []


def _scalar(node: Any) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def missing_fields(expect: Any) -> tuple[str, tuple]:
    """What one expectation's mapping node lacks: `("", pairs)` for a new source, `("source",
    pairs)` for fields its source lacks, `("", ())` when nothing."""
    source = _get(expect, "source")
    if source is None:
        return "", NEW_SOURCE
    if not isinstance(source, yaml.MappingNode):
        return "", ()
    kind = _scalar(_get(source, "kind"))
    has = {_scalar(k) for k, _ in source.value}
    pairs: list[tuple[str, str]] = []
    if kind == "paper":
        pairs += [(name, _TODO) for name in ("where", "quote") if name not in has]
    if kind in ("paper", "official"):
        if "threshold" not in has:
            pairs += [p for p in _THRESHOLD if p[0] not in has]
        elif _scalar(_get(source, "threshold")) == "litrec" and "threshold_reason" not in has:
            pairs.append(("threshold_reason", _TODO))
    return "source", tuple(pairs)


def _insertion(text: str, mapping: yaml.MappingNode, pairs: tuple, newline: str) -> tuple[int, str]:
    """Where and what to write to add `pairs` to `mapping`, in the mapping's own style."""
    written = [f"{k}: {v}" for k, v in pairs]
    if not mapping.value:  # `{}`: inside the braces
        return mapping.start_mark.index + 1, ", ".join(written)
    last = mapping.value[-1][1]
    if mapping.flow_style:
        return last.end_mark.index, "".join(f", {w}" for w in written)
    end = len(text[:last.end_mark.index].rstrip())  # the end of the last value's last line
    eol = text.find("\n", end)
    at = len(text) if eol < 0 else eol + 1
    indent = " " * mapping.value[0][0].start_mark.column
    lead = "" if eol >= 0 else newline
    return at, lead + "".join(f"{indent}{w}{newline}" for w in written)


def _expected(data: Any, plan: list[tuple[tuple, tuple]]) -> Any:
    """The old file's data with every planned field added: what the new text must read as."""
    import copy

    out = copy.deepcopy(data)
    for loc, pairs in plan:
        node = out
        for part in loc:
            node = node[part]
        for k, v in pairs:
            node[k] = yaml.safe_load(v)
    return out


def plan_upgrade(path: Path, text: str) -> FileUpgrade:
    """What upgrading the record `text` (the file at `path`) adds; no change where it needs none."""
    from litrec.util.diagnostics import format_field
    from litrec.util.yamlsafe import YamlProblem, load_bytes

    out = FileUpgrade(path, text, text)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = load_bytes(text.encode("utf-8")).data
    except (yaml.YAMLError, YamlProblem, ValueError):
        out.problem = "its YAML cannot be read: fix it first (litrec validate says where)"
        return out
    if _scalar(_get(root, "kind")) != "literature" or not isinstance(data, dict):
        return out
    newline = "\r\n" if "\r\n" in text else "\n"
    edits: list[tuple[int, str]] = []
    plan: list[tuple[tuple, tuple]] = []
    for i, claim in enumerate(_items(_get(root, "claims"))):
        for j, expect in enumerate(_items(_get(_get(claim, "check"), "expect"))):
            where, pairs = missing_fields(expect)
            if not pairs or not isinstance(expect, yaml.MappingNode):
                continue
            loc = ("claims", i, "check", "expect", j) + ((where,) if where else ())
            target = _get(expect, "source") if where else expect
            if not where:  # the whole source, one flow mapping
                pairs = (("source", "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"),)
            edits.append(_insertion(text, target, pairs, newline))
            plan.append((loc, pairs))
            out.changes.append(Change(format_field(loc), target.start_mark.line + 1,
                                      ", ".join(f"{k}: {v}" for k, v in pairs)))
    new = text
    for at, piece in sorted(edits, reverse=True):
        new = new[:at] + piece + new[at:]
    try:
        same = load_bytes(new.encode("utf-8")).data == _expected(data, plan)
    except (YamlProblem, ValueError, KeyError, TypeError):
        same = False
    if not same:  # never written: the edit would change more than the fields added
        out.changes, out.problem = [], ("could not add the fields without changing the rest of "
                                        "the file; add them by hand: " + "; ".join(
                                            f"{format_field(loc)}: {', '.join(k for k, _ in p)}"
                                            for loc, p in plan))
        return out
    out.new = new
    return out


def upgrade_records(records_dir: Path, dry_run: bool = False) -> list[FileUpgrade]:
    """`litrec upgrade` below the command: every record file under `records_dir` that needs a
    change, changed in place (not with `dry_run`), and every one that could not be: a file
    linked out of the project, or one whose YAML cannot be read or edited safely."""
    from litrec.records.discover import find_record_files
    from litrec.records.newrecord import write_replace
    from litrec.util.confine import Refused, check, need_dir, project_root

    need_dir(records_dir, "records")
    root = project_root(records_dir)
    out = []
    for path in find_record_files(records_dir):
        try:
            check(path, root)
            text = path.read_bytes().decode("utf-8")
        except Refused as exc:
            out.append(FileUpgrade(path, problem=f"{exc.message}; not rewritten"))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            out.append(FileUpgrade(path, problem=f"cannot be read: {exc}"))
            continue
        found = plan_upgrade(path, text)
        if found.problem is None and not found.changes:
            continue
        if found.changes and not dry_run:
            write_replace(path, found.new)
        out.append(found)
    return out
