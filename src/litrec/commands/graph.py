"""`litrec graph`: every record and typed link as Graphviz dot, Mermaid or JSON."""

from __future__ import annotations

from pathlib import Path

from litrec.commands.common import check_out, emit, load_valid_project, records_args
from litrec.export import to_dot, to_json, to_mermaid


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("graph", help="print the link graph (Graphviz dot, Mermaid or JSON)",
                       description="Print every record and typed link as a Graphviz (dot) or "
                       "Mermaid graph, or as JSON nodes and edges.")
    p.add_argument("--format", choices=("dot", "mermaid", "json"), default="dot",
                   help="output format (default: dot)")
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE (default: standard output)")
    records_args(p)


def run(args) -> int:
    """Print (or write) the graph; exit 1 when the records have errors."""
    if args.out:
        check_out(args.out, args.records)
    proj = load_valid_project(args)
    if proj is None:
        return 1
    render = {"dot": to_dot, "mermaid": to_mermaid, "json": to_json}[args.format]
    emit(render(proj), args.out, f"{len(proj.records)} records, {len(proj.edges)} links",
         args.records)
    return 0
