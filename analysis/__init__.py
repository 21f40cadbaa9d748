"""JAX analyses that rerun the claims of the papers in the record (see site/writing-analyses.md)."""
