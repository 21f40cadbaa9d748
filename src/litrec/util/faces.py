"""A package's public face: the names it offers, imported from their module when first asked for.

Each package of litrec lists in its `__init__` what it offers other packages, name by name
with the module that defines it, and callers in other packages import from the package
(`from litrec.results import read_result`), never from the module behind it. The face is lazy
(PEP 562's module `__getattr__`): importing a package imports none of its modules, so a
command that needs one module of a package pays for that one (`litrec run` answered from its
memo imports no executor, `validate` no JAX). Type checkers read the same names from the
`if TYPE_CHECKING:` imports beside the list; `tests/architecture/test_faces.py` holds the two
to each other and to the modules.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_face(package: str, offers: dict[str, tuple[str, ...]]) -> tuple[list[str], Callable[[str], Any]]:
    """`__all__` and `__getattr__` for `package`, which offers, for each of its
    modules (by name), the names listed. A name is looked up in its module each time it is
    asked for (so a test's monkeypatch of the module is seen); another name raises
    AttributeError as Python would, which lets `from package import submodule` import the
    submodule. A face never offers a name that is also one of its modules."""
    where = {name: module for module, names in offers.items() for name in names}
    names = sorted(where)

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return names, __getattr__
