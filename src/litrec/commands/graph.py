"""`litrec graph`: every record and typed link as Graphviz dot, Mermaid or JSON."""

from __future__ import annotations

from pathlib import Path

from litrec.commands.common import check_out, emit, records_args


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("graph", help="print the link graph (Graphviz dot, Mermaid or JSON)",
                       description="Print every record and typed link as a Graphviz (dot) or "
                       "Mermaid graph, or as JSON nodes and edges.")
    p.add_argument("--format", choices=("dot", "mermaid", "json"), default="dot",
                   help="output format (default: dot)")
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE, where no file or one litrec wrote is (default: "
                   "standard output)")
    records_args(p)


def run(args) -> int:
    """Print (or write) the graph (`litrec.export.document.draw_graph`); exit 1 when the records have
    errors."""
    from litrec.export.document import draw_graph

    if args.out:
        check_out(args.out, args.records)
    drawn = draw_graph(args.records, args.analysis, args.format)
    emit(drawn.text, args.out, f"{drawn.records} records, {drawn.links} links", args.records)
    return 0
