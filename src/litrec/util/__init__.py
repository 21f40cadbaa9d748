"""Small shared pieces: atomic writes, confined reads, safe text, errors and diagnostics."""
