"""The live processes of this machine, as /proc lists them: for the tests that check a run
leaves none of its own behind (Linux only; elsewhere the list is empty)."""

from __future__ import annotations

from pathlib import Path


def live() -> dict[int, tuple[int, int]]:
    """Every live process (zombies left out): pid -> (parent pid, process group)."""
    found = {}
    for d in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] != "Z":
                found[int(d.name)] = (int(fields[1]), int(fields[2]))
    return found


def in_group(pgid: int) -> list[int]:
    """The live processes of process group `pgid`."""
    return [pid for pid, (_, group) in live().items() if group == pgid]


def descendants(pid: int) -> set[int]:
    """The live processes under `pid`, however deep (those that left its group too)."""
    children: dict[int, list[int]] = {}
    for child, (parent, _) in live().items():
        children.setdefault(parent, []).append(child)
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.add(child)
            todo.append(child)
    return found
