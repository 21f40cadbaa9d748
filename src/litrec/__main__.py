"""`python -m litrec`: the same as the `litrec` command."""

import sys

from litrec.commands import main

sys.exit(main())
