"""Under mutation testing (`make mutation`), the unit tests of a function run before those that
build a project: mutmut runs a mutant's tests with `-x` and stops at the first that fails, and a
unit test usually kills it in a fraction of the time a project takes to build. Outside mutmut the
order is pytest's own."""

from __future__ import annotations

import os


def pytest_collection_modifyitems(config, items):
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    items.sort(key=lambda item: "project" in getattr(item, "fixturenames", ()))
