"""The record collection: schemas, parsing, the checks of one file and of the whole."""
