"""The library the analyses share: LSA layers, tasks, training, settings, keys, noise and timing.

The modules directly under `analysis/` are the entry modules, one per analysis in
`analysis/registry.yaml`; they import from here and not from each other.
"""
