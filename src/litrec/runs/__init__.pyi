"""Types of `litrec.runs`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.runs.options import (
    ExecutorSpec as ExecutorSpec,
    RunOptions as RunOptions,
)
from litrec.runs.plan import (
    Events as Events,
    point_progress_words as point_progress_words,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
