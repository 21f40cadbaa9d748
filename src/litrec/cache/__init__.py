"""litrec's one cache, `.litrec-cache/` at the project root: answers litrec can always work out
again, so a missing, damaged or refused entry costs time, never a result.

- `slots`: the one primitive, `Slot` (a value under a key, sealed, versioned, written whole),
  the refusal rules every use shares, and the keys' code hashes (`litrec_closure`);
- its uses: `vcache` (validation), `linkmemo` (validate's suspect links), `runmemo` (a no-op
  run's verdicts), `sourcefacts` (what sources say), `historymemo` (what a file's committed
  versions say) and `jaxcache` (JAX's compile cache, a folder of it).

It imports nothing of litrec above `litrec.util`: every key is made by the caller.
"""

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "jaxcache": ("compile_cache",),
    "slots": ("cache_dir", "cache_folder", "caching_off", "named", "OFF_VARIABLE", "plain", "Slot", "turn_off"),
    "sourcefacts": ("fact",),
    "vcache": ("Between", "Cache", "FileEntry", "Registry"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
