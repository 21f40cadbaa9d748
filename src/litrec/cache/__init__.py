"""litrec's one cache, `.litrec-cache/` at the project root: answers litrec can always work out
again, so a missing, damaged or refused entry costs time, never a result.

- `slots`: the one primitive, `Slot` (a value under a key, sealed, versioned, written whole),
  the refusal rules every use shares, and the keys' code hashes (`litrec_closure`);
- its uses: `vcache` (validation), `linkmemo` (validate's suspect links), `runmemo` (a no-op
  run's verdicts), `sourcefacts` (what sources say), `historymemo` (what a file's committed
  versions say) and `jaxcache` (JAX's compile cache, a folder of it).

It imports nothing of litrec above `litrec.util`: every key is made by the caller.
"""
