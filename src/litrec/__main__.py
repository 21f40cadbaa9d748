"""`python -m litrec` runs the command-line interface."""

from litrec.cli import main

raise SystemExit(main())
