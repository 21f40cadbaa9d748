"""Types of `litrec.cache`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.cache.jaxcache import (
    compile_cache as compile_cache,
)
from litrec.cache.slots import (
    cache_dir as cache_dir,
    cache_folder as cache_folder,
    caching_off as caching_off,
    named as named,
    OFF_VARIABLE as OFF_VARIABLE,
    plain as plain,
    Slot as Slot,
    turn_off as turn_off,
)
from litrec.cache.sourcefacts import (
    fact as fact,
)
from litrec.cache.vcache import (
    Between as Between,
    Cache as Cache,
    FileEntry as FileEntry,
    Registry as Registry,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
