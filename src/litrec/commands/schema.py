"""`litrec schema`: write one JSON Schema per record kind."""

from __future__ import annotations

from pathlib import Path

from litrec.commands.common import EXIT_OK, check_out
from litrec.records.schema import write_schemas
from litrec.util.errors import UsageError


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("schema", help="write a JSON Schema per record kind",
                       description="Write one JSON Schema per record kind (from the pydantic models) "
                       "for editors such as the YAML language server.")
    p.add_argument("--out", type=Path, default=Path("schema"), metavar="DIR",
                   help="output folder (default: schema)")


def run(args) -> int:
    """Write the schemas and print their paths."""
    check_out(args.out, Path("records"), folder=True)
    try:
        written = write_schemas(args.out)
    except OSError as exc:
        raise UsageError(f"--out '{args.out}': cannot write the schemas there "
                         f"({exc.strerror or exc})") from None
    for path in written:
        print(path)
    return EXIT_OK
